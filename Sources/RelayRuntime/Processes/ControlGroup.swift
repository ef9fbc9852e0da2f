import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A control group of Relay's own for one program or package host and everything it starts
/// (Linux): their memory together is held to one bound, however many processes they make, and
/// what ran out of it is known afterwards. Made inside the control group Relay itself is in, where
/// that one lets Relay make groups with memory control in them (cgroup v2 with the memory
/// controller given to its children, as in a delegated systemd scope; or cgroup v1's memory
/// hierarchy where Relay may write, as root). Elsewhere there is none, and each process is bounded
/// on its own (`RLIMIT_AS`); `relay --version` says which.
final class ControlGroup: @unchecked Sendable {
    /// Which kind of hierarchy, and the names of its files.
    struct Hierarchy: Sendable {
        /// The folder of Relay's own group, in which its groups are made.
        let folder: String
        let limitFile: String
        /// Memory and swap counted together (v1), or swap allowed besides memory (v2): set so
        /// that a tree cannot get past the bound by swapping.
        let swapFile: String
        let swapCountsMemory: Bool
        /// Where the kernel counts the processes it killed for want of memory, and the key.
        let eventsFile: String
        /// Whether `cgroup.kill` ends every process in a group (v2, Linux 5.14 and later).
        let killsAll: Bool
        let version: Int
    }

    /// The place Relay makes its groups in, found once; nil where it cannot.
    static let hierarchy: Hierarchy? = {
        #if os(Linux)
            guard let found = findHierarchy() else { return nil }
            // One group made and removed tells whether Relay may: a folder it cannot write to,
            // a read-only mount or a container's filter all end here.
            let probe = found.folder + "/relay-\(getpid())-probe"
            guard mkdir(probe, 0o755) == 0 else { return nil }
            let hasLimit = access(probe + "/" + found.limitFile, W_OK) == 0
            rmdir(probe)
            sweep(found.folder)
            return hasLimit ? found : nil
        #else
            return nil
        #endif
    }()

    /// What `relay --version` says about memory.
    static var summary: String {
        guard let hierarchy else { return "memory bounded per process (no control group of Relay's own here)" }
        return "memory bounded per process tree (cgroup v\(hierarchy.version))"
    }

    let path: String
    /// `cgroup.procs` of the group, open for writing: the new process writes itself into it first.
    let procs: Int32
    let limit: UInt64
    private let hierarchy: Hierarchy
    nonisolated(unsafe) private static var made = 0
    private static let lock = NSLock()

    /// A new group whose processes together may use `limit` bytes, or nil where there is none.
    static func make(limit: UInt64) -> ControlGroup? {
        guard let hierarchy else { return nil }
        let number = lock.withLock {
            made += 1
            return made
        }
        let path = hierarchy.folder + "/relay-\(getpid())-\(number)"
        guard mkdir(path, 0o755) == 0 else { return nil }
        guard put("\(limit)", to: path + "/" + hierarchy.limitFile) else {
            rmdir(path)
            return nil
        }
        // Without swap accounting the file is not there, and memory is all there is to bound.
        _ = put(hierarchy.swapCountsMemory ? "\(limit)" : "0", to: path + "/" + hierarchy.swapFile)
        let procs = open(path + "/cgroup.procs", O_WRONLY | O_CLOEXEC)
        guard procs >= 0 else {
            rmdir(path)
            return nil
        }
        return ControlGroup(path: path, procs: procs, limit: limit, hierarchy: hierarchy)
    }

    private init(path: String, procs: Int32, limit: UInt64, hierarchy: Hierarchy) {
        self.path = path
        self.procs = procs
        self.limit = limit
        self.hierarchy = hierarchy
    }

    deinit { if procs >= 0 { close(procs) } }

