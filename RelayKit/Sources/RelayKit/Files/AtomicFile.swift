import Foundation

internal import CFileStatus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file-system operation that failed, with a message for people.
public struct FileOperationError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// What the system refused (EACCES, EPERM), when that is why it failed.
    public let refusal: Access?
    public init(_ message: String, refusal: Access? = nil) {
        self.message = message
        self.refusal = refusal
    }
    public var description: String { message }
}

/// Writes files so that a reader (or a crash) sees either the old bytes or the new, never a mix:
/// the bytes go to a temporary file beside the target, are flushed to disk, and the temporary file
/// is renamed over the target; then the folder is flushed so the rename itself is durable.
public enum AtomicFile {
    /// Writes `data` to `path`, keeping an existing file's permissions (new files get 0644), or
    /// with `privateMode` always 0600: Relay's own state, readable by its owner alone. A symbolic
    /// link is written through to its target, and stays a link.
    public static func write(_ data: Data, to requestedPath: String, withoutLinks: Bool = false, privateMode: Bool = false) throws(FileOperationError) {
        try replace(requestedPath, newFileMode: privateMode ? 0o600 : 0o644, keepingMode: !privateMode, withoutLinks: withoutLinks) {
            descriptor throws(FileOperationError) in
            guard data.withUnsafeBytes({ writeAll($0, to: descriptor) }) else {
                throw FileOperationError(String(cString: strerror(errno)))
            }
        }
    }

