import Foundation
import RelayKit
import RelayLanguage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Watches a folder for files that settled — written and closed, moved in, or removed — with
/// inotify on Linux, and elsewhere by looking at the folder each second (a file settled when it
/// is the same two looks in a row), on a thread of its own that a stop wakes (Docs/Automations.md,
/// "Watching a folder"). A folder that goes away is said so, and watched again once it is back.
final class FolderWatch: @unchecked Sendable {
    /// A file that settled, and how.
    struct Event: Sendable {
        var path: String
        var kind: Trigger.WatchEvent
    }

    private let folder: String
    private let glob: String?
    private let events: Set<Trigger.WatchEvent>
    private let deliver: @Sendable (Event) -> Void
    private let note: @Sendable (String) -> Void
    private let lock = NSLock()
    private var stopped = false
    /// The pipe whose write end wakes the thread when the watch stops: the read end is the
    /// thread's (closed when it ends), the write end `stop`'s (closed there).
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1
    /// Whether it looks at the folder each second rather than being told by the system.
    private let polling: Bool
    /// How often it looks, when it does.
    static let look: Int32 = 1_000

    /// Whether this system tells of changes in a folder (inotify); elsewhere a watch looks.
    static var systemTells: Bool {
        #if os(Linux)
            true
        #else
            false
        #endif
    }

    /// Watches `folder` for the `events` of the files `glob` takes (every file without one).
    init(
        folder: String, glob: String?, events: Set<Trigger.WatchEvent>, polling: Bool = !FolderWatch.systemTells,
        deliver: @escaping @Sendable (Event) -> Void, note: @escaping @Sendable (String) -> Void
    ) {
        self.polling = polling
        self.folder = folder
        self.glob = glob
        self.events = events
        self.deliver = deliver
        self.note = note
    }

    /// Watches what a workflow's `watch:` trigger names.
    convenience init(_ watch: Trigger.Watch, deliver: @escaping @Sendable (Event) -> Void, note: @escaping @Sendable (String) -> Void) {
        self.init(folder: watch.path, glob: watch.glob, events: watch.events, deliver: deliver, note: note)
    }

    /// Starts watching; false (after saying why) when it cannot.
    func start() -> Bool {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            note("cannot watch \(folder): \(String(cString: strerror(errno)))")
            return false
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        let reading = wakeRead
        let thread = Thread { [self] in
            if polling {
                lookLoop()
            } else {
                #if os(Linux)
                    watchLoop()
                #endif
            }
            close(reading)
        }
        thread.name = "relay.watch"
        thread.start()
        return true
    }

