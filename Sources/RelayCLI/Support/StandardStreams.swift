import Foundation
import RelayKit
import RelayRuntime

/// Writes to standard output and standard error without buffering surprises.
enum StandardStreams {
    static func writeOutput(_ text: String) {
        guard !text.isEmpty else { return }
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func writeError(_ text: String) {
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

    func show(_ value: Value) {
        StandardStreams.writeOutput(OutputFormatter.render(value, json: json))
    }

    func trace(_ line: String) {
        StandardStreams.writeError(line + "\n")
    }
}
