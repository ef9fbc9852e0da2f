import Foundation
import RelayKit

internal import CFileStatus

/// The runs recorded under a journal root, and undoing them (`relay undo`).
public struct UndoHistory: Sendable {
    /// One recorded run.
    public struct Run: Sendable {
        public let folder: URL
        public let workflow: String
        public let started: Date?
        public let changes: [UndoJournal.Change]
        /// Each change in a few words as a person sees it: its paths with the run's secrets masked.
        public let summaries: [String]
        public let isUndone: Bool
        /// What the undo could not revert, when it was undone.
        public let notReverted: [String]
        /// Each path a change named that is shown otherwise (made from a secret), as shown.
        var shownPaths: [String: String] = [:]

        /// `text` (what undoing a change says) with each path the run made from a secret, and the
        /// folders of it below the place shown, as it is shown: the undo knows no secret, only
        /// what the run kept.
        func masking(_ text: String) -> String {
            guard !shownPaths.isEmpty else { return text }
            var replacements: [(String, String)] = []
            for (path, shown) in shownPaths {
                replacements.append((path, shown))
                let parent = { (path: String) in (path as NSString).deletingLastPathComponent }
                if shown.hasSuffix("/" + RunSecrets.mask) {
                    // The folders between the place shown and the path: a folder the run made
                    // from a secret, which a message may name.
                    let holder = String(shown.dropLast(RunSecrets.mask.count + 1))
                    var folder = parent(path)
                    while folder.hasPrefix(holder + "/") {
                        replacements.append((folder, shown))
                        folder = parent(folder)
                    }
                } else if shown == RunSecrets.mask, parent(path).count > 1 {
                    replacements.append((parent(path), RunSecrets.mask))
                }
            }
            var masked = text
            for (path, shown) in replacements.sorted(by: { $0.0.count > $1.0.count }) { masked = masked.replacingOccurrences(of: path, with: shown) }
            return masked
        }
    }

    public let root: URL

    public init(root: URL) { self.root = root }

    /// The recorded runs, newest first.
    public func runs() -> [Run] { Array(newestFirst()) }

    /// Why the journals are not believed (others may change the folder that holds them), with
    /// the `chmod` that fixes it; nil when they are their owner's alone.
    public var problem: String? { PrivateState.problem(with: root.appendingPathComponent("runs").path, under: root.path) }