    func stop() {
        let descriptor: Int32 = lock.withLock {
            stopped = true
            defer { wakeWrite = -1 }
            return wakeWrite
        }
        if descriptor >= 0 {
            var byte: UInt8 = 1
            _ = write(descriptor, &byte, 1)
            close(descriptor)
        }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Why the folder is not watched now (gone, or a link elsewhere in its place); nil while it is.
    var trouble: String? { lock.withLock { currentTrouble } }
    private var currentTrouble: String?
    /// The state last said (`watching`, `missing`, `elsewhere`): each is said once, as it begins.
    /// The watch's thread alone reads and writes it.
    private var said: String?

    /// Says `text` when the watch comes to `state`, and keeps it as what is wrong.
    private func say(_ state: String, _ text: String) {
        if said != state { note(text) }
        said = state
        lock.withLock { currentTrouble = text }
    }

    /// The folder is watched (again): said so when it was not.
    private func sayWatching() {
        if said != nil, said != "watching" { note("the watched folder \(folder) is back, and watched again") }
        said = "watching"
        lock.withLock { currentTrouble = nil }
    }

    /// Says the folder leads elsewhere when it does not lead to `leadsTo` now; whether it does.
    private func ledElsewhere(from leadsTo: String) -> Bool {
        let now = ResolvedPath.resolve(folder)
        guard now != leadsTo else { return false }
        say("elsewhere", "\(folder) leads elsewhere now (\(now)), and is not watched until it is the folder it was")
        return true
    }

    #if os(Linux)
        /// Watches, and when the folder is gone, waits for it to come back (looking each second):
        /// the same folder, not a link put in its place that leads elsewhere.
        private func watchLoop() {
            let leadsTo = ResolvedPath.resolve(folder)
            while !isStopped {
                if ledElsewhere(from: leadsTo) {
                    if waitForWake(seconds: 1) { return }
                    continue
                }
                let inotify = inotify_init1(Int32(IN_CLOEXEC))
                guard inotify >= 0 else {
                    note("cannot watch \(folder): \(String(cString: strerror(errno)))")
                    return
                }
                let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
                if inotify_add_watch(inotify, folder, mask) < 0 {
                    close(inotify)
                    say("missing", "the watched folder \(folder) is not there; it is watched again when it is back")
                    if waitForWake(seconds: 1) { return }
                    continue
                }
                sayWatching()
                let gone = read(from: inotify)
                close(inotify)
                if gone, !isStopped { say("missing", "the watched folder \(folder) is gone; it is watched again when it is back") }
            }
        }

        /// Reads events until the watch stops (false) or the folder goes (true).
        private func read(from inotify: Int32) -> Bool {
            // Files created and not yet closed: their close is "created", not "changed".
            var created = Set<String>()
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while !isStopped {
                var waiting = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
                guard poll(&waiting, 2, -1) >= 0 else {
                    if errno == EINTR { continue }
                    return false
                }
                if waiting[1].revents != 0 { return false }
                let count = buffer.withUnsafeMutableBytes { Glibc.read(inotify, $0.baseAddress, $0.count) }
                guard count > 0 else { continue }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let (mask, length, name): (UInt32, Int, String) = buffer.withUnsafeBytes { bytes in
                        let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        let start = offset + MemoryLayout<inotify_event>.size
                        let end = min(start + Int(event.len), count)
                        let raw = bytes[start..<end].prefix { $0 != 0 }
                        // A name that is not UTF-8 would name another file once decoded: none.
                        return (event.mask, Int(event.len), String(validating: raw, as: UTF8.self) ?? "")
                    }
                    offset += MemoryLayout<inotify_event>.size + length
                    if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { return true }
                    if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        note("too many changes in \(folder) at once: some were not seen")
                        continue
                    }
                    guard !name.isEmpty, mask & UInt32(IN_ISDIR) == 0, matches(name) else { continue }
                    let path = folder + "/" + name
                    if mask & UInt32(IN_CREATE) != 0 {
                        created.insert(name)
                    } else if mask & UInt32(IN_CLOSE_WRITE) != 0 {
                        offer(Event(path: path, kind: created.remove(name) != nil ? .created : .changed))
                    } else if mask & UInt32(IN_MOVED_TO) != 0 {
                        offer(Event(path: path, kind: .created))
                    } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
                        created.remove(name)
                        offer(Event(path: path, kind: .removed))
                    }
                }
            }
            return false
        }

    #endif

    /// Waits `seconds`, or until the watch stops: whether it stopped.
    private func waitForWake(seconds: Int32) -> Bool { waitForWake(milliseconds: seconds * 1000) }

    private func waitForWake(milliseconds: Int32) -> Bool {
        var waiting = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        _ = poll(&waiting, 1, milliseconds)
        return isStopped
    }

    /// What tells a file changed between two looks.
    struct Stamp: Equatable, Sendable {
        var size: Int64
        var modified: Int64
        var node: UInt64

        /// The stamp of the file at `path` now (a link followed); nil when there is none.
        static func of(_ path: String) -> Stamp? {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            #if canImport(Darwin)
                let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
            #else
                let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            #endif
            return Stamp(size: Int64(info.st_size), modified: modified, node: UInt64(info.st_ino))
        }
    }

    /// Looks at the folder each second until the watch stops. A file new or changed since the
    /// last look is offered once it is the same at the next (written to its end); one gone is
    /// offered as removed. The files there when it starts, or when the folder comes back, are
    /// not offered.
    private func lookLoop() {
        let leadsTo = ResolvedPath.resolve(folder)
        var known: [String: Stamp]? = nil
        var pending: [String: (stamp: Stamp, kind: Trigger.WatchEvent)] = [:]
        while !isStopped {
            guard !ledElsewhere(from: leadsTo), let now = look() else {
                if ResolvedPath.resolve(folder) == leadsTo {
                    say("missing", "the watched folder \(folder) is not there; it is watched again when it is back")
                }
                known = nil
                pending.removeAll()
                if waitForWake(milliseconds: Self.look) { return }
                continue
            }
            sayWatching()
            guard let before = known else {
                known = now
                if waitForWake(milliseconds: Self.look) { return }
                continue
            }
            var next = before
            for (name, stamp) in now {
                if let waiting = pending[name] {
                    if waiting.stamp == stamp {
                        pending[name] = nil
                        next[name] = stamp
                        offer(Event(path: folder + "/" + name, kind: waiting.kind))
                    } else {
                        pending[name]?.stamp = stamp
                    }
                } else if let old = before[name] {
                    if old != stamp { pending[name] = (stamp, .changed) }
                } else {
                    pending[name] = (stamp, .created)
                }
            }
            for name in before.keys where now[name] == nil {
                next[name] = nil
                offer(Event(path: folder + "/" + name, kind: .removed))
            }
            for name in pending.keys where now[name] == nil { pending[name] = nil }
            known = next
            if waitForWake(milliseconds: Self.look) { return }
        }
    }

    /// How many times it has looked at the folder.
    var looks: Int { lock.withLock { looked } }
    private var looked = 0

    /// The folder's files the watch takes, by name, with their stamps; nil when it cannot be read.
    private func look() -> [String: Stamp]? {
        defer { lock.withLock { looked += 1 } }
        guard let directory = opendir(folder) else { return nil }
        defer { closedir(directory) }
        var found: [String: Stamp] = [:]
        while let entry = readdir(directory) {
            var raw = entry.pointee.d_name
            // A name that is not UTF-8 would name another file once decoded: none.
            let name = withUnsafeBytes(of: &raw) { bytes in String(validating: bytes.prefix { $0 != 0 }, as: UTF8.self) } ?? ""
            guard !name.isEmpty, name != ".", name != "..", matches(name) else { continue }
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { continue }
            #if canImport(Darwin)
                let modified = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
            #else
                let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            #endif
            found[name] = Stamp(size: Int64(info.st_size), modified: modified, node: UInt64(info.st_ino))
        }
        return found
    }

    private func offer(_ event: Event) {
        guard events.contains(event.kind) else { return }
        // Only a plain file is a run's input: a link may lead anywhere (the run reads its input
        // freely), and a pipe or a device would hold the run at its first read.
        if event.kind != .removed {
            var info = stat()
            // Gone already (an editor's temporary file, renamed): nothing to say.
            guard lstat(event.path, &info) == 0 else { return }
            guard info.st_mode & S_IFMT == S_IFREG else {
                note("\(TerminalText.visible(event.path)) is not a plain file (a link, a pipe or a device), and starts nothing")
                return
            }
        }
        deliver(event)
    }

    /// Whether a file's name matches the glob (every name without one). Hidden files and the
    /// temporary names editors and downloads use are not files that settled.
    private func matches(_ name: String) -> Bool {
        if name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".part") || name.hasSuffix(".crdownload") { return false }
        guard let glob else { return true }
        return fnmatch(glob, name, 0) == 0
    }
}
