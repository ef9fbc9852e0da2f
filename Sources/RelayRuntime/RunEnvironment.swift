import Foundation
import Synchronization
import RelayKit
import RelayEngine
import RelayLanguage

/// The run's variables: run-wide names plus the block names (`item`, `index`, `error`) in force.
package typealias Variables = [String: Value]

/// Answers the prompts of `ask`, `choose-from-list`, `menu` and `confirm`.
public protocol Interaction: Sendable {
    /// Whether a person is there to answer.
    var mode: RunMode { get }
    /// Answers a question. `keys` are the step's `as` name and `label:`, which `--answer` may use
    /// instead of the prompt: they stay as they are when the prompt's words change.
    func ask(_ question: Question, keys: [String]) async throws -> Value
    /// Picks one or several options; returns their indices.
    func choose(_ request: ChoiceRequest, keys: [String]) async throws -> [Int]
    /// Answers yes or no.
    func confirm(_ prompt: String, keys: [String]) async throws -> Bool
    /// Whether the run was given answers (`--answer`, `--yes`): an action that may need a person
    /// runs without a terminal only then.
    var suppliesAnswers: Bool { get }
}

extension Interaction {
    public var suppliesAnswers: Bool { false }
}

/// Where `show` and traces go.
public protocol RunOutput: Sendable {
    /// Prints a value for `show`, formatted like the workflow's output.
    func show(_ value: Value)
    /// Prints a trace line to standard error.
    func trace(_ line: String)
    /// Shows how far a step has got (0 to 1), with what it is doing. Ignored by default; a
    /// terminal output may draw it.
    func progress(_ fraction: Double, label: String?, step: String)
}

extension RunOutput {
    public func progress(_ fraction: Double, label: String?, step: String) {}
}

/// A count shared by a run and the workflows it runs.
public final class RunCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    public init() {}

    /// Adds one and returns the new count.
    public func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }
}

/// A run's places for parallel branches, shared by every loop and nested workflow of the run, so
/// that parallel loops inside parallel loops cannot multiply without bound. Taking never waits:
/// a loop that gets no place runs its items one after another.
public final class ParallelSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var free: Int

    public init(_ count: Int = Limits.parallelBranches) { free = count }

    /// Takes up to `wanted` places; returns how many it got.
    func take(upTo wanted: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let granted = max(0, min(wanted, free))
        free -= granted
        return granted
    }

    func give(back count: Int) {
        lock.lock()
        defer { lock.unlock() }
        free += count
    }
}

/// Where a run is: the step under way, innermost, and the number of the top-level step it is in,
/// so that a run stopped from outside (a signal, its own time bound) can say where it stopped.
public final class RunPosition: Sendable {
    /// The number of the top-level step, and the innermost step under way: one reference kept
    /// per step, which a step of a tight loop pays for.
    private let state = Mutex<(topLevel: Int, innermost: PlannedStep?)>((0, nil))

    public init() {}

    func enter(_ step: PlannedStep, topLevelNumber: Int?) {
        state.withLock { state in
            if let topLevelNumber { state.topLevel = topLevelNumber }
            state.innermost = step
        }
    }

    /// The innermost step under way, or nil before the first step.
    var current: (name: String, range: SourceRange)? {
        state.withLock { state in state.innermost.map { ($0.displayName, $0.range) } }
    }

    /// `step 3 (rotate-image at w.yaml:7:9)`, or nil before the first step.
    public var description: String? {
        let (topLevel, innermost) = state.withLock { ($0.topLevel, $0.innermost) }
        guard let innermost else { return nil }
        let place = "\(innermost.range.file.path):\(innermost.range.start.line):\(innermost.range.start.column)"
        return "step \(topLevel) (\(innermost.displayName) at \(place))"
    }
}

/// Everything a run needs from outside the workflow.
public struct RunEnvironment: Sendable {
    public var interaction: any Interaction
    public var output: any RunOutput
    /// Loads workflows for `run-workflow`.
    public var loader: WorkflowLoader
    /// Whether to print a trace line per step.
    public var tracing: Bool
    /// How deep `run-workflow` may nest.
    public var maximumDepth: Int
    /// Where file changes are recorded for `relay undo`; nil records nothing.
    public var journal: UndoJournal?
    /// Where the steps' tallies go for the run history; nil records nothing.
    public var recorder: RunRecorder?
    /// Where files made from no input file go.
    public var scratchFolder: ScratchFolder
    /// How `open` opens URLs.
    public var opener: URLOpener
    /// What the run may touch: every file change, request, open and package start asks it first.
    public var gate: AccessGate
    /// Where the secrets a workflow declares are looked up; nil: none is set.
    public var secretSource: SecretSource?
    /// The run's secrets (the gate checks where they go).
    public var secrets: RunSecrets { gate.secrets }
    /// How many workflows this run has started with `run-workflow`, shared by every nested run.
    public let workflowCalls = RunCounter()
    /// The places for parallel branches beyond the run's own.
    public let parallelSlots = ParallelSlots()
    /// The step under way.
    public let position = RunPosition()

    public init(
        interaction: any Interaction, output: any RunOutput, loader: WorkflowLoader, tracing: Bool = false,
        maximumDepth: Int = 32, journal: UndoJournal? = nil, scratchFolder: ScratchFolder = ScratchFolder(),
        opener: URLOpener? = nil, gate: AccessGate = AccessGate(), recorder: RunRecorder? = nil, secretSource: SecretSource? = nil
    ) {
        self.recorder = recorder
        self.secretSource = secretSource
        gate.allowFreely(.write, scratchFolder.folder.path)
        self.gate = gate
        self.opener = opener ?? URLOpener(strategy: .dryRun) { [output] in output.trace($0) }
        self.scratchFolder = scratchFolder
        self.journal = journal
        self.interaction = interaction
        self.output = output
        self.loader = loader
        self.tracing = tracing
        self.maximumDepth = maximumDepth
    }
}
