import Foundation
import RelayKit
internal import CFileStatus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One regular file found by a `FolderScan`, with what one `stat` tells.
public struct ScannedFile: Sendable, Hashable {
    /// The absolute path.
    public let path: String
    /// The path below the scanned folder (`2026/beach.png`).
    public let relativePath: String
    public let size: Int64
    public let modified: Date
    /// When the file was made, where the file system records it (its birth time); else the
    /// earlier of its modification and status-change times.
    public let created: Date
    /// When the file arrived where it is: its creation time on macOS; on Linux its status-change
    /// time, which a copy, move or rename into the folder sets.
    public let added: Date
    public let identity: FileIdentity
    /// The file name with its extension.
    public let name: String

    /// The extension, lowercased, without the dot.
    public var fileExtension: String { FolderScan.fileExtension(of: name) }
    /// A file value for it (which follows the file through renames).
    public var reference: FileReference { FileReference(path: path, identity: identity) }
}

/// Lists the files under a folder: one `readdir` a folder, and a file's status read only when
/// it is asked for — fast enough for the photo and note libraries to read their folders on every
/// query, and for `find-files` to look at 100,000 names at `find`'s pace (Docs/Performance.md).
/// The one folder walk of Relay: `find-files` and the libraries both use it (Docs/Reliability.md).
public enum FolderScan {
    /// The visible regular files in `folder` (and below it, with `recursive`) whose extension,
    /// lowercased, is in `extensions` (every file when nil), in the walk's order (FolderWalk).
    /// Throws `CancellationError` when the task is cancelled (a step's `timeout:`, a signal): a
    /// walk of 100,000 files takes a second, and a partial list would look like files gone.
    public static func files(
        in folder: String, extensions: Set<String>? = nil, recursive: Bool = true, links: SymbolicLinks = .skip
    ) throws -> [ScannedFile] {
        var found: [ScannedFile] = []
        // Another extension's file is passed over while its folder is read: no status read, no sort.
        let keep = extensions.map { extensions in { (name: String) in extensions.contains(fileExtension(of: name)) } }
        var walk = FolderWalk(folder, recursive: recursive, links: links, statusEagerly: true, keepingFiles: keep)
        var nextLook = 0
        while var entry = walk.next() {
            if walk.report.files >= nextLook {
                nextLook = walk.report.files + 1024
                try Task.checkCancellation()
            }
            guard let file = walk.scan(&entry) else { continue }
            found.append(file)
        }
        try Task.checkCancellation()  // the walk ends early when cancelled
        return found
    }

    /// The file at `relativePath` below `folder`, if it is a regular file.
    public static func file(_ relativePath: String, in folder: String) -> ScannedFile? {
        let path = folder.hasSuffix("/") ? folder + relativePath : folder + "/" + relativePath
        let name = relativePath.split(separator: "/").last.map(String.init) ?? relativePath
        var status = relay_file_status()
        guard relay_file_status_of(path, 1, &status) == 0, status.kind == UInt32(S_IFREG) else { return nil }
        return scanned(status, path: path, relative: relativePath, name: name)
    }

    /// The file `relativePath` names below `folder`, only as a walk of it with `extensions` and
    /// links followed inside it would list it: a visible regular file of one of `extensions`,
    /// named with no `.`, `..`, empty or hidden part, which is inside the folder once every link
    /// on its way is followed. Nil for anything else: an entity's identifier, which a caller may
    /// write (an assistant), never reaches a file beyond its library's folder.
    public static func file(_ relativePath: String, in folder: String, extensions: Set<String>) -> ScannedFile? {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !relativePath.isEmpty, !relativePath.utf8.contains(0), parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }),
            let last = parts.last, extensions.contains(fileExtension(of: String(last)))
        else { return nil }
        let path = folder.hasSuffix("/") ? folder + relativePath : folder + "/" + relativePath
        guard let root = realPath(folder), let target = realPath(path), target.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { return nil }
        return file(relativePath, in: folder)
    }

    /// The bytes of the regular file at `path`, only when the file opened is inside `folder` once
    /// every link is followed — told by what was opened, so a link put in its place after it was
    /// found leads nowhere else — and has at most `limit` bytes; nil otherwise. An entity's file is
    /// read so (a note's body): it was found in its library, and is read only there.
    public static func contents(of path: String, inside folder: String, limit: Int) -> Data? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) <= limit,
            let root = realPath(folder), let opened = openedPath(descriptor), opened.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        else { return nil }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while data.count <= limit {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data.count <= limit ? data : nil
    }

    /// The path of what `descriptor` has open, its links followed.
    private static func openedPath(_ descriptor: Int32) -> String? {
        #if canImport(Darwin)
            var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN))
            guard fcntl(descriptor, F_GETPATH, &buffer) != -1 else { return nil }
            return realPath(String(cString: buffer))
        #else
            return realPath("/proc/self/fd/\(descriptor)")
        #endif
    }

    /// `path` with every link followed and `.` and `..` resolved; nil when it is not there.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The extension of a file name, lowercased, without the dot; empty when it has none (or is
    /// a dot file).
    public static func fileExtension(of name: String) -> String {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.utf8.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    /// The file `status` describes.
    static func scanned(_ status: relay_file_status, path: String, relative: String, name: String) -> ScannedFile {
        let created = FileReference.created(status)
        #if canImport(Darwin)
            let added = created
        #else
            let added = FileReference.statusChanged(status)
        #endif
        return ScannedFile(
            path: path, relativePath: relative, size: status.size, modified: FileReference.modified(status), created: created,
            added: added, identity: FileIdentity(status), name: name)
    }

}
