import Foundation
import RelayKit
internal import CFileStatus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file a `FolderWalk` met: its name and place, read from its folder's listing. Its
/// status (size, times, identity) is read only when asked for (`FolderWalk.scan`), so a walk
/// that looks at names alone reads each folder once and no file.
public struct FolderEntry: Sendable {
    /// The file name with its extension.
    public let name: String
    /// The absolute path.
    public let path: String
    /// The path below the walked folder (`2026/beach.png`).
    public let relativePath: String
    /// The status, once read (or when the listing had to read it anyway).
    fileprivate var status: relay_file_status?
    /// The result of `FolderWalk.scan`, once asked.
    fileprivate var scanned: ScannedFile??
    /// Reached through a symbolic link the walk followed.
    fileprivate var throughLink = false
    /// Which listing it came from (its depth and number), so that `scan` can read its status
    /// relative to that folder while it is still open.
    fileprivate var listing: (depth: Int, number: Int) = (-1, -1)
}

/// What a walk read and what it passed over, for `--trace` and for a warning.
public struct WalkReport: Sendable, Equatable {
    /// Folders listed.
    public var folders = 0
    /// Regular files met.
    public var files = 0
    /// Entries passed over: a folder that cannot be read, a name that is not UTF-8, a file gone
    /// or replaced by a folder since its folder was listed, a folder reached a second time through
    /// a link (a loop).
    public var skipped = 0
    /// The first of them, with why.
    public var firstSkipped: String?

    public init() {}

    mutating func skip(_ path: String, _ why: String) {
        skipped += 1
        if firstSkipped == nil { firstSkipped = "'\(Excerpt.start(of: path))' (\(why))" }
    }

    /// "2 entries were skipped, the first '/a/b' (cannot be read: Permission denied)", or nil.
    public var skippedSummary: String? {
        guard skipped > 0, let firstSkipped else { return nil }
        return skipped == 1 ? "1 entry was skipped: \(firstSkipped)" : "\(skipped) entries were skipped, the first \(firstSkipped)"
    }
}

/// How a folder scan treats symbolic links.
public enum SymbolicLinks: Sendable {
    /// Links are neither listed nor entered.
    case skip
    /// A link is followed when what it leads to lies inside the scanned folder: a file is listed
    /// at the link's path, a folder entered (each folder once, so loops end).
    case followInside
}

/// Walks the visible regular files under a folder, one at a time, in path order: names sorted
/// within each folder, a subfolder's files where its name sorts. Hidden files and folders are
/// skipped. Each folder is read once (`readdir`, whose entry types say which are folders); a file's
/// status is read only when `scan` asks, relative to nothing but its path. The walk keeps its own
/// stack, so no depth of folders can overflow the thread's, and only one folder's names at a time
/// per level, so memory follows the widest folder, not the tree. A file with two names (hard
/// links, or one moved during the walk) is scanned once, under the first name met; a symbolic
/// link followed is listed at its own path.
///
/// A walk given `keepingFiles` passes over a file whose name it refuses while its folder is read,
/// before anything is sorted or any status read. A walk whose task is cancelled ends before the
/// next folder it would read: its caller checks for cancellation when `next()` gives nil.
public struct FolderWalk {
    private let root: String?
    private let recursive: Bool
    private let links: SymbolicLinks
    private let statusEagerly: Bool
    private let keep: ((String) -> Bool)?
    private var stack: [Listing] = []
    private var visited: Set<Key> = []
    private var listed: Set<Key> = []
    public private(set) var report = WalkReport()

    /// A walk of `folder`. `statusEagerly`: read every file's status while its folder is open
    /// (relative to the folder, for callers that need them all, like the libraries).
    /// `keepingFiles`: whether a file of that name may be wanted (nil: every file).
    public init(
        _ folder: String, recursive: Bool = true, links: SymbolicLinks = .skip, statusEagerly: Bool = false,
        keepingFiles keep: ((String) -> Bool)? = nil
    ) {
        self.recursive = recursive
        self.links = links
        self.statusEagerly = statusEagerly
        self.keep = keep
        root = Self.realPath(folder)
        if let first = listing(folder, relative: "") { stack.append(first) }
    }

