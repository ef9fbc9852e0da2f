import Foundation
import RelayKit
import RelayEngine

/// The programs that reach the desktop: the clipboard and notifications. Each job has several,
/// one per kind of desktop; the first found on `PATH` is started, through the gate by its name.
enum DesktopPrograms {
    /// A program and the arguments it takes for a job.
    struct Program: Sendable {
        let name: String
        let arguments: [String]
        /// Whether it is for a Wayland session (used first when `WAYLAND_DISPLAY` is set).
        var wayland = false
    }

    static let paste = [
        Program(name: "wl-paste", arguments: ["--no-newline"], wayland: true),
        Program(name: "xclip", arguments: ["-selection", "clipboard", "-out"]),
        Program(name: "xsel", arguments: ["--clipboard", "--output"]),
        Program(name: "pbpaste", arguments: []),
    ]
    static let copy = [
        Program(name: "wl-copy", arguments: [], wayland: true),
        Program(name: "xclip", arguments: ["-selection", "clipboard", "-in"]),
        Program(name: "xsel", arguments: ["--clipboard", "--input"]),
        Program(name: "pbcopy", arguments: []),
    ]

    /// The first of `programs` this machine has: a Wayland one only in a Wayland session.
    static func available(_ programs: [Program]) -> Program? {
        let wayland = ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"].map { !$0.isEmpty } ?? false
        return programs.first { ($0.wayland ? wayland : true) && ProgramRun.find($0.name) != nil }
    }

    /// Runs the first available of `programs` with `input`; an error naming what to install when
    /// none is there, or when it fails.
    static func run(_ programs: [Program], input: Data = Data(), job: String, _ context: any IntentContext) async throws -> Data {
        guard let program = available(programs) else {
            throw IntentError(
                "no program to \(job) was found: install wl-clipboard (Wayland) or xclip or xsel (X11); macOS has pbcopy and pbpaste")
        }
        return try await start(program.name, program.arguments, input: input, job: job, context)
    }

    /// Starts `name` with `arguments` and `input`; its output, or an error saying it could not do `job`.
    static func start(_ name: String, _ arguments: [String], input: Data = Data(), job: String, _ context: any IntentContext) async throws -> Data {
        let outcome = try await context.runProgram(ProgramRun(program: name, arguments: arguments, input: input, reachesDesktop: true))
        guard outcome.succeeded else { throw outcome.failure("\(name) could not \(job)", limit: 300) }
        return outcome.output
    }
}

/// `get-clipboard`: the clipboard's text.
struct GetClipboard: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.getclipboard", title: "Get Clipboard"),
    ]
    static let summary = "Outputs the text on the clipboard (through wl-paste, xclip, xsel or pbpaste, whichever is there)."
    static let examples = [
        IntentExample("- get-clipboard\n- rich-text-from-markdown\n- make-pdf: { to: clipboard.pdf }"),
    ]
    static let output = OutputType.text
    static let capabilities: [Capability] = [.run]
    static var programs: [String] { DesktopPrograms.available(DesktopPrograms.paste).map { [$0.name] } ?? [] }

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let bytes = try await DesktopPrograms.run(DesktopPrograms.paste, job: "read the clipboard", context)
        return .value(.text(String(decoding: bytes, as: UTF8.self)))
    }
}

/// `set-clipboard`: puts text on the clipboard.
struct SetClipboard: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.setclipboard", title: "Copy to Clipboard", parameters: ["WFInput": "input"]),
    ]
    static let summary = "Puts the input's text on the clipboard (through wl-copy, xclip, xsel or pbcopy) and passes the input on."
    static let examples = [
        IntentExample("- text: \"copied by Relay\"\n- set-clipboard"),
    ]
    static let output = OutputType.any
    static let capabilities: [Capability] = [.run]
    static var programs: [String] { DesktopPrograms.available(DesktopPrograms.copy).map { [$0.name] } ?? [] }

    @Parameter(primary: true, input: true, summary: "What to copy, as text.") var value: Value

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        _ = try await DesktopPrograms.run(DesktopPrograms.copy, input: Data(value.textValue.utf8), job: "set the clipboard", context)
        return .value(value)
    }
}

/// `notify`: a desktop notification.
struct Notify: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.notification", title: "Show Notification",
            parameters: ["WFNotificationActionBody": "body", "WFNotificationActionTitle": "title"], defaults: ["WFNotificationActionBody": "Hello World!"]),
    ]
    static let summary =
        "Shows a desktop notification (notify-send, or osascript on macOS); where there is neither, prints it to standard error. Passes the input on."
    static let examples = [
        IntentExample("- notify: { title: Backup, body: \"All 20 files copied\" }"),
    ]
    static let output = OutputType.any
    static let capabilities: [Capability] = [.run]
    /// The program that shows it here: none where it is printed instead.
    static var programs: [String] { ["notify-send", "osascript"].first { ProgramRun.find($0) != nil }.map { [$0] } ?? [] }

    @Parameter(input: true, summary: "Passed on.") var value: Value
    @Parameter(primary: true, summary: "The notification's text.") var body: String
    @Parameter(summary: "Its title.") var title: String = "Relay"

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        // A notification is shown: the run's secrets in it are masked, as in any output; a step
        // given one, or chosen by one, shows `•••` whole (which text it shows would tell of it).
        // Chosen by a secret, it shows nothing: that it showed would tell which way the choice went.
        if RunSecrets.chosen { return .value(value) }
        let carried = !RunSecrets.carried.isEmpty
        let (title, body) = carried ? (RunSecrets.mask, RunSecrets.mask) : (RunSecrets.masked(title), RunSecrets.masked(body))
        if ProgramRun.find("notify-send") != nil {
            _ = try await DesktopPrograms.start("notify-send", ["--app-name=Relay", "--", title, body], job: "show the notification", context)
        } else if ProgramRun.find("osascript") != nil {
            let script = "display notification \(Self.appleScriptText(body)) with title \(Self.appleScriptText(title))"
            _ = try await DesktopPrograms.start("osascript", ["-e", script], job: "show the notification", context)
        } else {
            // Shown, never obeyed: no escape in it may fake a question (Docs/Security.md, "Nothing shown is believed").
            FileHandle.standardError.write(Data((TerminalText.visible(title) + ": " + TerminalText.visible(body, keepingLineBreaks: true) + "\n").utf8))
        }
        return .value(value)
    }

    /// `text` as an AppleScript string literal: quotes and backslashes escaped, so that no text
    /// can end the literal and add a command.
    static func appleScriptText(_ text: String) -> String {
        // Scalar by scalar: a mark after a quote joins it into one Character, which a replacement
        // of Characters would not see.
        var scalars = String.UnicodeScalarView()
        scalars.append("\"")
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { scalars.append("\\") }
            scalars.append(scalar)
        }
        scalars.append("\"")
        return String(scalars)
    }
}
