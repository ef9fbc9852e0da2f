import Foundation
import RelayKit

/// How a run changes files for its steps: every operation is atomic, allowed first by the run's
/// gate, and, when the run keeps an undo journal, recorded first so that `relay undo` restores the
/// exact bytes.
public struct GatedFileChanges: FileChanges {
    private let journal: UndoJournal?
    private let gate: AccessGate

    /// Changes recorded in `journal`; nil changes files without recording (for tests and tools).
    /// Every change is first allowed by `gate` (Docs/Security.md, "At run time"); a host's or an
    /// undo's changes, with no gate, are `PlainFileChanges`.
    public init(journal: UndoJournal?, gate: AccessGate) {
        self.journal = journal
        self.gate = gate
    }

    /// The journal a change of `path` is recorded in: none for a file in the run's own scratch
    /// folder, which is removed after the run and never undone — its old bytes kept in the
    /// journal would be disk the scratch folder's quota does not see.
    private func journal(for path: String) -> UndoJournal? {
        if gate.isRunsOwn(path) { return nil }
        return journal
    }

    /// Asks the gate for each access, before anything changes.
    private func authorize(_ accesses: Access...) async throws(FileOperationError) {
        for access in accesses {
            do throws(AccessDenied) {
                try await gate.authorize(access)
            } catch {
                throw FileOperationError(error.description)
            }
        }
    }

    /// The path to write for `requestedPath` under `overwrite`, authorized: the path itself (as the
    /// gate resolved it, under a gate), or, with `rename` and something there, the first free name
    /// beside it (Overwrite.freePath).
    ///
    /// `folders`: the folders the operation resolved already (a rename's source and destination
    /// are in one folder), resolved once.
    private func destination(_ requestedPath: String, _ overwrite: Overwrite, folders: inout [String: String])
        async throws(FileOperationError) -> String
    {
        let writing = Access.file(.write, requestedPath, reusing: &folders)
        try await authorize(writing)
        let checked = writing.target
        guard overwrite == .rename else { return checked }
        let free = try await onOwnThread { _ throws(FileOperationError) in
            try Overwrite.freePath(for: checked, exists: AtomicFile.entryExists)
        }
        guard free != checked else { return checked }
        let renamed = Access.file(.write, free, reusing: &folders)
        try await authorize(renamed)
        return renamed.target
    }

    /// Writes `data` to `path` atomically: a changed file's old bytes, or a new file's creation, are
    /// recorded. A symbolic link is written through: its target changes, the link stays a link.
    /// `source` names the file the data was made from (an image edited to `to:`, a copy): a run
    /// refuses to replace what it wrote from one file with what it made from another. When a file
    /// is there, `overwrite` says what happens (Overwrite). Returns the path written.
    @discardableResult
    public func write(_ data: Data, to requestedPath: String, from source: String?, overwrite: Overwrite)
        async throws(FileOperationError) -> String
    {
        // The file written is the one it allowed, in a folder opened with no link followed.
        var folders: [String: String] = [:]
        let path = try await destination(requestedPath, overwrite, folders: &folders)
        try await onOwnThread { stop throws(FileOperationError) in
            try replace(path, from: source, refusing: overwrite != .replace, stop: stop) { path throws(FileOperationError) in
                try AtomicFile.write(data, to: path, withoutLinks: true)
            }
        }
        return path
    }

    /// Copies the file at `source` to `destination`, streaming: memory stays small whatever the
    /// size (Docs/Reliability.md, "Big files"). When a file is there, `overwrite` says what happens
    /// (Overwrite). `progress` counts the bytes. Returns the path written.
    @discardableResult
    public func copy(_ source: String, to destination: String, overwrite: Overwrite, progress: ByteProgress?)
        async throws(FileOperationError) -> String
    {
        var folders: [String: String] = [:]
        let reading = Access.file(.read, source, reusing: &folders)
        try await authorize(reading)
        // The source is read and the copy written where the gate allowed, with no link followed.
        let target = try await self.destination(destination, overwrite, folders: &folders)
        let from = reading.target
        try await onOwnThread { stop throws(FileOperationError) in
            try replace(target, from: source, refusing: overwrite != .replace, stop: stop) { path throws(FileOperationError) in
                try AtomicFile.copy(from, to: path, withoutLinks: true, progress: progress, stop: stop)
            }
        }
        return target
    }

