import Foundation
import RelayKit
internal import CSpawn

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A process Relay starts — an opener, a package build, a package host — and the one way Relay
/// waits for one (Docs/Reliability.md). It starts as the leader of a session of its own, so that
/// everything it starts, even a child that ignores SIGTERM, can be found and stopped with it;
/// optionally with its address space limited. Waiting never holds one of Swift's cooperative
/// threads, and cancelling the waiting task stops the process and its session: SIGTERM, then
/// SIGKILL after a grace period. Every child not yet reaped is known, so that Relay stops them
/// all when it ends or is stopped by a signal.
final class ChildProcess: @unchecked Sendable {
    /// What one of the child's standard streams is.
    enum Stream {
        /// A pipe this process reads or writes.
        case pipe
        /// `/dev/null`.
        case null
        /// Relay's own standard error (an opener's chatter is not the workflow's output).
        case standardError
    }

    /// How long a child stopped with SIGTERM has before it gets SIGKILL: 2 s, or
    /// `$RELAY_STOP_GRACE` seconds (0 to 60) for programs that need longer to tidy up.
    static let grace: TimeInterval = {
        let text = ProcessInfo.processInfo.environment["RELAY_STOP_GRACE"] ?? ""
        guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite, (0...60).contains(seconds) else { return 2 }
        return seconds
    }()

    let pid: pid_t
    /// The parent's ends of the streams that are pipes (else nil).
    let input: FileHandle?
    let output: FileHandle?
    let errors: FileHandle?
    /// The address-space limit in bytes, if any.
    let memoryLimit: UInt64?
    /// Whether the child is the first process of namespaces of its own, which end with it and
    /// everything in them (`relay_tree`); it passes signals on to the program.
    let isContained: Bool
    /// The control group the child and everything it starts are in, their memory held together to
    /// its limit (where there is one: `ControlGroup`).
    let controlGroup: ControlGroup?
    /// Whether the kernel killed a process of the tree because the tree used all the memory it
    /// may; known once the child has ended.
    private var treeRanOutOfMemory = false
    /// Where that first process writes how the program ended, when it is contained.
    private let statusDescriptor: Int32
    /// The program's process when the child is contained (found when first asked), else the child.
    private var program: pid_t?
    /// Whether `statusDescriptor` is still to be closed (a child never waited for closes it here).
    private var statusOpen = true
    private let lock = NSLock()
    private var ended: (signalled: Bool, status: Int32)?
    /// The most address space the host was seen to use (sampled by `sampleMemory`).
    private var largestMemory: UInt64 = 0

    /// Every child not yet reaped, so that Relay stops them all when it ends.
    nonisolated(unsafe) private static var live: [pid_t: ChildProcess] = [:]
    /// Whether this process ever started one: if not, nothing can be its orphan to stop.
    nonisolated(unsafe) private static var started = false
    private static let liveLock = NSLock()

