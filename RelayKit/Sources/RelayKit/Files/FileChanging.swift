import Foundation

/// The only way actions change files (`context.fileChanges`): each change is atomic; in a run it
/// is allowed first by the run's gate and recorded for `relay undo` (Docs/Packages.md, "Undo").
public protocol FileChanges: Sendable {
    /// Writes `data` to `path` atomically; a symbolic link is written through. `source` names the
    /// file the data was made from. When a file is there, `overwrite` says what happens. Returns
    /// the path written.
    @discardableResult
    func write(_ data: Data, to path: String, from source: String?, overwrite: Overwrite) async throws(FileOperationError) -> String
    /// Copies the file at `source` to `destination`, streaming; `progress` counts the bytes.
    /// Returns the path written.
    @discardableResult
    func copy(_ source: String, to destination: String, overwrite: Overwrite, progress: ByteProgress?) async throws(FileOperationError) -> String
    /// Renames or moves `source` to `destination`; across file systems the bytes are copied, then
    /// the source removed. Returns the file at its new path.
    @discardableResult
    func move(_ source: String, to destination: String, overwrite: Overwrite, progress: ByteProgress?) async throws(FileOperationError)
        -> FileReference
    /// Makes the folder `path`, which must not exist (its missing parents are made too). Returns its path.
    @discardableResult
    func makeFolder(_ path: String) async throws(FileOperationError) -> String
    /// Deletes `path`: into the run's journal, from where `relay undo` puts it back, in a run.
    func delete(_ path: String) async throws(FileOperationError)
}

extension FileChanges {
    @discardableResult
    public func write(_ data: Data, to path: String, from source: String? = nil, overwrite: Overwrite = .replace) async throws(FileOperationError)
        -> String
    {
        try await write(data, to: path, from: source, overwrite: overwrite)
    }

    @discardableResult
    public func copy(_ source: String, to destination: String, overwrite: Overwrite = .refuse, progress: ByteProgress? = nil)
        async throws(FileOperationError) -> String
    {
        try await copy(source, to: destination, overwrite: overwrite, progress: progress)
    }

    @discardableResult
    public func move(_ source: String, to destination: String, overwrite: Overwrite = .refuse, progress: ByteProgress? = nil)
        async throws(FileOperationError) -> FileReference
    {
        try await move(source, to: destination, overwrite: overwrite, progress: progress)
    }
}

/// File changes with no gate and no journal, each still atomic: a package's host (confined by the
/// kernel instead) and `relay undo` change files this way.
public struct PlainFileChanges: FileChanges {
    public init() {}

    /// `path`, or under `rename` with something there, the first free name beside it.
    private func destination(_ path: String, _ overwrite: Overwrite) async throws(FileOperationError) -> String {
        guard overwrite == .rename else { return path }
        return try await onOwnThread { _ throws(FileOperationError) in try Overwrite.freePath(for: path, exists: AtomicFile.entryExists) }
    }

    @discardableResult
    public func write(_ data: Data, to requestedPath: String, from source: String?, overwrite: Overwrite) async throws(FileOperationError) -> String {
        let path = try await destination(requestedPath, overwrite)
        try await onOwnThread { _ throws(FileOperationError) in
            defer { FileGeneration.advance() }
            guard overwrite == .replace || !AtomicFile.entryExists(path) else { throw FileOperationError(Overwrite.refusal(path)) }
            try AtomicFile.write(data, to: try AtomicFile.target(of: path))
        }
        return path
    }

    @discardableResult
    public func copy(_ source: String, to requestedDestination: String, overwrite: Overwrite, progress: ByteProgress?)
        async throws(FileOperationError) -> String
    {
        let path = try await destination(requestedDestination, overwrite)
        try await onOwnThread { stop throws(FileOperationError) in
            defer { FileGeneration.advance() }
            guard overwrite == .replace || !AtomicFile.entryExists(path) else { throw FileOperationError(Overwrite.refusal(path)) }
            try AtomicFile.copy(source, to: try AtomicFile.target(of: path), progress: progress, stop: stop)
        }
        return path
    }

    @discardableResult
    public func move(_ source: String, to requestedDestination: String, overwrite: Overwrite, progress: ByteProgress?)
        async throws(FileOperationError) -> FileReference
    {
        let path = try await destination(requestedDestination, overwrite)
        return try await onOwnThread { stop throws(FileOperationError) in
            defer { FileGeneration.advance() }
            guard AtomicFile.entryExists(source) else { throw FileOperationError("no such file: '\(Excerpt.start(of: source))'") }
            if AtomicFile.entryExists(path) {
                guard overwrite == .replace else { throw FileOperationError(Overwrite.refusal(path)) }
                guard path != source else { return FileReference(path: path) }
                var info = stat()
                if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                    throw FileOperationError("'\(Excerpt.start(of: path))' is a folder; it is not replaced")
                }
                try AtomicFile.removeWithoutLinks(path)
            }
            try AtomicFile.moveAcrossFileSystems(source, to: path, progress: progress, stop: stop)
            return FileReference(path: path)
        }
    }

    @discardableResult
    public func makeFolder(_ path: String) async throws(FileOperationError) -> String {
        try await onOwnThread { _ throws(FileOperationError) in
            defer { FileGeneration.advance() }
            guard !AtomicFile.entryExists(path) else { throw FileOperationError("'\(path)' already exists") }
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw FileOperationError("cannot make the folder '\(path)': \(error.localizedDescription)")
            }
        }
        return path
    }

    public func delete(_ path: String) async throws(FileOperationError) {
        try await onOwnThread { _ throws(FileOperationError) in
            defer { FileGeneration.advance() }
            guard AtomicFile.entryExists(path) else { throw FileOperationError("no such file: '\(Excerpt.start(of: path))'") }
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw FileOperationError("cannot delete '\(path)': \(error.localizedDescription)")
            }
        }
    }
}

/// Runs a file change on a thread of its own (`BlockingWork`): a long copy or a slow disk never
/// holds one of Swift's cooperative threads, and cancelling the step raises `stop`, which a copy
/// reads between chunks.
package func onOwnThread<T: Sendable>(_ work: @escaping @Sendable (StopFlag) throws(FileOperationError) -> T) async throws(FileOperationError) -> T {
    do {
        return try await BlockingWork.run { stop in try work(stop) }
    } catch let error as FileOperationError {
        throw error
    } catch {
        throw FileOperationError("stopped")
    }
}
