import Foundation

/// The only way actions change files: every operation is atomic and, when the run keeps an undo
/// journal, recorded first so that `relay undo` restores the exact bytes.
public struct FileChanges: Sendable {
    private let journal: UndoJournal?
    private let gate: AccessGate?

    /// Changes recorded in `journal`; nil changes files without recording (for tests and tools).
    /// Every change is first allowed by `gate`, when there is one (Docs/Security.md, "At run time").
    public init(journal: UndoJournal?, gate: AccessGate? = nil) {
        self.journal = journal
        self.gate = gate
    }

    /// Asks the gate for each access, before anything changes.
    private func authorize(_ accesses: Access...) async throws(FileOperationError) {
        guard let gate else { return }
        for access in accesses {
            do throws(AccessDenied) {
                try await gate.authorize(access)
            } catch {
                throw FileOperationError(error.description)
            }
        }
    }

    /// Writes `data` to `path` atomically: a changed file's old bytes, or a new file's creation, are
    /// recorded. A symbolic link is written through: its target changes, the link stays a link.
    /// `source` names the file the data was made from (an image edited to `to:`, a copy): a run
    /// refuses to replace what it wrote from one file with what it made from another.
    public func write(_ data: Data, to requestedPath: String, from source: String? = nil) async throws(FileOperationError) {
        let writing = Access.write(requestedPath)
        try await authorize(writing)
        // Under a gate, the file written is the one it allowed, in a folder opened with no link followed.
        let allowed = gate == nil ? nil : writing.target
        try await onOwnThread { stop throws(FileOperationError) in
            try replace(allowed ?? requestedPath, from: source, withoutLinks: allowed != nil, stop: stop) { path throws(FileOperationError) in
                try AtomicFile.write(data, to: path, withoutLinks: allowed != nil)
            }
        }
    }

    /// Copies the file at `source` to `destination` (replacing it only if `overwrite`), streaming:
    /// memory stays small whatever the size (Docs/Reliability.md, "Big files"). `progress` counts
    /// the bytes.
    public func copy(_ source: String, to destination: String, overwrite: Bool = false, progress: ByteProgress? = nil)
        async throws(FileOperationError)
    {
        let reading = Access.read(source)
        let writing = Access.write(destination)
        try await authorize(reading, writing)
        // Under a gate, the source is read and the copy written where the gate allowed, with no link followed.
        let allowed = gate == nil ? nil : (source: reading.target, destination: writing.target)
        try await onOwnThread { stop throws(FileOperationError) in
            guard overwrite || !FileManager.default.fileExists(atPath: destination) else {
                throw FileOperationError("'\(destination)' already exists; set overwrite: true to replace it")
            }
            let target = allowed?.destination ?? destination
            try replace(target, from: source, withoutLinks: allowed != nil, stop: stop) { path throws(FileOperationError) in
                try AtomicFile.copy(
                    allowed?.source ?? source, to: path, withoutLinks: allowed != nil, progress: progress, stop: stop)
            }
        }
    }