    /// Starts `executable` (a path) with `arguments` and this process's environment with
    /// `environment` added (or only `environment`, when it does not `inheritsEnvironment`);
    /// `refusedCalls` are refused to it by the kernel; `niceness` lowers its scheduling priority (nice(2)), for work that
    /// must not crowd out the run; `ruleset` confines it (a ruleset the kernel will not apply is
    /// a failure to start, never an unconfined child). A `contained` child's whole process tree
    /// ends with it, however it detaches, with at most `processLimit` processes in it (where the
    /// kernel allows namespaces; `relay_tree`). A failure to start is an error with the system's
    /// reason. A contained child's processes may together use `treeMemory` bytes, where the system
    /// gives Relay control groups (`ControlGroup`).
    init(
        executable: String, arguments: [String], memoryLimit: UInt64? = nil, niceness: Int32 = 0,
        input inputStream: Stream = .pipe, output outputStream: Stream = .pipe, errors errorStream: Stream = .pipe,
        environment: [String: String] = [:], inheritsEnvironment: Bool = true, ruleset: HostSandbox.Ruleset? = nil,
        refusedCalls: HostSandbox.RefusedCalls = [], contained: Bool = false, processLimit: Int = Limits.processesPerTree,
        treeMemory: UInt64? = nil
    ) throws(ChildProcessError) {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        func descriptor(_ stream: Stream) -> Int32 {
            switch stream {
            case .pipe: -1
            case .null: null
            case .standardError: 2
            }
        }
        // exec reads each argument only up to a NUL: the program would be given other arguments
        // than the ones named (a script's `rm -- "$1"` given 'keep\0.tmp' would remove 'keep').
        if let cut = ([executable] + arguments + environment.map { $0.key + $0.value }).first(where: { $0.utf8.contains(0) }) {
            throw ChildProcessError("cannot start '\(executable)': an argument cannot hold a NUL character (\\0): '\(Excerpt.start(of: cut))'")
        }
        var child = relay_child()
        let streams = relay_streams(input: descriptor(inputStream), output: descriptor(outputStream), errors: descriptor(errorStream))
        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        // The whole environment, made before the fork (the child may not allocate), when it changes.
        var merged = inheritsEnvironment ? ProcessInfo.processInfo.environment : [:]
        for (key, value) in environment { merged[key] = value }
        let replaces = !environment.isEmpty || !inheritsEnvironment
        let environ = replaces ? merged.map { strdup("\($0.key)=\($0.value)") } : []
        defer { environ.forEach { free($0) } }
        let group = contained ? treeMemory.flatMap { ControlGroup.make(limit: $0) } : nil
        Self.liveLock.withLock { Self.started = true }
        let status = (argv + [nil]).withUnsafeBufferPointer { pointers in
            (environ + [nil]).withUnsafeBufferPointer { entries in
                relay_spawn(
                    executable, UnsafeMutablePointer(mutating: pointers.baseAddress),
                    replaces ? UnsafeMutablePointer(mutating: entries.baseAddress) : nil, memoryLimit ?? 0, niceness,
                    ruleset?.descriptor ?? -1, refusedCalls.rawValue, streams,
                    relay_tree(contained: contained ? 1 : 0, process_limit: UInt64(max(0, processLimit)), control_group: group?.procs ?? -1), &child)
            }
        }
        guard status == 0 else {
            group?.remove()
            throw ChildProcessError("cannot start '\(executable)': \(String(cString: strerror(status)))")
        }
        controlGroup = group
        pid = child.pid
        input = child.input >= 0 ? FileHandle(fileDescriptor: child.input, closeOnDealloc: true) : nil
        output = child.output >= 0 ? FileHandle(fileDescriptor: child.output, closeOnDealloc: true) : nil
        errors = child.errors >= 0 ? FileHandle(fileDescriptor: child.errors, closeOnDealloc: true) : nil
        self.memoryLimit = memoryLimit
        isContained = child.status >= 0
        statusDescriptor = child.status
        Self.liveLock.withLock { Self.live[pid] = self }
    }

    deinit {
        if isContained, statusOpen { close(statusDescriptor) }
    }

    /// The full path of `program` found on `$PATH` (or `program` itself when it has a `/`).
    static func find(_ program: String) -> String? { ProgramRun.find(program) }

    /// Waits for the child to end, on a thread of its own. Cancelling the waiting task stops the
    /// child and its session (SIGTERM, then SIGKILL after `grace`); the wait then still returns
    /// how it ended, and the caller checks for cancellation.
    func termination() async -> (signalled: Bool, status: Int32) {
        await withTaskCancellationHandler {
            let result = try? await BlockingWork.run { [self] _ in waitForExit() }
            return result ?? lock.withLock { ended } ?? (true, SIGKILL)
        } onCancel: {
            stop(grace: Self.grace)
        }
    }

    /// Whether the child has not been reaped yet.
    var isRunning: Bool { lock.withLock { ended == nil } }

    /// Waits for the host to end and reaps it; blocks, so only a thread of its own calls it.
    /// Returns whether a signal ended it, and the signal or the exit status.
    ///
    /// A pid is signalled only while it is surely this child's: the child is waited for without
    /// being reaped (`WNOWAIT`), so that as a zombie it keeps its pid while what it started is
    /// killed, and it is reaped under `lock`, which every signal to it holds too. A pid signalled
    /// after reaping could already belong to another process, or to a thread of this one.
    func waitForExit() -> (signalled: Bool, status: Int32) {
        var info = siginfo_t()
        var waited: Int32
        repeat { waited = waitid(P_PID, id_t(bitPattern: pid), &info, WEXITED | WNOWAIT) } while waited < 0 && errno == EINTR
        // The host is gone; what it started goes with it (a contained one's, by the kernel's hand).
        if waited == 0 && !isContained { Self.signalSession(of: pid, SIGKILL) }
        var status: Int32 = 0
        let result: (signalled: Bool, status: Int32) = lock.withLock {
            if let ended { return ended }
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            if isContained {
                // How the program ended, written before its namespace's first process ended; none
                // when that process was killed (a stop), which then is how it ended.
                var programStatus: Int32 = 0
                if read(statusDescriptor, &programStatus, MemoryLayout<Int32>.size) == MemoryLayout<Int32>.size { status = programStatus }
                close(statusDescriptor)
                statusOpen = false
            }
            let result = (status & 0x7F) != 0 ? (true, status & 0x7F) : (false, (status >> 8) & 0xFF)
            if let controlGroup {
                treeRanOutOfMemory = controlGroup.ranOutOfMemory
                controlGroup.remove()
            }
            ended = result
            return result
        }
        Self.liveLock.withLock { _ = Self.live.removeValue(forKey: pid) }
        return result
    }

