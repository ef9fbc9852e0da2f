import ArgumentParser
import Foundation
import RelayKit
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
        if list {
            StandardStreams.writeOutput(Self.describe(history.runs().prefix(20)))
            return
        }
        let undoer = IntentUndoer(registry: try RelayCommand.registry())
        do {
            guard let run = try await history.undoLatest(performing: undoer.perform) else {
                StandardStreams.writeError("nothing to undo\n")
                return
            }
            let count = run.changes.count
            StandardStreams.writeError("undid \(count) change\(count == 1 ? "" : "s") of \(run.workflow)\n")
        } catch {
            StandardStreams.writeError("error: undo stopped: \(error)\n")
            throw ExitStatus.runtimeError.exitCode
        }
    }

    private static func describe(_ runs: ArraySlice<UndoHistory.Run>) -> String {
        guard !runs.isEmpty else { return "" }
        return runs.map { run in
            let when = run.started.map { DateFormatting.iso8601($0) } ?? "?"
            var lines = ["\(when)  \(run.workflow)\(run.isUndone ? "  (undone)" : "")"]
            for change in run.changes {
                switch change {
                case .modified(let path, _): lines.append("  changed  \(path)")
                case .created(let path): lines.append("  created  \(path)")
                case .moved(let from, let to): lines.append("  moved    \(from) → \(to)")
                case .deleted(let path, _): lines.append("  deleted  \(path)")
                case .intent(_, let action, _): lines.append("  undone by \(action)")
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }.joined()
    }
}
