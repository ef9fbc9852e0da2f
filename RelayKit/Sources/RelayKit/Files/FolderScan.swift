import Foundation
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

/// How a folder scan treats symbolic links.
public enum SymbolicLinks: Sendable {
    /// Links are neither listed nor entered.
    case skip
    /// A link is followed when what it leads to lies inside the scanned folder: a file is listed
    /// at the link's path, a folder entered (each folder once, so loops end).
    case followInside
}

/// Lists the files under a folder with `readdir` and one status a file — fast enough for the photo
/// and note libraries to read their folders on every query (100,000 files; see Docs/Performance.md).
/// The one folder walk of Relay: `find-files` and the libraries both use it (Docs/Reliability.md).
public enum FolderScan {
    /// The visible regular files in `folder` (and below it, with `recursive`) whose extension,
    /// lowercased, is in `extensions` (every file when nil). Hidden files and folders are
    /// skipped. In path order: names sorted within each folder, a subfolder's files where its name
    /// sorts. The walk keeps its own stack, so no depth of folders can overflow the thread's.
    public static func files(
        in folder: String, extensions: Set<String>? = nil, recursive: Bool = true, links: SymbolicLinks = .skip
    ) -> [ScannedFile] {
        var found: [ScannedFile] = []
        let root = realPath(folder)
        var visited: Set<FolderKey> = []
        guard let first = listing(folder, relative: "", visited: &visited) else { return [] }
        var stack = [first]
        while let top = stack.indices.last {
            guard stack[top].next < stack[top].entries.count else {
                stack.removeLast()
                continue
            }
            let entry = stack[top].entries[stack[top].next]
            stack[top].next += 1
            let path = stack[top].path.hasSuffix("/") ? stack[top].path + entry.name : stack[top].path + "/" + entry.name
            let relativePath = stack[top].relative.isEmpty ? entry.name : stack[top].relative + "/" + entry.name
            var status = entry.status
            if status.kind == UInt32(S_IFLNK) {
                guard case .followInside = links, let root, let target = realPath(path),
                    target.hasPrefix(root.hasSuffix("/") ? root : root + "/"),
                    relay_file_status_of(path, 1, &status) == 0
                else { continue }
            }
            if status.kind == UInt32(S_IFDIR) {
                if recursive, let inner = listing(path, relative: relativePath, visited: &visited) { stack.append(inner) }
            } else if status.kind == UInt32(S_IFREG), extensions.map({ $0.contains(fileExtension(of: entry.name)) }) ?? true {
                found.append(scanned(status, path: path, relative: relativePath, name: entry.name))
            }
        }
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

    /// The extension of a file name, lowercased, without the dot; empty when it has none (or is
    /// a dot file).
    public static func fileExtension(of name: String) -> String {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.utf8.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    private struct FolderKey: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private struct Entry {
        let name: String
        /// Of the entry itself (a link is not followed here).
        let status: relay_file_status
    }

    /// A folder being walked: its visible entries, sorted, and the next one to look at.
    private struct Listing {
        let path: String
        let relative: String
        let entries: [Entry]
        var next = 0
    }

    /// The visible entries of `folder`, or nil when it cannot be read or was entered before.
    private static func listing(_ folder: String, relative: String, visited: inout Set<FolderKey>) -> Listing? {
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        // Each status relative to the open folder: the kernel does not walk the whole path per file.
        let folderDescriptor = dirfd(directory)
        var own = relay_file_status()
        guard relay_file_status_at(folderDescriptor, ".", 0, &own) == 0,
            visited.insert(FolderKey(device: own.device, inode: own.inode)).inserted
        else { return nil }
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            guard !name.hasPrefix(".") else { continue }
            var status = relay_file_status()
            guard relay_file_status_at(folderDescriptor, name, 0, &status) == 0 else { continue }
            entries.append(Entry(name: name, status: status))
        }
        entries.sort { $0.name < $1.name }
        return Listing(path: folder, relative: relative, entries: entries)
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The file `status` describes.
    private static func scanned(_ status: relay_file_status, path: String, relative: String, name: String) -> ScannedFile {
        let modified = date(status.modified_seconds, status.modified_nanoseconds)
        let changed = date(status.changed_seconds, status.changed_nanoseconds)
        let created = status.has_birth_time != 0 ? date(status.born_seconds, status.born_nanoseconds) : min(modified, changed)
        #if canImport(Darwin)
            let added = created
        #else
            let added = changed
        #endif
        return ScannedFile(
            path: path, relativePath: relative, size: status.size, modified: modified, created: created,
            added: added, identity: FileIdentity(status), name: name)
    }

    private static func date(_ seconds: Int64, _ nanoseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }
}
