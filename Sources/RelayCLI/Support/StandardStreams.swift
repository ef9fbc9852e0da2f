import Foundation
import RelayKit
import RelayEngine
import RelayRuntime

/// Writes to standard output and standard error without buffering surprises.
/// What goes to a terminal is shown, never obeyed (Docs/Security.md, "Nothing shown is believed"):
/// standard error is for people, so its control characters are always made visible; standard
/// output only when it is a terminal, so that a workflow's output piped on keeps its bytes.
enum StandardStreams {
    static func writeOutput(_ text: String) {
        guard !text.isEmpty else { return }
        let shown = isatty(1) == 1 ? TerminalText.visible(text, keepingLineBreaks: true) : text
        FileHandle.standardOutput.write(Data(shown.utf8))
    }

    /// Writes text for people to standard error, with its control characters made visible.
    static func writeError(_ text: String) {
        guard !text.isEmpty else { return }
        FileHandle.standardError.write(Data(TerminalText.visible(text, keepingLineBreaks: true).utf8))
    }

    /// Writes text Relay styled itself — colours, a progress line redrawn in place — whose every
    /// piece from elsewhere was made visible with `TerminalText.visible` first.
    static func writeStyled(_ text: String) {
        guard !text.isEmpty else { return }
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Whether standard error is a terminal that wants colour (`NO_COLOR` unset).
    static var errorUsesColor: Bool {
        isatty(2) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }
}

/// Prints `show` output and traces for `relay run`.
struct TerminalRunOutput: RunOutput {
    let json: Bool
    /// Notes whether what is shown names a file in the run's scratch folder, which must then be kept.
    var scratch: ScratchMentions? = nil
    /// Whether a question is on the terminal.
    var terminal: TerminalState? = nil
    /// The run's secrets, shown as ••• wherever they would be (Docs/Runs.md, "Secrets").
    var secrets: RunSecrets? = nil

    func show(_ value: Value) {
        // A value the step made from a secret is shown as ••• whole (Docs/Runs.md, "Secrets").
        let text = masked(OutputFormatter.render(SecretLabels.step.isEmpty ? value : .text(RunSecrets.mask), json: json))
        scratch?.note(text)
        terminal?.endBar()
        StandardStreams.writeOutput(text)
    }

    func trace(_ line: String) {
        terminal?.endBar()
        StandardStreams.writeError(masked(line) + "\n")
    }

    private func masked(_ text: String) -> String {
        secrets?.redact(text) ?? text
    }

    /// A bar on standard error, redrawn in place, only on a terminal; cleared when done.
    func progress(_ fraction: Double, label: String?, step: String) {
        // A question waits for its answer: a bar drawn over it would hide it.
        guard isatty(2) == 1, terminal?.isPrompting != true else { return }
        StandardStreams.writeStyled(ProgressBar.line(fraction, label: label.map { TerminalText.visible(masked($0)) }, step: TerminalText.visible(step)))
        terminal?.barShown(fraction < 1)
    }
}

/// The progress line drawn on a terminal.
enum ProgressBar {
    static let width = 24

    /// `\r` and an erased line, then `step [#####-----]  45% label`; just the erasing at 100%;
    /// `step label` when the end is not known (a fraction below 0).
    static func line(_ fraction: Double, label: String?, step: String) -> String {
        let erase = "\r\u{1B}[2K"
        guard fraction < 1 else { return erase }
        guard fraction >= 0 else { return erase + step + (label.map { " \($0)" } ?? "") }
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let percent = String(Int((fraction * 100).rounded(.down)))
        return erase + "\(step) [\(bar)] \(String(repeating: " ", count: max(0, 3 - percent.count)))\(percent)%" + (label.map { " \($0)" } ?? "")
    }
}

/// Whether a run printed a path in its scratch folder: the folder is kept after the run only then.
final class ScratchMentions: @unchecked Sendable {
    let folder: ScratchFolder
    private let lock = NSLock()
    private var mentioned = false

    init(_ folder: ScratchFolder) { self.folder = folder }

    func note(_ printed: String) {
        if folder.isMentioned(in: printed) { lock.withLock { mentioned = true } }
    }

    /// At the end of the run: removes the folder unless something printed names a path in it.
    func finish() {
        if !lock.withLock({ mentioned }) { folder.remove() }
    }
}

/// What the terminal is doing: while a question (or the REPL's prompt) waits for its answer,
/// progress is not drawn; a bar a step left behind (a loop stopped part way) is erased before it.
final class TerminalState: @unchecked Sendable {
    private let lock = NSLock()
    private var asking = false
    private var bar = false

    var isPrompting: Bool { lock.withLock { asking } }

    func prompting(_ on: Bool) {
        if on { endBar() }
        lock.withLock { asking = on }
    }

    /// Erases a bar a step left on the screen (a loop stopped part way), before anything else is written.
    func endBar() {
        guard lock.withLock({ defer { bar = false }; return bar }) else { return }
        StandardStreams.writeStyled(ProgressBar.line(1, label: nil, step: ""))
    }

    func barShown(_ shown: Bool) { lock.withLock { bar = shown } }
}

extension ScratchFolder {
    /// A run's scratch folder, its quota from `$RELAY_SCRATCH_QUOTA` when that is set (bytes, or
    /// `512M`, `8G`; `none`), else the default (Docs/Reliability.md, "The scratch folder").
    static func forRun() -> ScratchFolder {
        ScratchFolder(quota: ProcessInfo.processInfo.environment["RELAY_SCRATCH_QUOTA"].flatMap(ByteCount.setting))
    }
}
