import Foundation

/// What identifies a file on its file system, whatever its name: device and inode.
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    /// An identity from a `stat` already made.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The identity of the file at `path`, or nil if there is none (or the file system cannot tell).
    public init?(path: String) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let device = (attributes[.systemNumber] as? NSNumber)?.uint64Value,
            let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
        else { return nil }
        self.device = device
        self.inode = inode
    }
}

/// Where this process has moved files, by identity, so that file values made before a move find
/// the file in its new folder (renames within a folder are found by scanning it).
enum FileMoves {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var paths: [FileIdentity: String] = [:]

    static func record(_ identity: FileIdentity, movedTo path: String) {
        lock.lock()
        defer { lock.unlock() }
        paths[identity] = path
    }

    static func path(of identity: FileIdentity) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return paths[identity]
    }
}

/// A file as a workflow value (SPEC §8): its path when made, and its identity, so that the value
/// still finds the file after a rename in its folder, or a move by Relay.
public struct FileReference: Hashable, Sendable {
    /// The absolute, standardized path the file had when the value was made.
    public let originalPath: String
    /// Device and inode, when the file existed and the file system could tell.
    public let identity: FileIdentity?
    /// Whether the path was written with a trailing `/`: it names a folder, existing or to be made.
    public let namesFolder: Bool

    /// A reference to the file at `path`; a relative path resolves against `base` (the workflow's
    /// folder) or the current directory, and `~` expands to the home folder.
    public init(path: String, relativeTo base: URL? = nil) {
        let expanded = HomeFolder.expandingTilde(in: path)
        let url: URL
        if expanded.hasPrefix("/") {
            url = URL(fileURLWithPath: expanded)
        } else {
            let folder = base ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
            url = folder.appendingPathComponent(expanded)
        }
        originalPath = url.standardizedFileURL.path
        namesFolder = path.hasSuffix("/")
        identity = FileIdentity(path: originalPath)
    }

    /// A reference to the file at the absolute `path`, whose identity is already known (from a
    /// folder scan), so that no `stat` is needed.
    public init(path: String, identity: FileIdentity) {
        originalPath = URL(fileURLWithPath: path).standardizedFileURL.path
        namesFolder = false
        self.identity = identity
    }

    /// Where the file is now: its original path if that still holds the same file, else the entry of
    /// the original folder with the same identity (a rename), else the original path.
    public var path: String {
        guard let identity, FileIdentity(path: originalPath) != identity else { return originalPath }
        if let moved = FileMoves.path(of: identity), FileIdentity(path: moved) == identity { return moved }
        let folder = (originalPath as NSString).deletingLastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names {
            let candidate = (folder as NSString).appendingPathComponent(name)
            if FileIdentity(path: candidate) == identity { return candidate }
        }
        return originalPath
    }

    /// The file name with its extension.
    public var name: String { (path as NSString).lastPathComponent }

    /// The extension without the dot, or empty.
    public var fileExtension: String { (name as NSString).pathExtension }

    /// Whether something exists at the path.
    public var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// Whether the path is a folder.
    public var isFolder: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The content type: from the extension and the first bytes (a lying extension gives way).
    public var contentType: ContentType {
        if isFolder { return .folder }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return ContentType(fileExtension: fileExtension) ?? .data
        }
        defer { try? handle.close() }
        let prefix = (try? handle.read(upToCount: ContentSniffing.prefixLength)) ?? Data()
        return ContentSniffing.type(fileExtension: fileExtension, content: prefix)
    }

    /// The file's attributes, or an error saying the file is gone.
    public func attributes() throws(ValueAccessError) -> [FileAttributeKey: Any] {
        do {
            return try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw ValueAccessError("the file '\(path)' no longer exists")
        }
    }

    /// The file's bytes.
    public func contents() throws(ValueAccessError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValueAccessError(exists ? "cannot read '\(path)'" : "the file '\(path)' no longer exists")
        }
        return data
    }
}
