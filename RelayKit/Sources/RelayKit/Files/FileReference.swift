import Foundation

package import CFileStatus

/// What identifies one file on its file system, whatever its name: device and inode, and — since
/// a deleted file's inode is soon given to another file — its size, modification time and birth
/// time (where the file system records it). Two identities are equal only when all agree, so a
/// file value never jumps to an unrelated file that happens to reuse an inode (Docs/Reliability.md).
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    /// Nanoseconds since 1970.
    public let modified: Int64
    /// Nanoseconds since 1970, or nil where the file system does not record it.
    public let born: Int64?

    /// An identity from a status already read.
    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, born: Int64?) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.born = born
    }

    /// The identity of the file at `path` (following a final link), or nil if there is none.
    public init?(path: String) {
        guard let (identity, _) = Self.withFolderness(path) else { return nil }
        self = identity
    }

    /// The identity of the file at `path` (following a final link), and whether it is a folder,
    /// read in one call.
    static func withFolderness(_ path: String) -> (FileIdentity, isFolder: Bool)? {
        var status = relay_file_status()
        guard relay_file_status_of(path, 1, &status) == 0 else { return nil }
        return (FileIdentity(status), status.kind == UInt32(S_IFDIR))
    }

    package init(_ status: relay_file_status) {
        device = status.device
        inode = status.inode
        size = status.size
        modified = Self.nanoseconds(status.modified_seconds, status.modified_nanoseconds)
        born = status.has_birth_time != 0 ? Self.nanoseconds(status.born_seconds, status.born_nanoseconds) : nil
    }

    /// `seconds` and `nanoseconds` as one count, saturating (a corrupt time stamp cannot trap).
    static func nanoseconds(_ seconds: Int64, _ nanoseconds: Int64) -> Int64 {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflowed) = scaled.addingReportingOverflow(nanoseconds)
        return overflowed ? .max : sum
    }
}

/// What Relay did to files in this process, so that a file value made before a change finds the
/// file after it: a move gives the file a new path, an atomic rewrite a new identity at the same
/// path. Each change links the identity before it to the path and identity after it.
package enum FileSuccessors {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var next: [FileIdentity: (path: String, identity: FileIdentity)] = [:]
    /// Past this many changes the record starts again: values then keep their paths, which is safe.
    private static let limit = 100_000

    /// Records that the file `identity` is now at `path`, as `successor`.
    package static func record(_ identity: FileIdentity, now path: String, as successor: FileIdentity) {
        FileChecks.startRound()
        lock.lock()
        defer { lock.unlock() }
        if next.count >= limit { next.removeAll(keepingCapacity: true) }
        next[identity] = (path, successor)
    }

    static func successor(of identity: FileIdentity) -> (path: String, identity: FileIdentity)? {
        lock.lock()
        defer { lock.unlock() }
        return next[identity]
    }
}

/// Rounds of looking where files are. A file value checks where its file is (a `stat`, and more
/// when the file has moved) at most once a round, however many of its properties are read: the
/// interpreter starts a round before each step, and every change Relay makes to a file starts one,
/// so a file changed by another program between two steps is looked for again before the next
/// step reads or changes it (Docs/Reliability.md, "Your files").
public enum FileChecks {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var count: UInt64 = 0

    /// The current round.
    public static var round: UInt64 { lock.withLock { count } }

    /// Starts a new round: every file value looks for its file again when next read.
    public static func startRound() { lock.withLock { count &+= 1 } }
}

/// Where a file value last found its file, and in which round (FileChecks); shared by the copies
/// of a value.
final class FoundPlace: @unchecked Sendable {
    private let lock = NSLock()
    private var path: String?
    /// Whether what was found is a folder, when the look that found it said.
    private var isFolder: Bool?
    private var round: UInt64 = 0

    init() {}

    init(_ path: String, in round: UInt64) {
        self.path = path
        self.round = round
    }

    /// The path found in `round`, or nil when it was not looked for in it.
    func path(in round: UInt64) -> String? {
        lock.withLock { self.round == round ? path : nil }
    }

    /// The path found in `round` and whether it is a folder, when the look that found it said.
    func place(in round: UInt64) -> (path: String, isFolder: Bool)? {
        lock.withLock {
            guard self.round == round, let path, let isFolder else { return nil }
            return (path, isFolder)
        }
    }

    func remember(_ path: String, isFolder: Bool? = nil, in round: UInt64) {
        lock.withLock {
            self.path = path
            self.isFolder = isFolder
            self.round = round
        }
    }
}

