import Foundation
import RelayKit
import RelayEngine
import RelayRuntime

/// One run's entry in the history (Docs/Runs.md, "Run history"), from its start to its end. The
/// history never stands in a run's way: every read and write of the database happens on a queue
/// of its own, beside the run — the start's while the workflow is read and checked, the saves
/// while the steps go on — and a database that is locked, damaged or in a folder that cannot be
/// written is a warning on standard error, and the run goes on unrecorded.
final class RunRecording: @unchecked Sendable {
    /// The steps' tallies, which the interpreter keeps.
    let recorder: RunRecorder
    /// Where the database is used; its state (`history`, `id`) is touched only there.
    private let queue = DispatchQueue(label: "relay.run-history")
    private var history: RunHistory?
    private var id: Int64 = 0
    private let workflow: String
    private let retention: RunHistory.Retention
    /// What the run notes as it goes, read at its end.
    private let lock = NSLock()
    private var error: String?
    private var stopped = false
    private var journal: UndoJournal?
    private var gate: AccessGate?
    /// What the run executed besides its workflow (sub-workflows, packages), as it was then.
    private var executed: [GrantStore.Pin] = []
    private var arguments: [String]?
    private var input: String?
    private let inputHoldsValues: Bool
    /// The run's secrets, once the workflow's are looked up: masked in all that is kept.
    private var secrets: RunSecrets?
    /// Whether `finish` was called: it writes everything still to be written.
    private var finishing = false

    /// Records that a run of `workflow` (its path as given) is starting; the row is written on the
    /// recording's queue while the run goes on. An input that `inputHoldsValues` is kept only at
    /// the run's end, its secrets masked.
    init(
        workflow: String, arguments: [String]?, input: String?, inputHoldsValues: Bool = false, trigger: String? = nil, queued: Int64? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, path: String = RunHistory.defaultPath
    ) {
        let resolved = URL(fileURLWithPath: workflow).standardizedFileURL.path
        self.workflow = resolved
        self.arguments = arguments
        self.input = input
        self.inputHoldsValues = inputHoldsValues
        retention = RunHistory.Retention.from(environment) { Self.warn($0) }
        let queue = self.queue
        // While the run goes on, the steps are saved now and then without waiting for another
        // relay's write: a save that finds the database busy is skipped, the next one catches up.
        let target = SaveTarget()
        recorder = RunRecorder { steps in queue.async { target.recording?.save(steps) } }
        target.recording = self
        let folder = FileManager.default.currentDirectoryPath
        queue.async { [self] in
            // The bytes, not a hash: hashing would load a crypto library into every run's start.
            let content = FileManager.default.contents(atPath: resolved).flatMap { $0.count <= RunHistory.keptContentBytes ? $0 : nil }
            do {
                let history = try RunHistory(path: path)
                // The command line waits until the run's secrets are known (`mask`): it may hold one.
                // So does an input described by the values it holds (an assistant's arguments).
                let start = RunHistory.Start(
                    workflow: resolved, content: content, folder: folder, arguments: nil, input: inputHoldsValues ? nil : input, trigger: trigger)
                // A run a server acknowledged before it could start is in the history already, queued.
                if let queued, try history.start(queued: queued, start) {
                    id = queued
                } else {
                    id = try history.begin(start)
                }
                history.setBusyTimeout(0)
                self.history = history
            } catch {
                Self.warn("\(Interpreter.message(for: error)); this run is not recorded (--no-history runs without it)")
            }
        }
    }

    /// The run's ID in the history, once its start is written; nil when it is not recorded.
    func recordedID() async -> Int64? {
        await withCheckedContinuation { (done: CheckedContinuation<Int64?, Never>) in
            queue.async { [self] in done.resume(returning: history == nil ? nil : id) }
        }
    }

    /// The recording the recorder's saves go to, set once it is made.
    private final class SaveTarget: @unchecked Sendable {
        weak var recording: RunRecording?
    }

    /// On the queue: the steps so far.
    private func save(_ steps: [RunRecorder.StepRecord]) {
        try? history?.save(steps: steps, of: id)
    }