    /// Renames or moves `source` to `destination`. When a file is there, `overwrite` says what
    /// happens (Overwrite): a replaced file goes into the journal as a deleted one does, so undo
    /// brings it back. Across file systems the bytes are copied (streaming, counted in
    /// `progress`), then the source removed. Returns the file at its new path.
    @discardableResult
    public func move(
        _ requestedSource: String, to requestedDestination: String, overwrite: Overwrite, progress: ByteProgress?
    ) async throws(FileOperationError) -> FileReference {
        if journal?.hasChanges ?? true, let renamed = try await renameInOneFolder(requestedSource, to: requestedDestination) {
            return renamed
        }
        var folders: [String: String] = [:]
        let moving = Access.writeEntry(requestedSource, reusing: &folders)
        try await authorize(moving)
        // The entries moved are the ones it allowed, in folders opened with no link followed.
        let destination = try await self.destination(requestedDestination, overwrite, folders: &folders)
        let source = moving.target
        // A rename within one file system is a few calls on names, made here as the gate's own
        // look-ups at those names were (a file system that hangs on them hung there first). Bytes
        // copied to another file system, a replaced file taken away, and the journal's first
        // change (which makes its folder and flushes it) run on a thread of their own, which a
        // signal or a step's timeout stops (Docs/Reliability.md, "Stopping").
        if journal?.hasChanges ?? true {
            // A file's identity says it is there (a link's entry may lead nowhere: asked apart).
            let identity = FileIdentity(path: source)
            guard identity != nil || AtomicFile.entryExists(source) else { throw Self.noSuchFile(source) }
            if !AtomicFile.entryExists(destination) {
                try journal?.record(.moved(from: source, to: destination))
                if try AtomicFile.renameWithoutLinks(source, to: destination) {
                    return Self.moved(identity, to: destination)
                }
                return try await onOwnThread { stop throws(FileOperationError) in
                    try Self.copyAcross(source, to: destination, progress: progress, stop: stop)
                    return Self.moved(identity, to: destination)
                }
            }
        }
        return try await onOwnThread { stop throws(FileOperationError) in
            guard AtomicFile.entryExists(source) else { throw Self.noSuchFile(source) }
            if AtomicFile.entryExists(destination) {
                guard overwrite == .replace else { throw FileOperationError(Overwrite.refusal(destination)) }
                guard destination != source else { return FileReference(path: destination) }
                try removeReplaced(destination, stop: stop)
            }
            let identity = FileIdentity(path: source)
            try journal?.record(.moved(from: source, to: destination))
            if try !AtomicFile.renameWithoutLinks(source, to: destination) {
                try Self.copyAcross(source, to: destination, progress: progress, stop: stop)
            }
            return Self.moved(identity, to: destination)
        }
    }

    /// A rename within one folder with no link along it, to a name where nothing is: the folder is
    /// opened once, and the gate's looks at both names, the change and the identity after it are
    /// made relative to it (7 system calls where the general way makes 10: Docs/Performance.md).
    /// The same looks as `Access.writeEntry` for the source and `Access.file` for the destination,
    /// so the gate is asked about the same paths. Nil, having asked and changed nothing, when the
    /// rename is not of that kind.
    private func renameInOneFolder(_ source: String, to destination: String) async throws(FileOperationError) -> FileReference? {
        let folderPath = FileReference.folderPart(of: source)
        guard FileReference.isStandardized(source), FileReference.isStandardized(destination),
            FileReference.folderPart(of: destination) == folderPath, let folder = LinkFreeFolder(folderPath)
        else { return nil }
        let name = FileReference.lastComponent(of: source), newName = FileReference.lastComponent(of: destination)
        // Something at the new name (a file to refuse or replace, a link to resolve): the general way.
        guard name != newName, folder.entry(newName) == .nothing else { return nil }
        try await authorize(Access(.write, folder.path(of: name)), Access(.write, folder.path(of: newName)))
        let identity = folder.identity(of: name)
        guard identity != nil || folder.entry(name).map({ $0 != .nothing }) == true else { throw Self.noSuchFile(source) }
        try journal?.record(.moved(from: source, to: destination))
        try folder.rename(name, to: newName)
        return Self.moved(identity, to: destination, now: folder.identity(of: newName))
    }

    private static func noSuchFile(_ source: String) -> FileOperationError {
        FileOperationError("no such file: '\(Excerpt.start(of: source))'")
    }

