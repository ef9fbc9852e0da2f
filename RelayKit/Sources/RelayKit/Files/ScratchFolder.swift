import Foundation

/// The folder for files a run makes from no input file (a PDF made from text): one per run, under
/// the system temporary folder, made at first use with mode 0700 and free to that run only
/// (Docs/Security.md, "What is free"). Scratch folders older than a day are cleared when a new one
/// is made (Docs/Language.md, "Changing files, and undo").
public final class ScratchFolder: @unchecked Sendable {
    /// The folder the run folders are made in.
    public let root: URL
    /// This run's own folder, inside `root`: it exists once a file was made in it, or `make` was called.
    public let folder: URL
    private let lock = NSLock()
    private var made = false

    /// `root` is by default `$TMPDIR/relay-scratch-UID`: each user's own, so that no other user
    /// can make it, or swap a run's folder inside it for a link (Docs/Security.md, "What is free").
    public init(root: URL = FileManager.default.temporaryDirectory.appendingPathComponent("relay-scratch-\(getuid())")) {
        self.root = root
        folder = root.appendingPathComponent("run-\(Int(Date().timeIntervalSince1970))-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
    }

    /// Makes this run's folder if it does not exist yet: a package's host, confined to it, can
    /// only be given a folder that exists.
    public func make() throws(FileOperationError) {
        lock.lock()
        defer { lock.unlock() }
        _ = try existingFolder()
    }

    /// Whether `text` (something the run printed) names a path in this run's folder.
    public func isMentioned(in text: String) -> Bool {
        text.contains(folder.path)
    }

    /// Removes this run's folder and what is in it, when it was made: at the end of a run that
    /// printed no path in it (Docs/Security.md, "What is free").
    public func remove() {
        guard lock.withLock({ made }) else { return }
        try? FileManager.default.removeItem(at: folder)
    }

    /// A path in the scratch folder for a new file called `name` (made unique with a number).
    /// The name often comes from elsewhere (a URL's last part, a package's answer), so it is made
    /// one plain file name first: the file is always in the folder (see `fileName(from:)`).
    public func path(forNewFile name: String) throws(FileOperationError) -> String {
        let name = Self.fileName(from: name)
        lock.lock()
        defer { lock.unlock() }
        let folder = try existingFolder()
        let base = (name as NSString).deletingPathExtension
        let fileExtension = (name as NSString).pathExtension
        var candidate = folder.appendingPathComponent(name).path
        var number = 2
        while FileManager.default.fileExists(atPath: candidate) {
            let numbered = fileExtension.isEmpty ? "\(base) \(number)" : "\(base) \(number).\(fileExtension)"
            candidate = folder.appendingPathComponent(numbered).path
            number += 1
        }
        return candidate
    }

    /// `name` as one file name in a folder: slashes and control characters become `_`, dots
    /// that start it go (so no `..` and no hidden file; nothing left before the extension is
    /// `file`), and it is cut to 200 bytes, keeping its extension.
    static func fileName(from name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            scalars.append(scalar == "/" || scalar.value < 0x20 || scalar.value == 0x7F ? "_" : scalar)
        }
        let plain = String(scalars) as NSString
        let fileExtension = plain.pathExtension.utf8.count <= 20 ? plain.pathExtension : ""
        let suffix = fileExtension.isEmpty ? "" : "." + fileExtension
        var base = (fileExtension.isEmpty ? String(plain) : plain.deletingPathExtension).drop { $0 == "." }
        while base.utf8.count > 200 - suffix.utf8.count { base = base.dropLast() }
        return (base.isEmpty ? "file" : String(base)) + suffix
    }

    private func existingFolder() throws(FileOperationError) -> URL {
        if made { return folder }
        clearOldFolders()
        do {
            try FileManager.default.createDirectory(at: root.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw FileOperationError("cannot make the scratch folder '\(folder.path)': \(error.localizedDescription)")
        }
        // The root and the run's folder are this user's alone, made 0700 and checked to be so:
        // one another user made, or one that is a link, could lead the run's files elsewhere.
        for path in [root.path, folder.path] {
            if mkdir(path, 0o700) != 0, errno != EEXIST || path == folder.path {
                throw FileOperationError("cannot make the scratch folder '\(path)': \(String(cString: strerror(errno)))")
            }
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
                throw FileOperationError(
                    "the scratch folder '\(path)' is not this user's alone (a link, another user's, or open to others); remove it, or set TMPDIR to a folder of your own")
            }
        }
        made = true
        return folder
    }

    /// The roots whose old folders this process has begun to clear.
    nonisolated(unsafe) private static var clearedRoots: Set<String> = []
    private static let clearedLock = NSLock()

    /// Removes the folders of runs that ended without removing theirs (a killed run) a day ago or
    /// more: once a process, on a thread of its own, since the root may hold thousands of them and
    /// the run goes on meanwhile.
    private func clearOldFolders() {
        let root = root.path
        let first = Self.clearedLock.withLock { Self.clearedRoots.insert(root).inserted }
        guard first else { return }
        BlockingWork.onThreadOfItsOwn { Self.clearOldFolders(in: root) }
    }

    static func clearOldFolders(in root: String) {
        let dayAgo = Int(Date().timeIntervalSince1970) - 86_400
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        for name in names where name.hasPrefix("run-") {
            let path = root + "/" + name
            // The time from the folder's own status: Foundation's attributes look up its owner and group too.
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { continue }
            #if canImport(Darwin)
                let modified = Int(status.st_mtimespec.tv_sec)
            #else
                let modified = Int(status.st_mtim.tv_sec)
            #endif
            if modified < dayAgo { try? FileManager.default.removeItem(atPath: path) }
        }
    }
}