/// A file as a workflow value (Docs/Language.md, "Changing files, and undo"): its path when made, and its identity, so that the value
/// still finds the file after a rename in its folder, or a move by Relay.
public struct FileReference: Hashable, Sendable {
    /// The absolute, standardized path the file had when the value was made.
    public let originalPath: String
    /// Device and inode, when the file existed and the file system could tell.
    public let identity: FileIdentity?
    /// Whether the path was written with a trailing `/`: it names a folder, existing or to be made.
    public let namesFolder: Bool
    /// The resolved path the run's gate allowed for this step, when it was asked: the file is then
    /// read there and only there, with no symbolic link followed, so a link put in its place since
    /// cannot lead the read elsewhere (Docs/Security.md, "Opening what was checked"). Not part of
    /// the value's identity.
    public private(set) var approvedPath: String?
    /// Where `path` last found the file (not part of the value's identity).
    private let found: FoundPlace

    public static func == (left: FileReference, right: FileReference) -> Bool {
        left.originalPath == right.originalPath && left.identity == right.identity && left.namesFolder == right.namesFolder
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(originalPath)
        hasher.combine(identity)
        hasher.combine(namesFolder)
    }

    /// Opens `resolvedPath` for reading without following a symbolic link anywhere along it (the
    /// path the gate allowed: a link there now was put there since).
    public static func openWithoutLinks(_ resolvedPath: String) throws(FileOperationError) -> Int32 {
        let descriptor = relay_open_no_symlinks(resolvedPath, O_RDONLY | O_NONBLOCK, 0)
        guard descriptor >= 0 else {
            if errno == ELOOP || errno == ENOTDIR {
                throw FileOperationError("'\(resolvedPath)' changed after it was allowed (a symbolic link is in its place now), so it was not read")
            }
            throw FileOperationError("cannot read '\(resolvedPath)': \(String(cString: strerror(errno)))")
        }
        return try plainFile(descriptor, resolvedPath)
    }

    /// This reference, to be read only at `resolvedPath`, which the gate allowed.
    public func approved(at resolvedPath: String) -> FileReference {
        var copy = self
        copy.approvedPath = resolvedPath
        return copy
    }