    /// The recorded runs, newest first, each read when it is reached: finding the last run to
    /// undo reads its journal, not every run's.
    public func newestFirst() -> some Sequence<Run> {
        let runsFolder = root.appendingPathComponent("runs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runsFolder.path)) ?? []
        return names.sorted(by: >).lazy.compactMap { name in
            let folder = runsFolder.appendingPathComponent(name, isDirectory: true)
            // A journal another user could have written is not believed: undoing it would write
            // where they chose (`problem`, for the reason).
            let journal = folder.appendingPathComponent("changes.jsonl").path
            guard PrivateState.problem(with: journal, under: root.path) == nil else { return nil }
            // Read as bytes: a line a killed run cut inside a character must not hide the others.
            guard let bytes = FileManager.default.contents(atPath: journal) else {
                return nil
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let entries = Self.entries(in: text)
            let changes = entries.map(\.change)
            let info = (try? String(contentsOf: folder.appendingPathComponent("run.json"), encoding: .utf8))
                .flatMap { try? JSONReader.value(from: $0) }
            let workflow = (try? info?.property("workflow"))??.textValue ?? "?"
            let started = ((try? info?.property("started")) ?? nil).flatMap { try? $0.dateValue() }
            let marker = try? String(contentsOf: folder.appendingPathComponent("undone"), encoding: .utf8)
            let undone = marker != nil || FileManager.default.fileExists(atPath: folder.appendingPathComponent("undone").path)
            let notReverted = TextSplitting.lines(marker ?? "").filter { $0.hasPrefix("not reverted: ") }
                .map { String($0.dropFirst("not reverted: ".count)) }
            return Run(
                folder: folder, workflow: workflow, started: started, changes: changes, summaries: entries.map(\.summary), isUndone: undone,
                notReverted: notReverted, shownPaths: Self.shownPaths(in: text))
        }
    }

    /// The changes a journal's `changes.jsonl` records, one JSON object a line. A line that is
    /// not a change (the half-written last line of a killed run) is left out. A CR left at a
    /// line's end (a journal saved with CR LF) is JSON whitespace.
    public static func changes(in text: String) -> [UndoJournal.Change] { entries(in: text).map(\.change) }

    /// Each path the journal keeps a shown form of, with that form.
    private static func shownPaths(in text: String) -> [String: String] {
        var shown: [String: String] = [:]
        for line in text.splitAtLineFeeds(omittingEmpty: true) {
            guard case .dictionary(let entry)? = try? JSONReader.value(from: line) else { continue }
            for key in ["path", "from", "to"] {
                if case .text(let path)? = entry[key], case .text(let form)? = entry["shown-" + key] { shown[path] = form }
            }
        }
        return shown
    }

    /// The changes with their summaries as shown (a path that held a secret, masked).
    private static func entries(in text: String) -> [(change: UndoJournal.Change, summary: String)] {
        text.splitAtLineFeeds(omittingEmpty: true).compactMap { line in
            guard let value = try? JSONReader.value(from: line), let change = UndoJournal.Change(value) else { return nil }
            guard case .dictionary(let entry) = value, ["shown-path", "shown-from", "shown-to"].contains(where: { entry[$0] != nil }) else {
                return (change, change.summary)
            }
            let shown = { (key: String, path: String) in entry["shown-" + key]?.textValue ?? path }
            let summary: String =
                switch change {
                case .modified(let path, let saved): UndoJournal.Change.modified(path: shown("path", path), saved: saved).summary
                case .created(let path): UndoJournal.Change.created(path: shown("path", path)).summary
                case .moved(let from, let to): UndoJournal.Change.moved(from: shown("from", from), to: shown("to", to)).summary
                case .deleted(let path, let saved): UndoJournal.Change.deleted(path: shown("path", path), saved: saved).summary
                case .intent: change.summary
                }
            return (change, summary)
        }
    }

    /// Performs an undo an intent registered: its package's path (nil for built-in and linked
    /// ones) and the hash of its sources then, the action's name and its wire-encoded arguments.
    public typealias IntentUndo = @Sendable (
        _ package: String?, _ packageHash: String?, _ action: String, _ arguments: ValueDictionary
    ) async throws -> Void

    /// What undoing one run did, change by change.
    public struct Outcome: Sendable {
        public let run: Run
        /// Changes put back.
        public internal(set) var reverted = 0
        /// Changes that had never happened (a run stopped between recording a change and making
        /// it), with what was found.
        public internal(set) var skipped: [String] = []
        /// Changes that could not be put back, with why.
        public internal(set) var failed: [String] = []
        /// Whether the undo was stopped (a signal) before it went through every change; the run
        /// is then not marked undone, and undoing again finishes it.
        public internal(set) var stopped = false
    }

    /// Reverts the newest run not yet undone, its changes in reverse order, and marks it undone.
    /// Returns what happened, or nil when there is nothing to undo. A change that never happened
    /// is skipped; one that cannot be reverted is reported and the others still are; the run is
    /// marked undone either way, so that it never stands in front of older runs. `performing`
    /// carries out the undos intents registered.
    ///
    /// `among`, when given, are the only runs' folders it may undo (the REPL's: its own entries').
    public func undoLatest(
        among folders: Set<String>? = nil,
        performing: IntentUndo = { _, _, action, _ in throw FileOperationError("cannot undo '\(action)' here") }
    ) async -> Outcome? {
        guard
            let run = newestFirst().first(where: { run in
                !run.isUndone && !run.changes.isEmpty && (folders.map { $0.contains(run.folder.standardizedFileURL.path) } ?? true)
            })
        else { return nil }
        var outcome = Outcome(run: run)
        var pending = run.changes.reversed()[...]
        while let change = pending.first {
            // Stopped between changes, each whole: what is left is undone by the next `relay undo`.
            if Task.isCancelled {
                outcome.stopped = true
                return outcome
            }
            if case .intent(let package, let packageHash, let action, let arguments, _) = change {
                pending.removeFirst()
                do {
                    try await performing(package, packageHash, action, arguments)
                    outcome.reverted += 1
                } catch {
                    if Task.isCancelled {
                        outcome.stopped = true
                        return outcome
                    }
                    outcome.failed.append(run.masking("\(change.summary): \(error)"))
                }
                continue
            }
            // The file changes up to the next intent's, reverted on one thread off Swift's, in order.
            let files = Array(pending.prefix { if case .intent = $0 { false } else { true } })
            pending.removeFirst(files.count)
            let reverted = (try? await BlockingWork.run { stop in revert(files, in: run.folder, stop: stop) }) ?? []
            for (change, result) in zip(files, reverted) {
                switch result {
                case .success(nil): outcome.reverted += 1
                case .success(let never?): outcome.skipped.append(run.masking(never))
                case .failure(let error): outcome.failed.append(run.masking("\(change.summary): \(error)"))
                }
            }
            // Stopped before the last: what is left is for the next undo.
            if reverted.count < files.count {
                outcome.stopped = true
                return outcome
            }
        }
        var marker = DateFormatting.iso8601(Date()) + "\n"
        for failure in outcome.failed { marker += "not reverted: \(failure)\n" }
        do {
            try AtomicFile.write(Data(marker.utf8), to: run.folder.appendingPathComponent("undone").path)
        } catch {
            outcome.failed.append("cannot mark the run undone: \(error)")
        }
        return outcome
    }

    /// Puts `changes` back in order, each whole, until `stop` is raised: each one's result (why it
    /// was skipped when it had never happened, or why it failed), up to the first not begun. A
    /// change stopped half-way is not begun (copies stop between chunks, and leave the file as it
    /// was): the next undo does it.
    private func revert(_ changes: [UndoJournal.Change], in folder: URL, stop: StopFlag) -> [Result<String?, FileOperationError>] {
        var results: [Result<String?, FileOperationError>] = []
        results.reserveCapacity(changes.count)
        for change in changes {
            if stop.isRaised { break }
            do throws(FileOperationError) {
                results.append(.success(try revert(change, in: folder, stop: stop)))
            } catch {
                if stop.isRaised { break }
                results.append(.failure(error))
            }
        }
        return results
    }

    /// Puts `change` back; returns why it was skipped when it had never happened.
    private func revert(_ change: UndoJournal.Change, in folder: URL, stop: StopFlag) throws(FileOperationError) -> String? {
        // The journal's paths were resolved when the change was made: a link along one now
        // (a folder swapped for a link to elsewhere) would lead the undo to another file.
        for path in change.paths {
            if let link = Self.linkAlong(path) {
                throw FileOperationError("'\(link)' is a symbolic link now, and was a folder when the run changed '\(path)'; undo does not follow it")
            }
        }
        switch change {
        case .intent: return nil
        case .modified(let path, let saved):
            let savedPath = folder.appendingPathComponent(saved).path
            guard AtomicFile.entryExists(savedPath) else {
                throw FileOperationError("the saved copy of '\(path)' is missing from '\(folder.path)'")
            }
            try AtomicFile.copy(savedPath, to: path, stop: stop)
        case .created(let path):
            guard AtomicFile.entryExists(path) else { return "\(change.summary): skipped, '\(path)' is not there" }
            // Kept in the journal rather than erased: undoing never loses bytes.
            let kept = folder.appendingPathComponent("saved/undone-\(UUID().uuidString.prefix(8))-\((path as NSString).lastPathComponent)")
            try AtomicFile.moveAcrossFileSystems(path, to: kept.path, stop: stop)
        case .moved(let from, let to):
            let there = AtomicFile.entryExists(to)
            if !there && AtomicFile.entryExists(from) { return "\(change.summary): skipped, the move never happened" }
            guard there else { throw FileOperationError("'\(to)' is gone") }
            try AtomicFile.moveAcrossFileSystems(to, to: from, stop: stop)
        case .deleted(let path, let saved):
            let savedPath = folder.appendingPathComponent(saved).path
            guard AtomicFile.entryExists(savedPath) else {
                if AtomicFile.entryExists(path) { return "\(change.summary): skipped, the file was never deleted" }
                throw FileOperationError("the saved copy of '\(path)' is missing from '\(folder.path)'")
            }
            try AtomicFile.moveAcrossFileSystems(savedPath, to: path, stop: stop)
        }
        return nil
    }
}

extension UndoHistory {
    /// The first folder along `path` that is a symbolic link, or nil when there is none (or the
    /// folders are not all there, which the change itself then reports).
    static func linkAlong(_ path: String) -> String? {
        let folder = FileReference.folderPart(of: path)
        guard folder.hasPrefix("/"), relay_folder_is_link_free(folder) != 1 else { return nil }
        var prefix = ""
        for part in folder.split(separator: "/") {
            prefix += "/" + part
            var info = stat()
            guard lstat(prefix, &info) == 0 else { return nil }
            if info.st_mode & S_IFMT == S_IFLNK { return prefix }
        }
        return nil
    }
}

extension UndoJournal.Change {
    /// The files the change touched.
    var paths: [String] {
        switch self {
        case .modified(let path, _), .created(let path), .deleted(let path, _): [path]
        case .moved(let from, let to): [from, to]
        case .intent: []
        }
    }

    /// The change in a few words, for reports and `relay undo --list`.
    public var summary: String {
        switch self {
        case .modified(let path, _): "changed  \(path)"
        case .created(let path): "created  \(path)"
        case .moved(let from, let to): "moved    \(from) → \(to)"
        case .deleted(let path, _): "deleted  \(path)"
        case .intent(_, _, let action, _, let title?): "\(title) (\(action))"
        case .intent(_, _, let action, _, nil): "undone by \(action)"
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
