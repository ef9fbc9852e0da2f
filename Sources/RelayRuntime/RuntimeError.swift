import RelayLanguage

/// An error while running a step: what went wrong, which step, and where it is.
public struct RuntimeError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// The step's label or action name, when the error belongs to a step.
    public var stepName: String?
    public var range: SourceRange?
    /// Context lines, such as the `run-workflow` step that ran the failing workflow.
    public var notes: [String]
    /// Whether the error ends the run whatever `on-error` says: a run past one of its own bounds
    /// (`Limits.workflowCalls`) must not be kept going by the steps that caused it.
    public var endsRun = false

    public init(_ message: String, step: String? = nil, at range: SourceRange? = nil, notes: [String] = []) {
        self.message = message
        self.stepName = step
        self.range = range
        self.notes = notes
    }

    public var description: String {
        stepName.map { "step '\($0)': \(message)" } ?? message
    }

    /// The error as a diagnostic, for the renderer.
    public var diagnostic: Diagnostic {
        .error(description, at: range, notes: notes)
    }
}