    /// Opens the file for reading: at the allowed path without following a link when the gate was
    /// asked about it, else at `path`. Returns the descriptor, or the error of the read.
    public func openForReading() throws(ValueAccessError) -> Int32 {
        if let approvedPath {
            do throws(FileOperationError) {
                return try Self.openWithoutLinks(approvedPath)
            } catch {
                throw ValueAccessError(exists || error.message.contains("changed after") || error.message.contains("not a file") ? error.message : "the file '\(shownPath)' no longer exists")
            }
        }
        // Opened without waiting: a pipe would hold the read until something wrote to it.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw ValueAccessError(exists ? "cannot read '\(path)': \(String(cString: strerror(errno)))" : "the file '\(shownPath)' no longer exists")
        }
        do throws(FileOperationError) {
            return try Self.plainFile(descriptor, shownPath)
        } catch {
            throw ValueAccessError(error.message)
        }
    }

    /// `descriptor`, open on a plain file, made to wait on reads again; closed, and an error,
    /// when it is a pipe, a socket or a device: a read of one may never end.
    static func plainFile(_ descriptor: Int32, _ shown: String) throws(FileOperationError) -> Int32 {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG || info.st_mode & S_IFMT == S_IFDIR else {
            close(descriptor)
            throw FileOperationError("'\(shown)' is not a file (a pipe, a socket or a device), and is not read")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    /// What is wrong with `text` as a path, or nil: the system reads a path only up to a NUL, so a
    /// path holding one would name one file and touch another. Final: text that cannot be a path
    /// is not turned into a document instead.
    public static func pathProblem(_ text: String) -> String? {
        text.utf8.contains(0) ? "a path cannot hold a NUL character (\\0)" : nil
    }

    /// A reference to the file at `path`; a relative path resolves against `base` (the workflow's
    /// folder) or the current directory, and `~` expands to the home folder.
    public init(path: String, relativeTo base: URL? = nil) {
        let expanded = HomeFolder.expandingTilde(in: path)
        if expanded.hasPrefix("/") {
            originalPath = Self.isStandardized(expanded) ? expanded : URL(fileURLWithPath: expanded).standardizedFileURL.path
        } else {
            let folder = base?.path ?? FileManager.default.currentDirectoryPath
            let joined = folder.hasSuffix("/") ? folder + expanded : folder + "/" + expanded
            originalPath = Self.isStandardized(joined) ? joined : URL(fileURLWithPath: joined).standardizedFileURL.path
        }
        namesFolder = path.hasSuffix("/")
        identity = FileIdentity(path: originalPath)
        found = FoundPlace()
    }

    /// A reference to the file at the absolute `path`, whose identity was just read there (by a
    /// folder walk, or after a move), so that no `stat` is needed: the file is taken to be there for the rest of
    /// this round (FileChecks).
    public init(path: String, identity: FileIdentity) {
        originalPath = Self.isStandardized(path) ? path : URL(fileURLWithPath: path).standardizedFileURL.path
        namesFolder = false
        self.identity = identity
        found = FoundPlace(originalPath, in: FileChecks.round)
    }

    /// Whether `path` is absolute and has no empty, `.` or `..` part and no trailing `/` (as a
    /// folder walk's paths are), so standardizing it would change nothing.
    package static func isStandardized(_ path: String) -> Bool {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/"), bytes.count > 1, bytes.last != UInt8(ascii: "/") else { return false }
        var partLength = 0, dots = 0
        for byte in bytes.dropFirst() {
            if byte == UInt8(ascii: "/") {
                if partLength == 0 || (dots == partLength && dots <= 2) { return false }
                partLength = 0
                dots = 0
            } else {
                partLength += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        return !(dots == partLength && dots <= 2)
    }

    /// Where the file is now. The original path while it holds the same file; else where Relay's
    /// own moves and rewrites took it; else, if nothing is at the original path, the entry of the
    /// original folder with the very same identity (a rename by someone else); else the original
    /// path — which may hold another file now, or nothing, and then reading it is an error that
    /// names that path.
    /// Looked for once a round (FileChecks).
    public var path: String {
        guard let identity else { return originalPath }
        let round = FileChecks.round
        if let known = found.path(in: round) { return known }
        let (located, isFolder) = Self.locate(identity, originalPath)
        found.remember(located, isFolder: isFolder, in: round)
        return located
    }

    /// Where the file was found in this step (`path`), and whether it is a folder, as the look
    /// that found it at its first path read it; nil when that look has not said (the caller
    /// looks itself).
    public var foundThisStep: (path: String, isFolder: Bool)? {
        _ = path
        return found.place(in: FileChecks.round)
    }

    /// Where the file `identity`, first at `originalPath`, is now (`path`), and whether it is a
    /// folder when the look at `originalPath` found it there.
    private static func locate(_ identity: FileIdentity, _ originalPath: String) -> (String, Bool?) {
        let look = FileIdentity.withFolderness(originalPath)
        let here = look?.0
        if here == identity { return (originalPath, look?.isFolder) }
        return (relocate(identity, originalPath, here: here), nil)
    }

    /// Where the file `identity`, no longer at `originalPath` (where `here` is now), went.
    private static func relocate(_ identity: FileIdentity, _ originalPath: String, here: FileIdentity?) -> String {
        if let followed = follow(identity, from: originalPath) { return followed }
        guard here == nil else { return originalPath }
        let folder = (originalPath as NSString).deletingLastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names {
            let candidate = (folder as NSString).appendingPathComponent(name)
            if FileIdentity(path: candidate) == identity { return candidate }
        }
        return originalPath
    }

    /// The path Relay's recorded changes lead `identity` to: the last place along the chain where
    /// the file found is the one the change left (a bounded walk).
    private static func follow(_ identity: FileIdentity, from path: String) -> String? {
        var current = identity
        var found: String?
        for _ in 0..<1_000 {
            guard let step = FileSuccessors.successor(of: current) else { break }
            if FileIdentity(path: step.path) == step.identity { found = step.path }
            if step.identity == current { break }
            current = step.identity
        }
        return found
    }

    /// The file name with its extension.
    public var name: String { Self.lastComponent(of: path) }

    /// The extension without the dot, or empty.
    public var fileExtension: String { Self.extensionOf(name) }

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
        guard let descriptor = try? openForReading() else {
            return ContentType(fileExtension: fileExtension) ?? .data
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let prefix = (try? handle.read(upToCount: ContentSniffing.prefixLength)) ?? Data()
        return ContentSniffing.type(fileExtension: fileExtension, content: prefix)
    }

    /// The file's attributes, or an error saying the file is gone.
    public func attributes() throws(ValueAccessError) -> [FileAttributeKey: Any] {
        do {
            return try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw ValueAccessError("the file '\(shownPath)' no longer exists")
        }
    }

    /// The path as a message quotes it: at most 200 characters (a text taken for a path may be a
    /// whole file's contents).
    public var shownPath: String { Excerpt.start(of: path) }

    /// The file's bytes.
    public func contents() throws(ValueAccessError) -> Data {
        let handle = FileHandle(fileDescriptor: try openForReading(), closeOnDealloc: true)
        do {
            return try handle.readToEnd() ?? Data()
        } catch {
            throw ValueAccessError("cannot read '\(path)': \(error.localizedDescription)")
        }
    }
}
