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
    /// The most the run may keep in its folder, in bytes of the disk (nil: no bound), and in
    /// files and folders (Docs/Reliability.md, "The scratch folder").
    public let quota: UInt64?
    public let quotaEntries: Int
    private let lock = NSLock()
    private var made = false

    /// `root` is by default `$TMPDIR/relay-scratch-UID`: each user's own, so that no other user
    /// can make it, or swap a run's folder inside it for a link (Docs/Security.md, "What is free").
    /// `quota` is the most the run may keep in it: by default 4 GiB, and no more than half the
    /// space free where it is when the folder is made.
    public init(
        root: URL = FileManager.default.temporaryDirectory.appendingPathComponent("relay-scratch-\(getuid())"),
        quota: ByteCount.Setting? = nil, quotaEntries: Int = Limits.scratchEntries
    ) {
        self.root = root
        folder = root.appendingPathComponent("run-\(Int(Date().timeIntervalSince1970))-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        switch quota {
        case .bounded(let bytes): self.quota = bytes
        case .unbounded: self.quota = nil
        case nil:
            // Half of what is free, so that a run never fills the disk (or, on a tmpfs, the memory).
            var space = statvfs()
            let parent = FileManager.default.fileExists(atPath: root.path) ? root.path : root.deletingLastPathComponent().path
            let free = statvfs(parent, &space) == 0 ? UInt64(space.f_bavail) &* UInt64(space.f_frsize) : UInt64.max
            self.quota = min(4 << 30, free / 2)
        }
        self.quotaEntries = quotaEntries
    }

    /// What the run keeps in its folder.
    public struct Usage: Sendable, Equatable {
        /// Bytes of the disk its files take (a sparse file counts what it uses, not its length).
        public var bytes: UInt64 = 0
        /// Files, folders and links in it.
        public var entries = 0
        /// Whether its folders nest more deeply than `Limits.scratchDepth`.
        public var tooDeep = false
    }

    /// What is over the quota in the run's folder now: nil when it is within it (or not made).
    /// Links are not followed; the count stops once it is past the quota.
    /// `held` tells what files removed from it but still open take (`ChildProcess.bytesHeldRemoved`),
    /// asked only once the folder is there.
    public func overQuota(held: () -> UInt64 = { 0 }) -> String? {
        guard lock.withLock({ made }) else { return nil }
        var usage = Usage()
        usage.bytes = held()
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        measure(descriptor, depth: 0, into: &usage)
        let shown = quota.map { ByteCount.text(Int64(clamping: $0), binary: true) } ?? "no bound"
        // 100,000: the digits in threes.
        let digits = Array(String(quotaEntries))
        let entries = String(digits.enumerated().flatMap { $0.offset > 0 && (digits.count - $0.offset) % 3 == 0 ? [",", $0.element] : [$0.element] })
        let bound = "a run may keep at most \(shown) and \(entries) files there; set RELAY_SCRATCH_QUOTA to allow more"
        if let quota, usage.bytes > quota {
            return "the run's scratch folder holds more than \(ByteCount.text(Int64(clamping: quota), binary: true)) (\(bound))"
        }
        if usage.entries > quotaEntries { return "the run's scratch folder holds more than \(entries) files and folders (\(bound))" }
        if usage.tooDeep { return "the run's scratch folder has folders nested more than \(Limits.scratchDepth) deep" }
        return nil
    }

    /// Adds what is in the folder open as `descriptor` (which it closes) to `usage`, stopping
    /// once it is over the quota.
    private func measure(_ descriptor: Int32, depth: Int, into usage: inout Usage) {
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            return
        }
        defer { closedir(directory) }
        let folder = dirfd(directory)
        while let entry = readdir(directory) {
            // The name as the bytes it is (one that is not UTF-8 is counted too).
            var status = stat()
            let (counted, name) = withUnsafePointer(to: &entry.pointee.d_name) { bytes in
                bytes.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: bytes.pointee)) { name in
                    let dots = strcmp(name, ".") == 0 || strcmp(name, "..") == 0
                    return (!dots && fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0, dots ? nil : strdup(name))
                }
            }
            defer { free(name) }
            guard counted, let name else { continue }
            usage.entries += 1
            usage.bytes &+= UInt64(max(0, status.st_blocks)) &* 512
            if usage.entries > quotaEntries || usage.bytes > (quota ?? .max) { return }
            guard (status.st_mode & S_IFMT) == S_IFDIR else { continue }
            guard depth < Limits.scratchDepth else {
                usage.tooDeep = true
                return
            }
            let inner = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if inner >= 0 { measure(inner, depth: depth + 1, into: &usage) }
            if usage.tooDeep { return }
        }
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

    /// Whether this run's folder has been made.
    public var isMade: Bool { lock.withLock { made } }

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
