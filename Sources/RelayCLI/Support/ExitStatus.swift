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
    /// A needed grant was refused or could not be asked for, or a package is not trusted.
    case permissionDenied = 4

    var exitCode: ExitCode { ExitCode(rawValue) }
}
