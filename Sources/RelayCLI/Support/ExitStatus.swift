import ArgumentParser

/// Relay's exit statuses (Docs/Language.md, "Output and exit status").
public enum ExitStatus: Int32, Sendable {
    case success = 0
    /// A runtime error.
    case runtimeError = 1
    /// An invalid workflow or command line: nothing was run.
    case invalid = 2
    /// A confirmation was declined.
    case cancelled = 3

    var exitCode: ExitCode { ExitCode(rawValue) }
}
