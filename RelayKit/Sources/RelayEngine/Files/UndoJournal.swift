import Foundation
import RelayKit

/// The record of one run's file changes, kept so `relay undo` can revert them exactly.
///
/// A journal is a folder (`runs/ID/` under the journal root) holding `run.json` (the workflow and
/// when it started), `changes.jsonl` (one JSON object a change, in order, flushed as written) and
/// the saved bytes (`saved/N`) of every file changed or deleted. The folder is made at the first
/// change, so runs that change nothing leave nothing.
public final class UndoJournal: @unchecked Sendable {
    /// One recorded change.
    public enum Change: Sendable, Equatable {
        /// A file's bytes were replaced; `saved` holds the old bytes.
        case modified(path: String, saved: String)
        /// A new file was made.
        case created(path: String)
        /// A file was renamed or moved.
        case moved(from: String, to: String)
        /// A file was deleted into the journal; `saved` holds it.
        case deleted(path: String, saved: String)
        /// An intent registered how to undo what it did: perform `action` with `arguments`
        /// (wire-encoded values), from the package at `package` (a path) or a built-in or linked one.
        /// `packageHash` is the hash of the package's sources when it registered the undo: `relay
        /// undo` runs only that code (Docs/Security.md, "Packages").
        /// `title` names the change for people: "Undo Set Favorite", after the action that made it.
        case intent(package: String?, packageHash: String?, action: String, arguments: ValueDictionary, title: String? = nil)
    }

    public let folder: URL
    private let workflow: String
    private let lock = NSLock()
    private var count = 0
    private var started = false
    /// `changes.jsonl`, open for appending once the first change is recorded.
    private var changes: Int32 = -1
    /// The files this run wrote from another file (an image written to `to:`, a copy), by path,
    /// with that source file's path.
    private var writtenFrom: [String: String] = [:]

    /// A journal for a new run of `workflow` under `root`.
    /// How a path is shown to a person: with the run's secrets masked (`RunSecrets.redact`). A
    /// change whose path holds a secret keeps the path it needs and, beside it, the path as shown
    /// (`shown-path`, `shown-from`, `shown-to`), which `relay undo --list` prints.
    public var shown: (@Sendable (String) -> String)? {
        get { lock.withLock { shownPath } }
        set { lock.withLock { shownPath = newValue } }
    }
    private var shownPath: (@Sendable (String) -> String)?

    public init(root: URL, workflow: String) {
        folder = root.appendingPathComponent("runs/\(Self.stamp(Date()))-\(getpid())-\(UUID().uuidString.prefix(6))")
        self.workflow = workflow
    }

    /// `yyyyMMdd-HHmmss-SSS` in UTC, so folder names sort by time. Made with `gmtime_r`:
    /// a `DateFormatter` would load ICU, which costs every run milliseconds.
    static func stamp(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let milliseconds = Int((seconds - seconds.rounded(.down)) * 1000)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(parts.tm_year + 1900, 4) + pad(parts.tm_mon + 1, 2) + pad(parts.tm_mday, 2) + "-" + pad(parts.tm_hour, 2)
            + pad(parts.tm_min, 2) + pad(parts.tm_sec, 2) + "-" + pad(Int32(milliseconds), 3)
    }

    /// Whether any change has been recorded.
    public var hasChanges: Bool {
        lock.lock()
        defer { lock.unlock() }
        return started
    }

    /// Keeps the current bytes of `path`, returning their name in the journal. Every change Relay
    /// makes replaces a file by renaming a new one over it, so the old file's bytes never change:
    /// a hard link keeps them at no cost. Where a link cannot be made (another file system), the
    /// bytes are copied, streaming; `stop` ends that copy.
    /// `withoutLinks`: `path` is the resolved path the gate allowed, and a symbolic link there now
    /// (put in its place since) is refused rather than followed.
    func save(_ path: String, withoutLinks: Bool = false, stop: StopFlag? = nil) throws(FileOperationError) -> String {
        let name = try reserveSavedName()
        let target = folder.appendingPathComponent(name).path
        // A hard link does not follow a symbolic link at `path`: it links the link itself.
        if link(path, target) == 0 {
            var info = stat()
            if withoutLinks, lstat(target, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
                unlink(target)
                throw FileOperationError("'\(path)' changed after it was allowed (a symbolic link is in its place now), so nothing was changed")
            }
            return name
        }
        do {
            try AtomicFile.copy(path, to: target, readingWithoutLinks: withoutLinks, stop: stop)
        } catch {
            throw FileOperationError("cannot keep a copy of '\(path)' for undo: \(error.message)")
        }
        return name
    }

    /// A new name for saved bytes (`saved/N`), starting the journal if needed.
    func reserveSavedName() throws(FileOperationError) -> String {
        lock.lock()
        defer { lock.unlock() }
        try start()
        count += 1
        return "saved/\(count)"
    }

