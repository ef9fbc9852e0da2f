import Foundation

/// The only way actions change files: every operation is atomic and, when the run keeps an undo
/// journal, recorded first so that `relay undo` restores the exact bytes.
public struct FileChanges: Sendable {
    private let journal: UndoJournal?

    /// Changes recorded in `journal`; nil changes files without recording (for tests and tools).
    public init(journal: UndoJournal?) { self.journal = journal }

    /// Writes `data` to `path` atomically: a changed file's old bytes, or a new file's creation, are recorded.
    public func write(_ data: Data, to path: String) throws(FileOperationError) {
        let existed = FileManager.default.fileExists(atPath: path)
        if let journal {
            if existed {
                let saved = try journal.save(path)
                try journal.record(.modified(path: path, saved: saved))
            } else {
                try journal.record(.created(path: path))
            }
        }
        try AtomicFile.write(data, to: path)
    }

    /// Renames or moves `source` to `destination`, which must not exist.
    public func move(_ source: String, to destination: String) throws(FileOperationError) {
        guard FileManager.default.fileExists(atPath: source) else { throw FileOperationError("no such file: '\(source)'") }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw FileOperationError("'\(destination)' already exists")
        }
        let identity = FileIdentity(path: source)
        try journal?.record(.moved(from: source, to: destination))
        try AtomicFile.moveAcrossFileSystems(source, to: destination)
        // On one file system the file keeps its identity, so values made before the move find it.
        if let identity { FileMoves.record(identity, movedTo: destination) }
    }

    /// Copies `source` to `destination` (replacing it only if `overwrite`).
    public func copy(_ source: String, to destination: String, overwrite: Bool = false) throws(FileOperationError) {
        guard let data = FileManager.default.contents(atPath: source) else { throw FileOperationError("cannot read '\(source)'") }
        guard overwrite || !FileManager.default.fileExists(atPath: destination) else {
            throw FileOperationError("'\(destination)' already exists; set overwrite: true to replace it")
        }
        try write(data, to: destination)
    }

    /// Deletes `path` into the run's journal, from where `relay undo` puts it back. Without a
    /// journal, the file is removed.
    public func delete(_ path: String) throws(FileOperationError) {
        defer { FileGeneration.advance() }
        guard FileManager.default.fileExists(atPath: path) else { throw FileOperationError("no such file: '\(path)'") }
        guard let journal else {
            do {
                try FileManager.default.removeItem(atPath: path)
                return
            } catch {
                throw FileOperationError("cannot delete '\(path)': \(error.localizedDescription)")
            }
        }
        let saved = try journal.save(path, moving: true)
        try journal.record(.deleted(path: path, saved: saved))
    }
}