    /// Whether the kernel killed a process of the group because the group used all its memory.
    var ranOutOfMemory: Bool {
        guard let events = try? String(contentsOfFile: path + "/" + hierarchy.eventsFile, encoding: .utf8) else { return false }
        for line in events.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, fields[0] == "oom_kill", let count = Int(fields[1]) { return count > 0 }
        }
        return false
    }

    /// Ends whatever is left in the group and removes it. Blocks briefly (a thread of its own):
    /// a killed process leaves the group only once the kernel has ended it.
    func remove() {
        for attempt in 0..<200 {
            if rmdir(path) == 0 || errno == ENOENT { return }
            guard errno == EBUSY else { return }
            let killed = hierarchy.killsAll && ControlGroup.put("1", to: path + "/cgroup.kill")
            if !killed, let members = try? String(contentsOfFile: path + "/cgroup.procs", encoding: .utf8) {
                for member in members.split(separator: "\n").compactMap({ pid_t($0) }) { _ = kill(member, SIGKILL) }
            }
            usleep(attempt < 20 ? 1_000 : 10_000)
        }
    }

    /// Writes `text` to the control file `path`; whether the kernel took it.
    @discardableResult
    private static func put(_ text: String, to path: String) -> Bool {
        let file = open(path, O_WRONLY | O_CLOEXEC)
        guard file >= 0 else { return false }
        defer { close(file) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) } == bytes.count
    }

    /// Removes the groups a Relay that no longer runs left behind (one that was killed).
    private static func sweep(_ folder: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries where entry.hasPrefix("relay-") {
            let parts = entry.split(separator: "-")
            guard parts.count == 3, let owner = pid_t(parts[1]), kill(owner, 0) != 0, errno == ESRCH else { continue }
            rmdir(folder + "/" + entry)
        }
    }

    #if os(Linux)
        /// Relay's own group in a hierarchy with memory control: v2 where its group hands the memory
        /// controller to its children (or can be made to), else v1's memory hierarchy.
        private static func findHierarchy() -> Hierarchy? {
            guard let memberships = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
                let mounts = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8)
            else { return nil }
            // "ID:CONTROLLERS:PATH" — v2's line is "0::PATH".
            var unified: String?, memory: String?
            for line in memberships.split(separator: "\n") {
                let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
                guard fields.count == 3 else { continue }
                if fields[0] == "0", fields[1].isEmpty { unified = String(fields[2]) }
                if fields[1].split(separator: ",").contains("memory") { memory = String(fields[2]) }
            }
            // mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS … - TYPE SOURCE SUPEROPTIONS".
            func folder(of group: String, type: String, option: String?) -> String? {
                for line in mounts.split(separator: "\n") {
                    let halves = line.components(separatedBy: " - ")
                    guard halves.count == 2 else { continue }
                    let before = halves[0].split(separator: " "), after = halves[1].split(separator: " ")
                    guard before.count >= 5, after.count >= 3, after[0] == type else { continue }
                    if let option, !after[2].split(separator: ",").contains(Substring(option)) { continue }
                    let root = String(before[3]), mountPoint = String(before[4])
                    guard !mountPoint.contains("\\") else { continue }
                    guard group == root || group.hasPrefix(root == "/" ? "/" : root + "/") else { continue }
                    let inside = root == "/" ? group : String(group.dropFirst(root.count))
                    return mountPoint + (inside == "/" ? "" : inside)
                }
                return nil
            }
            if let unified, let folder = folder(of: unified, type: "cgroup2", option: nil), givesMemory(folder) {
                return Hierarchy(
                    folder: folder, limitFile: "memory.max", swapFile: "memory.swap.max", swapCountsMemory: false,
                    eventsFile: "memory.events", killsAll: access(folder + "/cgroup.kill", F_OK) == 0, version: 2)
            }
            if let memory, let folder = folder(of: memory, type: "cgroup", option: "memory"), access(folder, W_OK) == 0 {
                return Hierarchy(
                    folder: folder, limitFile: "memory.limit_in_bytes", swapFile: "memory.memsw.limit_in_bytes", swapCountsMemory: true,
                    eventsFile: "memory.oom_control", killsAll: false, version: 1)
            }
            return nil
        }

        /// Whether groups made in the v2 group `folder` get the memory controller: it is in its
        /// `cgroup.subtree_control`, or Relay may put it there.
        private static func givesMemory(_ folder: String) -> Bool {
            func controllers(_ file: String) -> [Substring] {
                ((try? String(contentsOfFile: folder + "/" + file, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace)
            }
            guard access(folder, W_OK) == 0, controllers("cgroup.controllers").contains("memory") else { return false }
            return controllers("cgroup.subtree_control").contains("memory") || put("+memory", to: folder + "/cgroup.subtree_control")
        }
    #endif
}
