import RelayLanguage
import RelayKit
import RelayEngine

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
    /// The need that was not granted, when that is what went wrong: the run ends with exit status 4.
    public var denial: AccessDenied?
    /// Seconds the failure asked to wait before the step is tried again (IntentError.retryAfter).
    public var retryAfter: Double?
    /// Whether the error is a step's input, from the previous step, that cannot become what the
    /// step takes: the run names that step (`InputMismatch`).
    public var isChainedMismatch = false

    public init(_ message: String, step: String? = nil, at range: SourceRange? = nil, notes: [String] = []) {
        self.message = Excerpt.cappingQuotes(in: message)
        self.stepName = step
        self.range = range
        self.notes = notes
    }

    public var description: String {
        stepName.map { "step '\($0)': \(message)" } ?? message
    }

    /// The error of `step` that `denial` causes: it ends the run, whatever `on-error` says.
    public init(_ denial: AccessDenied, step: String?, at range: SourceRange?) {
        self.init(denial.description, step: step, at: range)
        self.denial = denial
        endsRun = true
    }

    /// The error as a diagnostic, for the renderer.
    public var diagnostic: Diagnostic {
        .error(description, at: range, notes: notes)
    }
}