    /// The next regular file, or nil at the end.
    public mutating func next() -> FolderEntry? {
        while let top = stack.indices.last {
            guard stack[top].next < stack[top].entries.count else {
                stack.removeLast()
                continue
            }
            let entry = stack[top].entries[stack[top].next]
            stack[top].next += 1
            let path = stack[top].path.hasSuffix("/") ? stack[top].path + entry.name : stack[top].path + "/" + entry.name
            let relativePath = stack[top].relative.isEmpty ? entry.name : stack[top].relative + "/" + entry.name
            var kind = entry.kind
            var status = entry.status
            if kind == .link {
                var followed = relay_file_status()
                guard case .followInside = links, let root, let target = Self.realPath(path),
                    target.hasPrefix(root.hasSuffix("/") ? root : root + "/"),
                    relay_file_status_of(path, 1, &followed) == 0
                else { continue }
                status = followed
                kind = Kind(followed.kind)
            }
            switch kind {
            case .folder:
                guard recursive else { continue }
                if Task.isCancelled {
                    stack.removeAll()
                    return nil
                }
                if let inner = listing(path, relative: relativePath) { stack.append(inner) }
            case .file:
                report.files += 1
                return FolderEntry(
                    name: entry.name, path: path, relativePath: relativePath, status: status, throughLink: entry.kind == .link,
                    listing: (top, stack[top].number))
            case .link, .other:
                continue
            }
        }
        return nil
    }

    /// The file with what one status tells, read once; nil (and counted as skipped) when it is
    /// gone or no longer a regular file, and nil when the walk already gave this file under
    /// another name.
    public mutating func scan(_ entry: inout FolderEntry) -> ScannedFile? {
        if let known = entry.scanned { return known }
        var status = relay_file_status()
        if let known = entry.status {
            status = known
        } else if statusInListing(entry, &status) != 0 {
            report.skip(entry.path, errno == ENOENT ? "gone since its folder was read" : String(cString: strerror(errno)))
            entry.scanned = .some(nil)
            return nil
        }
        entry.status = status
        guard status.kind == UInt32(S_IFREG) else {
            report.skip(entry.path, "no longer a file")
            entry.scanned = .some(nil)
            return nil
        }
        // A link followed is listed at its own path, as asked; any other name of a file met
        // before is the same file again (a hard link, or a file moved during the walk into a
        // folder not yet read).
        guard entry.throughLink || listed.insert(Key(device: status.device, inode: status.inode)).inserted else {
            entry.scanned = .some(nil)
            return nil
        }
        let file = FolderScan.scanned(status, path: entry.path, relative: entry.relativePath, name: entry.name)
        entry.scanned = file
        return file
    }

    /// The status of `entry` (not following a link), read relative to its folder while that is
    /// still open (the kernel then looks up one name, not the whole path), else by its path.
    private func statusInListing(_ entry: FolderEntry, _ status: inout relay_file_status) -> Int32 {
        let (depth, number) = entry.listing
        if stack.indices.contains(depth), stack[depth].number == number, let folder = stack[depth].folder {
            return relay_file_status_at(dirfd(folder.directory), entry.name, 0, &status)
        }
        return relay_file_status_of(entry.path, 0, &status)
    }

    /// A folder kept open while its files are walked; closed when the walk leaves it (or ends).
    private final class OpenFolder {
        let directory: OpaquePointer

        init(_ directory: OpaquePointer) { self.directory = directory }

        deinit { closedir(directory) }
    }

    private struct Key: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    private enum Kind {
        case file, folder, link, other

