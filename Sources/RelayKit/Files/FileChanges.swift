import Foundation

/// The only way actions change files: every operation is atomic and, when the run keeps an undo
/// journal, recorded first so that `relay undo` restores the exact bytes.
public struct FileChanges: Sendable {
    private let journal: UndoJournal?

    /// Changes recorded in `journal`; nil changes files without recording (for tests and tools).
    public init(journal: UndoJournal?) { self.journal = journal }

    /// Writes `data` to `path` atomically: a changed file's old bytes, or a new file's creation, are
    /// recorded. A symbolic link is written through: its target changes, the link stays a link.
    /// `source` names the file the data was made from (an image edited to `to:`, a copy): a run
    /// refuses to replace what it wrote from one file with what it made from another.
    public func write(_ data: Data, to requestedPath: String, from source: String? = nil) throws(FileOperationError) {
        let path = try AtomicFile.target(of: requestedPath)
        if let source, let journal { try journal.claim(path, from: source) }
        let before = FileIdentity(path: path)
        let existed = before != nil || FileManager.default.fileExists(atPath: path)
        if let journal {
            if existed {
                let saved = try journal.save(path)
                try journal.record(.modified(path: path, saved: saved))
            } else {
                try journal.record(.created(path: path))
            }
        }
        try AtomicFile.write(data, to: path)
        if let before, let after = FileIdentity(path: path) { FileSuccessors.record(before, now: path, as: after) }
    }

    /// Renames or moves `source` to `destination`, which must not exist.
    public func move(_ source: String, to destination: String) throws(FileOperationError) {
        guard AtomicFile.entryExists(source) else { throw FileOperationError("no such file: '\(source)'") }
        guard !AtomicFile.entryExists(destination) else {
            throw FileOperationError("'\(destination)' already exists")
        }
        let identity = FileIdentity(path: source)
        try journal?.record(.moved(from: source, to: destination))
        try AtomicFile.moveAcrossFileSystems(source, to: destination)
        // Values made before the move find the file at its new path.
        if let identity, let after = FileIdentity(path: destination) {
            FileSuccessors.record(identity, now: destination, as: after)
        }
    }

    /// Copies `source` to `destination` (replacing it only if `overwrite`).
    public func copy(_ source: String, to destination: String, overwrite: Bool = false) throws(FileOperationError) {
        guard let data = FileManager.default.contents(atPath: source) else { throw FileOperationError("cannot read '\(source)'") }
        guard overwrite || !FileManager.default.fileExists(atPath: destination) else {
            throw FileOperationError("'\(destination)' already exists; set overwrite: true to replace it")
        }
        try write(data, to: destination, from: source)
    }

    /// Deletes `path` into the run's journal, from where `relay undo` puts it back. Without a
    /// journal, the file is removed.
    public func delete(_ path: String) throws(FileOperationError) {
        defer { FileGeneration.advance() }
        guard AtomicFile.entryExists(path) else { throw FileOperationError("no such file: '\(path)'") }
        guard let journal else {
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
        try journal.moveIn(path, as: saved)
    }
}