    /// Renames or moves `source` to `destination`, which must not exist. Across file systems the
    /// bytes are copied (streaming, counted in `progress`), then the source removed.
    public func move(_ requestedSource: String, to requestedDestination: String, progress: ByteProgress? = nil) async throws(FileOperationError) {
        let moving = Access.writeEntry(requestedSource)
        let writing = Access.write(requestedDestination)
        try await authorize(moving, writing)
        // Under a gate, the entries moved are the ones it allowed, in folders opened with no link followed.
        let withoutLinks = gate != nil
        let source = withoutLinks ? moving.target : requestedSource
        let destination = withoutLinks ? writing.target : requestedDestination
        try await onOwnThread { stop throws(FileOperationError) in
            guard AtomicFile.entryExists(source) else { throw FileOperationError("no such file: '\(Excerpt.start(of: source))'") }
            guard !AtomicFile.entryExists(destination) else {
                throw FileOperationError("'\(destination)' already exists")
            }
            let identity = FileIdentity(path: source)
            try journal?.record(.moved(from: source, to: destination))
            if !withoutLinks {
                try AtomicFile.moveAcrossFileSystems(source, to: destination, progress: progress, stop: stop)
            } else if try !AtomicFile.renameWithoutLinks(source, to: destination) {
                // Across file systems: the bytes copied (read and written with no link followed),
                // then the source removed; a symbolic link itself is copied as a link.
                var info = stat()
                if lstat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
                    try AtomicFile.copy(source, to: destination, withoutLinks: true, progress: progress, stop: stop)
                    try AtomicFile.removeWithoutLinks(source)
                } else {
                    try AtomicFile.moveAcrossFileSystems(source, to: destination, progress: progress, stop: stop)
                }
            }
            // Values made before the move find the file at its new path.
            if let identity, let after = FileIdentity(path: destination) {
                FileSuccessors.record(identity, now: destination, as: after)
            }
        }
    }

    /// Makes the folder `requestedPath`, which must not exist (its missing parents are made too),
    /// recorded as made, so that `relay undo` takes it away with whatever was put in it. Returns
    /// the folder's path as the gate allowed it.
    @discardableResult
    public func makeFolder(_ requestedPath: String) async throws(FileOperationError) -> String {
        let writing = Access.write(requestedPath)
        try await authorize(writing)
        let path = gate == nil ? requestedPath : writing.target
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
    /// journal, the file is removed.
    public func delete(_ requestedPath: String) async throws(FileOperationError) {
        let deleting = Access.writeEntry(requestedPath)
        try await authorize(deleting)
        // Under a gate, the entry removed is the one it allowed, in its folder opened with no link followed.
        let withoutLinks = gate != nil
        let path = withoutLinks ? deleting.target : requestedPath
        try await onOwnThread { stop throws(FileOperationError) in
            defer { FileGeneration.advance() }
            guard AtomicFile.entryExists(path) else { throw FileOperationError("no such file: '\(Excerpt.start(of: path))'") }
            guard let journal else {
                var info = stat()
                if withoutLinks, lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
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
            try journal.moveIn(path, as: saved, withoutLinks: withoutLinks, stop: stop)
        }
    }

    /// Replaces the file at `requestedPath` (through a symbolic link) with `change`, recording
    /// first what undo needs: the old bytes of a file that existed, or that the file is new.
    /// `withoutLinks`: `requestedPath` is the resolved path the gate allowed, written as it is.
    private func replace(
        _ requestedPath: String, from source: String?, withoutLinks: Bool = false, stop: StopFlag,
        with change: (String) throws(FileOperationError) -> Void
    ) throws(FileOperationError) {
        let path = withoutLinks ? requestedPath : try AtomicFile.target(of: requestedPath)
        if let source, let journal { try journal.claim(path, from: source) }
        let before = FileIdentity(path: path)
        let existed = before != nil || FileManager.default.fileExists(atPath: path)
        if let journal {
            if existed {
                let saved = try journal.save(path, withoutLinks: withoutLinks, stop: stop)
                try journal.record(.modified(path: path, saved: saved))
            } else {
                try journal.record(.created(path: path))
            }
        }
        try change(path)
        if let before, let after = FileIdentity(path: path) { FileSuccessors.record(before, now: path, as: after) }
    }
}

/// Runs a file change on a thread of its own (`BlockingWork`): a long copy or a slow disk never
/// holds one of Swift's cooperative threads, and cancelling the step raises `stop`, which a copy
/// reads between chunks.
private func onOwnThread(_ work: @escaping @Sendable (StopFlag) throws(FileOperationError) -> Void) async throws(FileOperationError) {
    do {
        try await BlockingWork.run { stop in try work(stop) }
    } catch let error as FileOperationError {
        throw error
    } catch {
        throw FileOperationError("stopped")
    }
}
