import Foundation

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
    /// When the file was made, where the file system records it (macOS); on Linux, the earlier of
    /// its modification and status-change times.
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

/// Lists the files under a folder with `readdir` and one `stat` a file — fast enough for the photo
/// and note libraries to read their folders on every query (100,000 files; see Docs/Performance.md).
public enum FolderScan {
    /// The visible regular files under `folder` (recursively) whose extension, lowercased, is in
    /// `extensions` (every file when nil). Hidden files and folders are skipped. Sorted by path.
    public static func files(in folder: String, extensions: Set<String>? = nil) -> [ScannedFile] {
        var found: [ScannedFile] = []
        scan(folder, relative: "", extensions: extensions, into: &found)
        found.sort { $0.relativePath < $1.relativePath }
        return found
    }

    /// The file at `relativePath` below `folder`, if it is a regular file.
    public static func file(_ relativePath: String, in folder: String) -> ScannedFile? {
        let path = folder.hasSuffix("/") ? folder + relativePath : folder + "/" + relativePath
        let name = relativePath.split(separator: "/").last.map(String.init) ?? relativePath
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return scanned(info, path: path, relative: relativePath, name: name)
    }

    /// The extension of a file name, lowercased, without the dot; empty when it has none (or is
    /// a dot file).
    public static func fileExtension(of name: String) -> String {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.utf8.startIndex else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    private static func scan(_ folder: String, relative: String, extensions: Set<String>?, into found: inout [ScannedFile]) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        // `fstatat` relative to the open folder: the kernel does not walk the whole path per file.
        let folderDescriptor = dirfd(directory)
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            guard !name.hasPrefix(".") else { continue }
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            let kind = entry.pointee.d_type
            if kind == UInt8(DT_DIR) {
                scan(path, relative: relativePath, extensions: extensions, into: &found)
                continue
            }
            // A link or an entry of unknown kind may be a folder: `stat` tells (and follows links).
            let mayBeFolder = kind == UInt8(DT_UNKNOWN) || kind == UInt8(DT_LNK)
            guard mayBeFolder || kind == UInt8(DT_REG) else { continue }
            let wanted = extensions.map { $0.contains(fileExtension(of: name)) } ?? true
            if !mayBeFolder && !wanted { continue }
            var info = stat()
            guard fstatat(folderDescriptor, name, &info, 0) == 0 else { continue }
            if mayBeFolder, (info.st_mode & S_IFMT) == S_IFDIR {
                scan(path, relative: relativePath, extensions: extensions, into: &found)
                continue
            }
            guard wanted else { continue }
            if let file = scanned(info, path: path, relative: relativePath, name: name) { found.append(file) }
        }
    }

    /// The file `info` describes, if it is a regular file.
    private static func scanned(_ info: stat, path: String, relative: String, name: String) -> ScannedFile? {
        guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
            let modified = date(info.st_mtimespec)
            let created = date(info.st_birthtimespec)
            let added = created
        #else
            let modified = date(info.st_mtim)
            let added = date(info.st_ctim)
            let created = min(modified, added)
        #endif
        return ScannedFile(
            path: path, relativePath: relative, size: Int64(info.st_size), modified: modified, created: created, added: added,
            identity: FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)), name: name)
    }

    private static func date(_ time: timespec) -> Date {
        Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000)
    }
}