        init(_ mode: UInt32) {
            switch mode {
            case UInt32(S_IFREG): self = .file
            case UInt32(S_IFDIR): self = .folder
            case UInt32(S_IFLNK): self = .link
            default: self = .other
            }
        }
    }

    private struct Entry {
        let name: String
        let kind: Kind
        /// Read with the listing when its type was unknown, or eagerly (a link is not followed here).
        let status: relay_file_status?
    }

    /// A folder being walked: its visible entries, sorted, and the next one to look at.
    private struct Listing {
        let path: String
        let relative: String
        let entries: [Entry]
        /// Open while it is walked, for the first 64 levels (deeper ones are closed once read, so a
        /// deep tree cannot run out of descriptors).
        let folder: OpenFolder?
        /// Tells this listing from a later one at the same depth.
        let number: Int
        var next = 0
    }

    /// How many folders deep the walk keeps open.
    private static let openDepth = 64
    private var listings = 0

    /// The visible entries of `folder`, or nil when it cannot be read or was entered before.
    private mutating func listing(_ folder: String, relative: String) -> Listing? {
        guard let directory = opendir(folder) else {
            report.skip(folder, "cannot be read: \(String(cString: strerror(errno)))")
            return nil
        }
        let open = OpenFolder(directory)
        // Each status relative to the open folder: the kernel does not walk the whole path per file.
        let folderDescriptor = dirfd(directory)
        var own = relay_file_status()
        guard relay_file_status_at(folderDescriptor, ".", 0, &own) == 0 else {
            report.skip(folder, "cannot be read: \(String(cString: strerror(errno)))")
            return nil
        }
        guard visited.insert(Key(device: own.device, inode: own.inode)).inserted else {
            if !stack.isEmpty { report.skip(folder, "a folder already walked, reached again through a link") }
            return nil
        }
        report.folders += 1
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(validatingCString: $0) }
            }
            guard let name else {
                report.skip(folder + "/" + Self.shownName(entry), "the name is not UTF-8")
                continue
            }
            guard !name.hasPrefix(".") else { continue }
            var kind: Kind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_REG): kind = .file
            case Int32(DT_DIR): kind = .folder
            case Int32(DT_LNK): kind = .link
            case Int32(DT_UNKNOWN): kind = .other
            default: continue
            }
            // A name refused is passed over before the listing is sorted or anything else read.
            if kind == .file, let keep, !keep(name) {
                report.files += 1
                continue
            }
            var status: relay_file_status?
            // Some file systems give no type: the status says.
            if Int32(entry.pointee.d_type) == Int32(DT_UNKNOWN) || (statusEagerly && kind == .file) {
                var read = relay_file_status()
                guard relay_file_status_at(folderDescriptor, name, 0, &read) == 0 else {
                    report.skip(folder + "/" + name, errno == ENOENT ? "gone since its folder was read" : String(cString: strerror(errno)))
                    continue
                }
                let typeless = kind == .other
                kind = Kind(read.kind)
                if typeless, kind == .file, let keep, !keep(name) {
                    report.files += 1
                    continue
                }
                if kind == .file { status = read }
            }
            entries.append(Entry(name: name, kind: kind, status: status))
        }
        entries.sort { $0.name < $1.name }
        listings += 1
        return Listing(
            path: folder, relative: relative, entries: entries, folder: stack.count < Self.openDepth ? open : nil, number: listings)
    }

    /// A name that is not UTF-8, with each byte that is not printable ASCII as `\\xNN`.
    private static func shownName(_ entry: UnsafeMutablePointer<dirent>) -> String {
        withUnsafePointer(to: entry.pointee.d_name) {
            $0.withMemoryRebound(to: UInt8.self, capacity: Int(NAME_MAX) + 1) { bytes in
                var shown = ""
                var index = 0
                while bytes[index] != 0, index < Int(NAME_MAX) {
                    let byte = bytes[index]
                    shown += (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
                    index += 1
                }
                return shown
            }
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