    /// The error as the run printed it, with its location.
    func noteError(_ text: String) {
        lock.withLock { error = (error ?? "") + text }
    }

    /// The run's input once it is read: what it was, in words, and the command line that gives
    /// it again (nil when it came from standard input and is too long to keep).
    func noteInput(_ description: String?, arguments: [String]?) {
        let masked = lock.withLock {
            input = description
            self.arguments = arguments
            return secrets != nil
        }
        if masked { writeArguments() }
    }

    /// The run's secrets are known (Docs/Runs.md, "Secrets"): they are masked in the steps'
    /// records and the error, and the command line is kept only when it holds none of them.
    func mask(_ secrets: RunSecrets) {
        lock.withLock { self.secrets = secrets }
        recorder.masking(secrets)
        writeArguments()
    }

    /// The command line, or nil when it holds a secret's value (then the run cannot be run again).
    private var keptArguments: [String]? {
        lock.withLock {
            guard let arguments, let secrets else { return arguments }
            return arguments.contains { !secrets.names(in: $0).isEmpty } ? nil : arguments
        }
    }

    /// Writes the command line while the run goes on, for a run killed before its end; a run that
    /// ends first writes it with its end, one statement fewer at the end of a short run.
    private func writeArguments() {
        let arguments = keptArguments
        queue.async { [self] in
            guard !lock.withLock({ finishing }) else { return }
            try? history.map { try $0.setArguments(arguments, of: id) }
        }
    }

    /// Where the run's file changes are recorded, and the gate that knows which grants it used.
    func attach(journal: UndoJournal, gate: AccessGate) {
        lock.withLock {
            self.journal = journal
            self.gate = gate
        }
    }

    /// Keeps what the run executes besides its workflow — its packages as they load, the
    /// sub-workflows as they run — pinned as each is then, for a rerun to check.
    func observeExecution(of gate: AccessGate) {
        gate.observeExecution { [weak self] executed in
            guard let self, let pin = GrantStore.Pin.of(executed) else { return }
            self.lock.withLock { if !self.executed.contains(pin) { self.executed.append(pin) } }
        }
    }

    /// The run was stopped from outside: a signal or its time bound.
    func noteStopped() {
        lock.withLock { stopped = true }
    }

    /// Records how the run ended — its exit status, the undo journal when it changed files, the
    /// grants it used — once the writes before it are done. Returns the run's ID in the history,
    /// nil when it could not be recorded.
    @discardableResult
    func finish(exitStatus: Int32) async -> Int64? {
        let steps = recorder.records
        let arguments = keptArguments
        let end: RunHistory.End = lock.withLock {
            finishing = true
            let status: RunHistory.Status =
                switch exitStatus {
                case ExitStatus.success.rawValue: .succeeded
                case ExitStatus.permissionDenied.rawValue: .denied
                case ExitStatus.cancelled.rawValue: .stopped
                default: stopped ? .stopped : .failed
                }
            return RunHistory.End(
                status: status, exitStatus: exitStatus, error: error.map { secrets?.redact($0) ?? $0 }, arguments: arguments,
                input: input.map { input in
                    let masked = secrets?.redact(input) ?? input
                    // Values given (an assistant's arguments) are cut short once masked.
                    return inputHoldsValues ? Excerpt.start(of: masked, limit: 300) : masked
                },
                journal: journal.flatMap { $0.hasChanges ? $0.folder.lastPathComponent : nil },
                grants: (gate?.grantsUsed ?? []).map { "\($0.capability.rawValue) \($0.target)" }, executed: executed, steps: steps)
        }
        return await withCheckedContinuation { (done: CheckedContinuation<Int64?, Never>) in
            queue.async { [self] in
                guard let history else { return done.resume(returning: nil) }
                self.history = nil
                do {
                    history.setBusyTimeout(1_000)
                    try history.markInterrupted()
                    try history.finish(id, workflow: workflow, end, retention: retention)
                    done.resume(returning: id)
                } catch {
                    Self.warn("\(Interpreter.message(for: error)); this run's end is not recorded")
                    done.resume(returning: nil)
                }
            }
        }
    }

    private static func warn(_ message: String) {
        StandardStreams.writeError("warning: \(message)\n")
    }
}
