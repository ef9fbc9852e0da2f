import Foundation

/// The runs recorded under a journal root, and undoing them (`relay undo`).
public struct UndoHistory: Sendable {
    /// One recorded run.
    public struct Run: Sendable {
        public let folder: URL
        public let workflow: String
        public let started: Date?
        public let changes: [UndoJournal.Change]
        public let isUndone: Bool
    }

    public let root: URL

    public init(root: URL) { self.root = root }

    /// The recorded runs, newest first.
    public func runs() -> [Run] {
        let runsFolder = root.appendingPathComponent("runs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runsFolder.path)) ?? []
        return names.sorted(by: >).compactMap { name in
            let folder = runsFolder.appendingPathComponent(name)
            guard let text = try? String(contentsOf: folder.appendingPathComponent("changes.jsonl"), encoding: .utf8) else {
                return nil
            }
            let changes = text.split(separator: "\n").compactMap { line in
                (try? JSONReader.value(from: String(line))).flatMap(UndoJournal.Change.init)
            }
            let info = (try? String(contentsOf: folder.appendingPathComponent("run.json"), encoding: .utf8))
                .flatMap { try? JSONReader.value(from: $0) }
            let workflow = (try? info?.property("workflow"))??.textValue ?? "?"
            let started = ((try? info?.property("started")) ?? nil).flatMap { try? $0.dateValue() }
            let undone = FileManager.default.fileExists(atPath: folder.appendingPathComponent("undone").path)
            return Run(folder: folder, workflow: workflow, started: started, changes: changes, isUndone: undone)
        }
    }

    /// Performs an undo an intent registered: its package's path (nil for built-in and linked
    /// ones), the action's name and its wire-encoded arguments.
    public typealias IntentUndo = @Sendable (_ package: String?, _ action: String, _ arguments: ValueDictionary) async throws -> Void

    /// Reverts the newest run not yet undone, its changes in reverse order, and marks it undone.
    /// Returns that run, or nil when there is nothing to undo. `performing` carries out the undos
    /// intents registered.
    @discardableResult
    public func undoLatest(performing: IntentUndo = { _, action, _ in throw FileOperationError("cannot undo '\(action)' here") })
        async throws -> Run?
    {
        guard let run = runs().first(where: { !$0.isUndone && !$0.changes.isEmpty }) else { return nil }
        for change in run.changes.reversed() {
            if case .intent(let package, let action, let arguments) = change {
                try await performing(package, action, arguments)
            } else {
                try revert(change, in: run.folder)
            }
        }
        try AtomicFile.write(Data(DateFormatting.iso8601(Date()).utf8), to: run.folder.appendingPathComponent("undone").path)
        return run
    }

    private func revert(_ change: UndoJournal.Change, in folder: URL) throws(FileOperationError) {
        switch change {
        case .intent: return
        case .modified(let path, let saved):
            guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(saved).path) else {
                throw FileOperationError("the saved copy of '\(path)' is missing from '\(folder.path)'")
            }
            try AtomicFile.write(data, to: path)
        case .created(let path):
            guard FileManager.default.fileExists(atPath: path) else { return }
            // Kept in the journal rather than erased: undoing never loses bytes.
            let kept = folder.appendingPathComponent("saved/undone-\(UUID().uuidString.prefix(8))-\((path as NSString).lastPathComponent)")
            try AtomicFile.moveAcrossFileSystems(path, to: kept.path)
        case .moved(let from, let to):
            try AtomicFile.moveAcrossFileSystems(to, to: from)
        case .deleted(let path, let saved):
            try AtomicFile.moveAcrossFileSystems(folder.appendingPathComponent(saved).path, to: path)
        }
    }
}

extension UndoHistory {
    /// The journal root: `$XDG_STATE_HOME/relay`, else `~/.local/state/relay`.
    public static var defaultRoot: URL {
        let environment = ProcessInfo.processInfo.environment
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("relay")
        }
        return URL(fileURLWithPath: HomeFolder.path).appendingPathComponent(".local/state/relay")
    }

    /// Removes all but the newest `count` recorded runs (by folder name, which starts with the time).
    public func prune(keeping count: Int) {
        let runsFolder = root.appendingPathComponent("runs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runsFolder.path)) ?? []
        for name in names.sorted(by: >).dropFirst(count) {
            try? FileManager.default.removeItem(at: runsFolder.appendingPathComponent(name))
        }
    }
}