    /// Sends `signal` to the child and its session, unless it has been reaped (its pid may be
    /// another's by now); the lock keeps it from being reaped meanwhile.
    private func signal(_ signal: Int32) {
        lock.withLock {
            guard ended == nil else { return }
            // A contained child passes a signal on to every process in its namespace, and ends
            // them all when it is killed.
            if isContained { _ = kill(pid, signal) } else { Self.signalSession(of: pid, signal) }
        }
    }

    /// Stops the child and everything it started: SIGTERM to the whole session, then SIGKILL to
    /// whatever is left after `grace` seconds.
    func stop(grace: TimeInterval = ChildProcess.grace) {
        guard isRunning else { return }
        signal(SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) { [weak self] in
            self?.signal(SIGKILL)
        }
    }

    /// Stops every child still running and what it started: SIGTERM now, SIGKILL after `grace`.
    static func terminateAll() {
        let children = liveLock.withLock { Array(live.values) }
        for child in children { child.stop() }
    }

    /// Kills every child still running and what it started, at once (Relay is ending); then
    /// whatever detached from them (a new session, a double fork), which this process adopted
    /// (`ChildProcesses.adoptOrphans`), and what those started in turn.
    static func stopAll() {
        let (children, everStarted) = liveLock.withLock { (Array(live.values), started) }
        for child in children { child.signal(SIGKILL) }
        // A process that started none has no descendants to adopt: no look through /proc.
        guard everStarted else { return }
        #if os(Linux)
            // Each kill orphans the killed process's children to this process: a few rounds take
            // a whole tree, however it forks.
            for _ in 0..<50 {
                let adopted = childrenOfThisProcess()
                if adopted.isEmpty { break }
                for pid in adopted { _ = kill(pid, SIGKILL) }
                var status: Int32 = 0
                for _ in adopted { _ = waitpid(-1, &status, WNOHANG) }
                usleep(2_000)
            }
        #endif
    }

    /// The processes whose parent is this process (the second field after the name in
    /// /proc/PID/stat), zombies (state `Z`, the first) left out.
    private static func childrenOfThisProcess() -> [pid_t] {
        let me = getpid()
        return processes { fields in fields[0] != "Z" && pid_t(fields[1]) == me }
    }

