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
    public var name: String { (relativePath as NSString).lastPathComponent }
    /// The extension, lowercased, without the dot.
    public var fileExtension: String { (relativePath as NSString).pathExtension.lowercased() }
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
        return scanned(path: path, relative: relativePath)
    }

    private static func scan(_ folder: String, relative: String, extensions: Set<String>?, into found: inout [ScannedFile]) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
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
            if let extensions, !extensions.contains((name as NSString).pathExtension.lowercased()) { continue }
            if kind == UInt8(DT_UNKNOWN) || kind == UInt8(DT_LNK) {
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    scan(path, relative: relativePath, extensions: extensions, into: &found)
                    continue
                }
            } else if kind != UInt8(DT_REG) {
                continue
            }
            if let file = scanned(path: path, relative: relativePath) { found.append(file) }
        }
    }

    private static func scanned(path: String, relative: String) -> ScannedFile? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
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
            identity: FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }

    private static func date(_ time: timespec) -> Date {
        Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000)
    }
}