    /// Moves `path` into the journal as `name` (a rename; across file systems a copy, then the
    /// original removed). A symbolic link is kept as a link.
    func moveIn(_ path: String, as name: String, withoutLinks: Bool = false, stop: StopFlag? = nil) throws(FileOperationError) {
        let target = folder.appendingPathComponent(name).path
        if withoutLinks {
            // From the folder the gate allowed, opened with no link followed, into the journal's own.
            if try AtomicFile.renameWithoutLinks(path, to: target, destinationFollowsLinks: true) { return }
        } else if rename(path, target) == 0 {
            return
        }
        // A folder is kept whole by a rename only: the journal must be on its file system.
        var info = stat()
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw FileOperationError(
                "cannot delete the folder '\(Excerpt.start(of: path))' into Relay's trash: it is on another file system than the trash (\(folder.path)); delete its files instead")
        }
        try AtomicFile.moveAcrossFileSystems(path, to: target, stop: stop)
    }

    /// Claims `path` as the output made from the file `source`. A run never silently replaces a
    /// file it wrote from one file with the output of another (a list of images sent to one
    /// path): that is an error naming both. Writing a file over itself (an edit in place) is fine.
    func claim(_ path: String, from source: String) throws(FileOperationError) {
        lock.lock()
        defer { lock.unlock() }
        if let earlier = writtenFrom[path], earlier != source, source != path {
            throw FileOperationError(
                "'\(path)' was already written in this run from '\(earlier)'; writing '\(source)' there would replace it. "
                    + "To write each file into a folder, end the path with '/'")
        }
        writtenFrom[path] = source
    }

    /// Records how to undo an intent's work: `relay undo` performs `action` with `arguments`,
    /// from the package at `package` while its sources still hash to `packageHash`.
    public func recordUndo(
        package: String?, packageHash: String?, action: String, arguments: ValueDictionary, title: String? = nil
    ) throws(FileOperationError) {
        var encoded = ValueDictionary()
        for (name, value) in arguments { encoded[name] = WireValue.encode(value) }
        try record(.intent(package: package, packageHash: packageHash, action: action, arguments: encoded, title: title))
    }

    /// Appends `change` to the journal before the change is made: in the kernel's hands when this
    /// returns (a killed run loses nothing), on disk within 50 ms (DurableWrites).
    func record(_ change: Change) throws(FileOperationError) {
        lock.lock()
        defer { lock.unlock() }
        try start()
        var value = change.value
        if let shownPath, case .dictionary(var entry) = value {
            for key in ["path", "from", "to"] {
                guard case .text(let path)? = entry[key] else { continue }
                let shown = shownPath(path)
                if shown != path { entry["shown-" + key] = .text(shown) }
            }
            value = .dictionary(entry)
        }
        let line = JSONWriter.string(for: value, pretty: false) + "\n"
        // Joined as text: `appendingPathComponent` asks the file system whether it names a folder.
        let path = folder.path + "/changes.jsonl"
        if changes < 0 {
            changes = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
            guard changes >= 0 else {
                throw FileOperationError("cannot write the undo journal at '\(path)': \(String(cString: strerror(errno)))")
            }
        }
        var bytes = Array(line.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(changes, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                throw FileOperationError("cannot write the undo journal: \(String(cString: strerror(errno)))")
            }
            bytes = bytes.dropFirst(written)
        }
        DurableWrites.later(path)
    }

    deinit {
        if changes >= 0 { close(changes) }
    }

    private func start() throws(FileOperationError) {
        guard !started else { return }
        do {
            try PrivateState.makeFolder(folder.appendingPathComponent("saved").path)
        } catch {
            throw FileOperationError("cannot create the undo journal '\(folder.path)': \(error.localizedDescription)")
        }
        var run = ValueDictionary()
        run["workflow"] = .text(workflow)
        run["started"] = .date(Date())
        // Private, as the rest of the state (Docs/Security.md, "Private state").
        try AtomicFile.write(
            Data(JSONWriter.string(for: .dictionary(run), pretty: true).utf8), to: folder.appendingPathComponent("run.json").path, privateMode: true)
        try AtomicFile.write(Data(), to: folder.appendingPathComponent("changes.jsonl").path, privateMode: true)
        started = true
    }
}

extension UndoJournal.Change {
    public var value: Value {
        switch self {
        case .modified(let path, let saved): .dictionary(["change": "modified", "path": .text(path), "saved": .text(saved)])
        case .created(let path): .dictionary(["change": "created", "path": .text(path)])
        case .moved(let from, let to): .dictionary(["change": "moved", "from": .text(from), "to": .text(to)])
        case .deleted(let path, let saved): .dictionary(["change": "deleted", "path": .text(path), "saved": .text(saved)])
        case .intent(let package, let packageHash, let action, let arguments, let title):
            .dictionary([
                "change": "intent", "package": package.map { .text($0) } ?? .nothing,
                "package-hash": packageHash.map { .text($0) } ?? .nothing, "action": .text(action), "arguments": .dictionary(arguments),
                "title": title.map { .text($0) } ?? .nothing,
            ])
        }
    }

    public init?(_ value: Value) {
        guard case .dictionary(let entry) = value, let kind = entry["change"]?.textValue else { return nil }
        let text = { (key: String) in entry[key]?.textValue ?? "" }
        switch kind {
        case "modified": self = .modified(path: text("path"), saved: text("saved"))
        case "created": self = .created(path: text("path"))
        case "moved": self = .moved(from: text("from"), to: text("to"))
        case "deleted": self = .deleted(path: text("path"), saved: text("saved"))
        case "intent":
            guard case .dictionary(let arguments)? = entry["arguments"] else { return nil }
            let package = entry["package"].flatMap { $0.isNothing ? nil : $0.textValue }
            let hash = entry["package-hash"].flatMap { $0.isNothing ? nil : $0.textValue }
            let title = entry["title"].flatMap { $0.isNothing ? nil : $0.textValue }
            self = .intent(package: package, packageHash: hash, action: text("action"), arguments: arguments, title: title)
        default: return nil
        }
    }
}