    /// Copies the file at `source` to `path` the same way, streaming (Docs/Reliability.md, "Big
    /// files"): memory stays small whatever the size, `stop` ends the copy between chunks (leaving
    /// `path` as it was), and `progress` counts the bytes. A new file gets `source`'s permissions.
    /// `withoutLinks`: `source` and `requestedPath` are resolved paths, opened with no symbolic link
    /// followed along them (`FileReference.openWithoutLinks`); `readingWithoutLinks` says so of the
    /// source alone (a copy into Relay's own folders).
    public static func copy(
        _ source: String, to requestedPath: String, withoutLinks: Bool = false, readingWithoutLinks: Bool = false,
        progress: ByteProgress? = nil, stop: StopFlag? = nil
    ) throws(FileOperationError) {
        let input = withoutLinks || readingWithoutLinks ? try FileReference.openWithoutLinks(source) : open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure("cannot read '\(source)'", reading: source) }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0 else { throw failure("cannot read '\(source)'", reading: source) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw FileOperationError("'\(source)' is not a regular file") }
        progress?.expect(Int64(info.st_size))
        try replace(requestedPath, newFileMode: info.st_mode & 0o777, withoutLinks: withoutLinks) { descriptor throws(FileOperationError) in
            try FileCopy.copy(from: input, to: descriptor, progress: progress, stop: stop)
        }
    }

    /// Replaces `path` by what `fill` writes to a new descriptor: a temporary file beside it,
    /// flushed, then renamed over it. When `fill` fails (no space left, stopped), the temporary
    /// file is removed and `path` is as it was.
    ///
    /// `withoutLinks`: `requestedPath` is a resolved path (the one the gate allowed); its folder is
    /// opened with no symbolic link followed along it, and the file is made and renamed inside that
    /// open folder, so a folder swapped for a link since cannot lead the write elsewhere; a link
    /// now at the name itself is replaced, not followed.
    private static func replace(
        _ requestedPath: String, newFileMode: mode_t = 0o644, keepingMode: Bool = true, withoutLinks: Bool = false,
        filling fill: (Int32) throws(FileOperationError) -> Void
    ) throws(FileOperationError) {
        defer { FileGeneration.advance() }
        let path = withoutLinks ? requestedPath : try target(of: requestedPath)
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporaryName = ".\(name).relay-\(UUID().uuidString).tmp"
        // Every name below is inside `folderDescriptor`: the folder as opened now, or as checked.
        let folderDescriptor = withoutLinks ? relay_open_no_symlinks(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY, 0) : AT_FDCWD
        if withoutLinks && folderDescriptor < 0 {
            if errno == ELOOP || errno == ENOTDIR {
                throw FileOperationError("'\(folder)' changed after it was allowed (a symbolic link is in its place now), so nothing was written")
            }
            throw failure("cannot write in '\(folder)'", writing: path)
        }
        defer { if withoutLinks { close(folderDescriptor) } }
        let temporary = withoutLinks ? temporaryName : (folder as NSString).appendingPathComponent(temporaryName)
        let target = withoutLinks ? name : path
        var mode = newFileMode
        var existing = stat()
        if keepingMode, fstatat(folderDescriptor, target, &existing, withoutLinks ? AT_SYMLINK_NOFOLLOW : 0) == 0,
            (existing.st_mode & S_IFMT) == S_IFREG
        {
            mode = existing.st_mode & 0o7777
        }
        let descriptor = openat(folderDescriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard descriptor >= 0 else { throw failure("cannot write in '\(folder)'", writing: path) }
        do {
            try fill(descriptor)
        } catch {
            close(descriptor)
            unlinkat(folderDescriptor, temporary, 0)
            throw FileOperationError("cannot write '\(path)': \(error.message)")
        }
        guard fsync(descriptor) == 0 else {
            let failed = failure("cannot write '\(path)'")
            close(descriptor)
            unlinkat(folderDescriptor, temporary, 0)
            throw failed
        }
        _ = fchmod(descriptor, mode)
        close(descriptor)
        guard renameat(folderDescriptor, temporary, folderDescriptor, target) == 0 else {
            let failed = failure("cannot replace '\(path)'", writing: path)
            unlinkat(folderDescriptor, temporary, 0)
            throw failed
        }
        DurableWrites.later(folder)
    }

    /// The file that writing to `path` changes: `path` itself, or the file a symbolic link at
    /// `path` leads to (through any chain of links). A link to nothing, or a loop, is an error:
    /// writing would replace the link by a regular file.
    public static func target(of path: String) throws(FileOperationError) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return path }
        guard let resolved = realpath(path, nil) else {
            throw FileOperationError("'\(path)' is a symbolic link to a file that does not exist (or a loop of links): \(String(cString: strerror(errno)))")
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether anything is at `path`: a file, a folder, or a symbolic link (even one to nothing).
    public static func entryExists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// The folder of the resolved `path`, opened with no symbolic link followed along it, and the
    /// name inside it; a link in the way is an error saying the path changed since it was allowed.
    private static func openFolderWithoutLinks(of path: String) throws(FileOperationError) -> (descriptor: Int32, name: String) {
        let folder = FileReference.folderPart(of: path)
        let descriptor = relay_open_no_symlinks(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY, 0)
        guard descriptor >= 0 else {
            if errno == ELOOP || errno == ENOTDIR {
                throw FileOperationError("'\(folder)' changed after it was allowed (a symbolic link is in its place now), so nothing was changed")
            }
            throw failure("cannot open the folder '\(folder)'", writing: path)
        }
        return (descriptor, FileReference.lastComponent(of: path))
    }

    /// Renames the entry at the resolved path `source` to `destination`, which must not exist, inside
    /// their folders opened with no symbolic link followed (only `source`'s when
    /// `destinationFollowsLinks`, for Relay's own folders), so that a folder swapped for a link
    /// since the gate's check cannot lead the move elsewhere. Returns false, changing nothing, when
    /// the two are on different file systems (the caller copies instead).
    public static func renameWithoutLinks(_ source: String, to destination: String, destinationFollowsLinks: Bool = false)
        throws(FileOperationError) -> Bool
    {
        let from = try openFolderWithoutLinks(of: source)
        defer { close(from.descriptor) }
        // A rename in one folder opens it once.
        let sameFolder = FileReference.folderPart(of: destination) == FileReference.folderPart(of: source)
        let to: (descriptor: Int32, name: String)
        if destinationFollowsLinks {
            let folder = (destination as NSString).deletingLastPathComponent
            let descriptor = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw failure("cannot open the folder '\(folder)'", writing: destination) }
            to = (descriptor, (destination as NSString).lastPathComponent)
        } else if sameFolder {
            to = (from.descriptor, FileReference.lastComponent(of: destination))
        } else {
            to = try openFolderWithoutLinks(of: destination)
        }
        defer { if to.descriptor != from.descriptor { close(to.descriptor) } }
        // Never over a file: the kernel refuses it in the same call where it can.
        guard relay_rename_no_replace(from.descriptor, from.name, to.descriptor, to.name) == 0 else {
            if errno == EXDEV { return false }
            throw renameFailure(source, to: destination)
        }
        DurableWrites.later(FileReference.folderPart(of: source))
        if !sameFolder { DurableWrites.later(FileReference.folderPart(of: destination)) }
        return true
    }

    /// Why the rename of `source` to `destination` just failed (from `errno`).
    package static func renameFailure(_ source: String, to destination: String) -> FileOperationError {
        if errno == EEXIST { return FileOperationError("'\(destination)' already exists") }
        return failure("cannot move '\(source)' to '\(destination)'", writing: destination)
    }

    /// Removes the file or link at the resolved path `path`, inside its folder opened with no
    /// symbolic link followed.
    public static func removeWithoutLinks(_ path: String) throws(FileOperationError) {
        let folder = try openFolderWithoutLinks(of: path)
        defer { close(folder.descriptor) }
        var info = stat()
        if fstatat(folder.descriptor, folder.name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            throw FileOperationError("'\(path)' is a folder")
        }
        guard unlinkat(folder.descriptor, folder.name, 0) == 0 else { throw failure("cannot delete '\(path)'", writing: path) }
        DurableWrites.later((path as NSString).deletingLastPathComponent)
    }

    /// Renames `source` to `destination` atomically (same file system), refusing to replace an
    /// existing file, and flushes both folders.
    public static func move(_ source: String, to destination: String) throws(FileOperationError) {
        guard !entryExists(destination) else {
            throw FileOperationError("'\(destination)' already exists")
        }
        guard rename(source, destination) == 0 else {
            if errno == EXDEV {
                throw FileOperationError("cannot move '\(source)' to another file system atomically; copy it instead")
            }
            throw failure("cannot move '\(source)' to '\(destination)'", writing: destination)
        }
        DurableWrites.later((source as NSString).deletingLastPathComponent)
        DurableWrites.later((destination as NSString).deletingLastPathComponent)
    }

    /// Moves `source` to `destination`: an atomic rename on one file system; across file systems,
    /// an atomic copy of the bytes (a symbolic link copied as a link) followed by removing the source.
    public static func moveAcrossFileSystems(
        _ source: String, to destination: String, progress: ByteProgress? = nil, stop: StopFlag? = nil
    ) throws(FileOperationError) {
        defer { FileGeneration.advance() }
        do {
            try move(source, to: destination)
        } catch {
            guard errno == EXDEV else { throw error }
            if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: source) {
                guard symlink(link, destination) == 0 else { throw failure("cannot make the link '\(destination)'", writing: destination) }
            } else {
                try copy(source, to: destination, progress: progress, stop: stop)
            }
            guard unlink(source) == 0 else { throw failure("cannot remove '\(source)' after copying it", writing: source) }
        }
    }

    /// An error saying `message` and why the system failed; when it refused outright, the
    /// refusal names reading or writing the path given.
    private static func failure(_ message: String, reading read: String? = nil, writing written: String? = nil) -> FileOperationError {
        let code = errno
        var refusal: Access?
        if code == EACCES || code == EPERM { refusal = written.map(Access.write) ?? read.map(Access.read) }
        return FileOperationError("\(message): \(String(cString: strerror(code)))", refusal: refusal)
    }
}