    /// Notes how much address space the host uses now (from /proc), keeping the largest seen.
    func sampleMemory() {
        let measured: pid_t
        if isContained {
            // The first process of the namespaces holds a copy of Relay's address space; the
            // program is its child.
            guard let found = lock.withLock({ program }) ?? Self.processes(where: { $0[0] != "Z" && pid_t($0[1]) == pid }).first else { return }
            lock.withLock { program = found }
            measured = found
        } else {
            measured = pid
        }
        guard let status = try? String(contentsOfFile: "/proc/\(measured)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmPeak:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) })
        else { return }
        lock.withLock { largestMemory = max(largestMemory, kilobytes * 1024) }
    }

    /// Whether the kernel ended a process of the child's tree because the tree used all the memory
    /// its control group allows (known once the child has been waited for).
    var ranOutOfTreeMemory: Bool { lock.withLock { treeRanOutOfMemory } }

    /// Whether the host ran out of memory under its limit: it said it could not allocate (Swift's
    /// "failed to allocate", Python's `MemoryError`, C++'s `bad_alloc`…), or was last seen using
    /// most of its limit.
    func ranOutOfMemory(standardError: String) -> Bool {
        if ranOutOfTreeMemory { return true }
        guard let memoryLimit else { return false }
        let said = ["failed to allocate", "Could not allocate", "Cannot allocate memory", "MemoryError", "bad_alloc", "out of memory"]
            .contains { standardError.contains($0) }
        return said || lock.withLock { largestMemory } >= memoryLimit / 4 * 3
    }

    /// Sends `signal` to the host `leader` and every process of its session. On Linux the
    /// session's members are found in /proc; elsewhere the leader's process group is signalled.
    static func signalSession(of leader: pid_t, _ signal: Int32) {
        _ = kill(leader, signal)
        #if os(Linux)
            for member in sessionMembers(leader) where member != leader { _ = kill(member, signal) }
        #else
            _ = killpg(leader, signal)
        #endif
    }

    /// The processes whose session is `session` (the fourth field after the name in /proc/PID/stat).
    private static func sessionMembers(_ session: pid_t) -> [pid_t] {
        processes { fields in pid_t(fields[3]) == session }
    }

    /// The bytes of the disk taken by files in `folder` that a child of Relay's, or a process it
    /// started, holds open after they were removed: they take the disk until closed, though no
    /// listing of the folder shows them. Linux only (elsewhere 0).
    static func bytesHeldRemoved(in folder: String) -> UInt64 {
        #if os(Linux)
            let roots = liveLock.withLock { Set(live.keys) }
            guard !roots.isEmpty else { return 0 }
            // Every process whose parent is one of them, however deep: from each process's own list
            // of children (its threads' `children` files), not a look at every process there is.
            var tree: [pid_t] = Array(roots), index = 0
            while index < tree.count, tree.count < 100_000 {
                let tasks = "/proc/\(tree[index])/task"
                for thread in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
                    guard let listed = try? String(contentsOfFile: "\(tasks)/\(thread)/children", encoding: .utf8) else { continue }
                    tree += listed.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                }
                index += 1
            }
            var seen = Set<String>(), bytes: UInt64 = 0
            for pid in tree {
                let descriptors = "/proc/\(pid)/fd"
                for entry in (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? [] {
                    guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + entry),
                        target.hasPrefix(folder + "/"), target.hasSuffix(" (deleted)")
                    else { continue }
                    var status = stat()
                    guard stat(descriptors + "/" + entry, &status) == 0, seen.insert("\(status.st_dev):\(status.st_ino)").inserted else { continue }
                    bytes &+= UInt64(max(0, status.st_blocks)) &* 512
                }
            }
            return bytes
        #else
            return 0
        #endif
    }

    /// Each process and its fields after the name in /proc/PID/stat.
    private static func processFields() -> [(pid_t, [Substring])] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            return (pid, stat[stat.index(after: close)...].split(separator: " "))
        }
    }

    /// The processes whose fields after the name in /proc/PID/stat (state, parent, group,
    /// session …) `matches` takes.
    private static func processes(where matches: ([Substring]) -> Bool) -> [pid_t] {
        processFields().compactMap { pid, fields in fields.count > 3 && matches(fields) ? pid : nil }
    }

    /// A memory limit from `$RELAY_PACKAGE_MEMORY` (bytes, or with K, M, G: `512M`), else half
    /// of the machine's memory; `0` or `none` sets no limit.
    static var configuredMemoryLimit: UInt64? { memoryLimit(named: "RELAY_PACKAGE_MEMORY") }

    /// The memory a program a step starts and everything it starts may use together, from
    /// `$RELAY_PROGRAM_MEMORY` as `configuredMemoryLimit` reads its variable.
    static var configuredProgramMemory: UInt64? { memoryLimit(named: "RELAY_PROGRAM_MEMORY") }

    private static func memoryLimit(named variable: String) -> UInt64? {
        switch ProcessInfo.processInfo.environment[variable].flatMap(ByteCount.setting) {
        case .bounded(let bytes): bytes
        case .unbounded: nil
        case nil: ProcessInfo.processInfo.physicalMemory / 2
        }
    }
}

/// The processes this process started, as a whole.
public enum ChildProcesses {
    /// Makes this process the one that inherits every process its children leave behind
    /// (Linux's child subreaper): a program or host that detaches — a new session, a double fork —
    /// is still Relay's, and ends with it (`stopAll`). Call it first in `main`.
    public static func adoptOrphans() {
        _ = relay_adopt_orphans()
    }

    /// Marks this process as not dumpable: other processes of the same user cannot read its
    /// memory or its /proc entries (its environment, where a token may be), and it leaves no core
    /// dump. Call it first in `main`, before any secret is read.
    public static func sealMemory() {
        _ = relay_seal_memory()
    }

    /// How long a child stopped with SIGTERM has before SIGKILL, in seconds.
    public static var grace: TimeInterval { ChildProcess.grace }

    /// Kills every child still running (openers, package builds and hosts) and everything each
    /// started, at once: Relay is ending, and no process it started may outlive it.
    public static func stopAll() { ChildProcess.stopAll() }

    /// Stops every child still running and everything each started: SIGTERM now, SIGKILL to what
    /// is left after the grace period.
    public static func terminateAll() { ChildProcess.terminateAll() }
}

/// A child process that could not be started.
struct ChildProcessError: Error, Sendable, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
