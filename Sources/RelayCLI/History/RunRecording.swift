import Foundation
import RelayKit
import RelayRuntime

/// One run's entry in the history (Docs/Runs.md, "Run history"), from its start to its end. The
/// history never stands in a run's way: a database that is locked, damaged or in a folder that
/// cannot be written is a warning on standard error, and the run goes on unrecorded.
final class RunRecording: @unchecked Sendable {
    /// The steps' tallies, which the interpreter keeps.
    let recorder: RunRecorder
    private let lock = NSLock()
    private var history: RunHistory?
    private let id: Int64
    private let workflow: String
    private let retention: RunHistory.Retention
    private var error: String?
    private var stopped = false
    private var journal: UndoJournal?
    private var gate: AccessGate?
    private var arguments: [String]?
    private var input: String?

    private init(history: RunHistory, id: Int64, workflow: String, retention: RunHistory.Retention, arguments: [String]?, input: String?) {
        self.history = history
        self.arguments = arguments
        self.input = input
        self.id = id
        self.workflow = workflow
        self.retention = retention
        let lock = self.lock
        // While the run goes on, the steps are saved now and then without waiting for another
        // relay's write: a save that finds the database busy is skipped, the next one catches up.
        recorder = RunRecorder { [weak history] steps in
            lock.withLock { try? history?.save(steps: steps, of: id) }
        }
    }

    /// Records that a run of `workflow` (its path as given) has started: nil, after a warning,
    /// when the history cannot be written.
    static func start(
        workflow: String, arguments: [String]?, input: String?, environment: [String: String] = ProcessInfo.processInfo.environment,
        path: String = RunHistory.defaultPath
    ) -> RunRecording? {
        let retention = RunHistory.Retention.from(environment) { warn($0) }
        let resolved = URL(fileURLWithPath: workflow).standardizedFileURL.path
        // The bytes, not a hash: hashing would load a crypto library into every run's start.
        let content = FileManager.default.contents(atPath: resolved).flatMap { $0.count <= RunHistory.keptContentBytes ? $0 : nil }
        do {
            let history = try RunHistory(path: path)
            let folder = FileManager.default.currentDirectoryPath
            let id = try history.begin(.init(workflow: resolved, content: content, folder: folder, arguments: arguments, input: input))
            history.setBusyTimeout(0)
            return RunRecording(history: history, id: id, workflow: resolved, retention: retention, arguments: arguments, input: input)
        } catch {
            warn("\(Interpreter.message(for: error)); this run is not recorded (--no-history runs without it)")
            return nil
        }
    }

    /// The error as the run printed it, with its location.
    func noteError(_ text: String) {
        lock.withLock { error = (error ?? "") + text }
    }

    /// The run's input once it is read: what it was, in words, and the command line that gives
    /// it again (nil when it came from standard input and is too long to keep).
    func noteInput(_ description: String?, arguments: [String]?) {
        lock.withLock {
            input = description
            self.arguments = arguments
        }
    }

    /// Where the run's file changes are recorded, and the gate that knows which grants it used.
    func attach(journal: UndoJournal, gate: AccessGate) {
        lock.withLock {
            self.journal = journal
            self.gate = gate
        }
    }

    /// The run was stopped from outside: a signal or its time bound.
    func noteStopped() {
        lock.withLock { stopped = true }
    }

    /// Records how the run ended: its exit status, the undo journal when it changed files, and the
    /// grants it used.
    func finish(exitStatus: Int32) {
        let steps = recorder.records
        lock.withLock {
            guard let history else { return }
            self.history = nil
            let status: RunHistory.Status =
                switch exitStatus {
                case ExitStatus.success.rawValue: .succeeded
                case ExitStatus.permissionDenied.rawValue: .denied
                case ExitStatus.cancelled.rawValue: .stopped
                default: stopped ? .stopped : .failed
                }
            let end = RunHistory.End(
                status: status, exitStatus: exitStatus, error: error, arguments: arguments, input: input,
                journal: journal.flatMap { $0.hasChanges ? $0.folder.lastPathComponent : nil },
                grants: (gate?.grantsUsed ?? []).map { "\($0.capability.rawValue) \($0.target)" }, steps: steps)
            do {
                history.setBusyTimeout(1_000)
                try history.markInterrupted()
                try history.finish(id, workflow: workflow, end, retention: retention)
            } catch {
                Self.warn("\(Interpreter.message(for: error)); this run's end is not recorded")
            }
        }
    }

    private static func warn(_ message: String) {
        StandardStreams.writeError("warning: \(message)\n")
    }
}