    /// Moves `source` to another file system, with no link followed: a file's bytes copied (read
    /// and written with no link followed), then the source removed; a symbolic link itself is
    /// copied as a link.
    private static func copyAcross(
        _ source: String, to destination: String, progress: ByteProgress?, stop: StopFlag
    ) throws(FileOperationError) {
        var info = stat()
        if lstat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
            try AtomicFile.copy(source, to: destination, withoutLinks: true, progress: progress, stop: stop)
            try AtomicFile.removeWithoutLinks(source)
        } else {
            try AtomicFile.moveAcrossFileSystems(source, to: destination, progress: progress, stop: stop)
        }
    }

    /// The file moved to `destination`, which values made before the move (of the file
    /// `identity`) now find there.
    private static func moved(_ identity: FileIdentity?, to destination: String) -> FileReference {
        moved(identity, to: destination, now: FileIdentity(path: destination))
    }

    /// The same, with the identity `after` just read at `destination`.
    private static func moved(_ identity: FileIdentity?, to destination: String, now after: FileIdentity?) -> FileReference {
        guard let after else { return FileReference(path: destination) }
        if let identity { FileSuccessors.record(identity, now: destination, as: after) }
        return FileReference(path: destination, identity: after)
    }

    /// Takes away the file a move replaces: into the journal, from where undo puts it back, or
    /// removed when there is no journal. A folder is never replaced.
    private func removeReplaced(_ path: String, stop: StopFlag) throws(FileOperationError) {
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw FileOperationError("'\(Excerpt.start(of: path))' is a folder; it is not replaced")
        }
        guard let journal = journal(for: path) else {
            try AtomicFile.removeWithoutLinks(path)
            return
        }
        let saved = try journal.reserveSavedName()
        try journal.record(.deleted(path: path, saved: saved))
        try journal.moveIn(path, as: saved, withoutLinks: true, stop: stop)
    }

    /// Makes the folder `requestedPath`, which must not exist (its missing parents are made too),
    /// recorded as made, so that `relay undo` takes it away with whatever was put in it. Returns
    /// the folder's path as the gate allowed it.
    @discardableResult
    public func makeFolder(_ requestedPath: String) async throws(FileOperationError) -> String {
        let writing = Access.write(requestedPath)
        try await authorize(writing)
        let path = writing.target
        try await onOwnThread { _ throws(FileOperationError) in
            defer { FileGeneration.advance() }
            guard !AtomicFile.entryExists(path) else { throw FileOperationError("'\(path)' already exists") }
            let parent = (path as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw FileOperationError("cannot make the folder '\(parent)': \(error.localizedDescription)")
            }
            // Recorded before it happens: undo skips a folder that was never made.
            try journal?.record(.created(path: path))
            guard mkdir(path, 0o755) == 0 else {
                throw FileOperationError("cannot make the folder '\(path)': \(String(cString: strerror(errno)))")
            }
        }
        return path
    }

    /// Deletes `path` into the run's journal, from where `relay undo` puts it back. Without a
    /// journal (a file in the run's own scratch folder, or a run without undo), the file is removed.
    public func delete(_ requestedPath: String) async throws(FileOperationError) {
        let deleting = Access.writeEntry(requestedPath)
        try await authorize(deleting)
        // The entry removed is the one it allowed, in its folder opened with no link followed.
        let path = deleting.target
        try await onOwnThread { stop throws(FileOperationError) in
            defer { FileGeneration.advance() }
            guard AtomicFile.entryExists(path) else { throw FileOperationError("no such file: '\(Excerpt.start(of: path))'") }
            guard let journal = journal(for: path) else {
                var info = stat()
                if lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
                    try AtomicFile.removeWithoutLinks(path)
                    return
                }
                do {
                    try FileManager.default.removeItem(atPath: path)
                    return
                } catch {
                    throw FileOperationError("cannot delete '\(path)': \(error.localizedDescription)")
                }
            }
            // Recorded before it happens: a run killed in between leaves an entry that `relay undo`
            // sees never happened (the file is still there, nothing is saved).
            let saved = try journal.reserveSavedName()
            try journal.record(.deleted(path: path, saved: saved))
            try journal.moveIn(path, as: saved, withoutLinks: true, stop: stop)
        }
    }

    /// Replaces the file at `requestedPath` (through a symbolic link) with `change`, recording
    /// first what undo needs: the old bytes of a file that existed, or that the file is new.
    /// `requestedPath` is the resolved path the gate allowed, written as it is.
    /// `refusing`: a file already there is not replaced (checked just before, so one that appeared
    /// meanwhile is not replaced unasked either), after the claim, whose message says more.
    private func replace(
        _ requestedPath: String, from source: String?, refusing: Bool = false, stop: StopFlag,
        with change: (String) throws(FileOperationError) -> Void
    ) throws(FileOperationError) {
        let path = requestedPath
        if let source, let journal { try journal.claim(path, from: source) }
        let journal = journal(for: path)
        guard !refusing || !AtomicFile.entryExists(requestedPath) else { throw FileOperationError(Overwrite.refusal(requestedPath)) }
        let before = FileIdentity(path: path)
        let existed = before != nil || FileManager.default.fileExists(atPath: path)
        if let journal {
            if existed {
                let saved = try journal.save(path, withoutLinks: true, stop: stop)
                try journal.record(.modified(path: path, saved: saved))
            } else {
                try journal.record(.created(path: path))
            }
        }
        try change(path)
        if let before, let after = FileIdentity(path: path) { FileSuccessors.record(before, now: path, as: after) }
    }
}
