import RelayKit

/// How bad a diagnostic is.
public enum Severity: String, Sendable, Codable {
    case error
    case warning
    case note
}

/// A problem found in a workflow, with where it is and what would help.
public struct Diagnostic: Sendable, Error {
    public var severity: Severity
    public var message: String
    public var range: SourceRange?
    /// Extra lines shown after the source excerpt (`note: …`, `help: …`).
    public var notes: [String]

    public init(_ severity: Severity = .error, _ message: String, at range: SourceRange?, notes: [String] = []) {
        self.severity = severity
        self.message = Excerpt.cappingQuotes(in: message)
        self.range = range
        self.notes = notes
    }

    /// An error diagnostic.
    public static func error(_ message: String, at range: SourceRange?, notes: [String] = []) -> Diagnostic {
        Diagnostic(.error, message, at: range, notes: notes)
    }
}

/// Several diagnostics thrown together, when loading or checking found errors.
public struct DiagnosticsError: Error, Sendable {
    public var diagnostics: [Diagnostic]
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}
