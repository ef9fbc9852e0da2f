import ArgumentParser
import Foundation
import RelayKit
import RelayEngine
import RelayRuntime

/// `relay undo`: reverts the last run's file changes, restoring the exact bytes.
struct UndoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Revert the file changes of the last run that changed files.",
        discussion: "Each run that changes files records them under $XDG_STATE_HOME/relay (default ~/.local/state/relay); the newest 100 runs are kept."
    )

    @Flag(help: "List recent runs and their changes instead.") var list = false

    func run() async throws {
        let history = UndoHistory(root: UndoHistory.defaultRoot)
        if let problem = history.problem {
            StandardStreams.writeError("error: the undo journals are not used: \(problem)\n")
            throw ExitStatus.runtimeError.exitCode
        }
        if list {
            StandardStreams.writeOutput(Self.describe(Array(history.newestFirst().prefix(20))))
            return
        }
        let undoer = IntentUndoer(registry: try RelayCommand.registry())
        // A signal stops the undo between two changes (each is whole); the run stays recorded as
        // not undone, so the next `relay undo` finishes it.
        let found = Found()
        let stopped = await RunStopper(position: RunPosition()).run(timeout: nil) {
            found.outcome = await history.undoLatest(performing: undoer.perform)
        }
        guard let outcome = found.outcome else {
            if case .signal(let number) = stopped {
                StandardStreams.writeError("stopped by \(RunStopper.name(of: number)) before undoing anything\n")
                throw ExitCode(128 + number)
            }
            StandardStreams.writeError("nothing to undo\n")
            return
        }
        StandardStreams.writeError(Self.report(outcome))
        if case .signal(let number) = stopped, outcome.stopped {
            StandardStreams.writeError(
                "stopped by \(RunStopper.name(of: number)); the rest of the run is undone by running 'relay undo' again\n")
            throw ExitCode(128 + number)
        }
        if !outcome.failed.isEmpty { throw ExitStatus.runtimeError.exitCode }
    }

    /// The outcome, handed out of the stoppable task.
    private final class Found: @unchecked Sendable {
        var outcome: UndoHistory.Outcome?
    }

    /// What an undo did, for standard error: the count, each change skipped, each failure.
    static func report(_ outcome: UndoHistory.Outcome) -> String {
        let count = outcome.reverted
        var text = "undid \(count) change\(count == 1 ? "" : "s") of \(outcome.run.workflow)\n"
        for skipped in outcome.skipped { text += "note: \(skipped)\n" }
        for failure in outcome.failed { text += "error: not reverted: \(failure)\n" }
        return text
    }

    private static func describe(_ runs: [UndoHistory.Run]) -> String {
        guard !runs.isEmpty else { return "" }
        return runs.map { run in
            let when = run.started.map { DateFormatting.iso8601($0) } ?? "?"
            let state = !run.isUndone ? "" : run.notReverted.isEmpty ? "  (undone)" : "  (undone; \(run.notReverted.count) not reverted)"
            var lines = ["\(when)  \(run.workflow)\(state)"]
            lines += run.summaries.map { "  \($0)" }
            lines += run.notReverted.map { "  not reverted: \($0)" }
            return lines.joined(separator: "\n") + "\n"
        }.joined()
    }
}
