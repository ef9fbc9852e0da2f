import Foundation
internal import CSpawn

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A package host's process: started as the leader of a session of its own, with its address
/// space limited, so that everything it starts — even a child that ignores SIGTERM — can be
/// found and stopped with it, and a leak ends in a clear error instead of the machine swapping.
final class HostProcess: @unchecked Sendable {
    let pid: pid_t
    /// The host's standard input (to write to) and standard output and error (to read).
    let input: FileHandle
    let output: FileHandle
    let errors: FileHandle
    /// The address-space limit in bytes, if any.
    let memoryLimit: UInt64?
    private let lock = NSLock()
    private var ended: (signalled: Bool, status: Int32)?
    /// The most address space the host was seen to use (sampled by `sampleMemory`).
    private var largestMemory: UInt64 = 0

    /// The processes of every host not yet stopped, so that Relay stops them all when it ends.
    nonisolated(unsafe) private static var live: [pid_t: HostProcess] = [:]
    private static let liveLock = NSLock()

    init(executable: String, arguments: [String], memoryLimit: UInt64?) throws(HostError) {
        var child = relay_child()
        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let status = (argv + [nil]).withUnsafeBufferPointer { pointers in
            relay_spawn(executable, UnsafeMutablePointer(mutating: pointers.baseAddress), memoryLimit ?? 0, &child)
        }
        guard status == 0 else { throw HostError("cannot start '\(executable)': \(String(cString: strerror(status)))") }
        pid = child.pid
        input = FileHandle(fileDescriptor: child.input, closeOnDealloc: true)
        output = FileHandle(fileDescriptor: child.output, closeOnDealloc: true)
        errors = FileHandle(fileDescriptor: child.errors, closeOnDealloc: true)
        self.memoryLimit = memoryLimit
        Self.liveLock.withLock { Self.live[pid] = self }
    }

    /// Whether the host has not been reaped yet.
    var isRunning: Bool { lock.withLock { ended == nil } }

    /// Waits for the host to end and reaps it; blocks, so only a thread of its own calls it.
    /// Returns whether a signal ended it, and the signal or the exit status.
    func waitForExit() -> (signalled: Bool, status: Int32) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // The host is gone; what it started goes with it.
        Self.signalSession(of: pid, SIGKILL)
        let result = (status & 0x7F) != 0 ? (true, status & 0x7F) : (false, (status >> 8) & 0xFF)
        lock.withLock { ended = result }
        Self.liveLock.withLock { _ = Self.live.removeValue(forKey: pid) }
        return result
    }

    /// Stops the host and everything it started: SIGTERM to the whole session, then SIGKILL to
    /// whatever is left after `grace` seconds.
    func stop(grace: TimeInterval = 1) {
        guard isRunning else { return }
        Self.signalSession(of: pid, SIGTERM)
        let pid = pid
        DispatchQueue.global().asyncAfter(deadline: .now() + grace) { [weak self] in
            if self?.isRunning ?? false { Self.signalSession(of: pid, SIGKILL) }
        }
    }

    /// Kills every host still running and what it started, at once (Relay is ending).
    static func stopAll() {
        let hosts = liveLock.withLock { Array(live.keys) }
        for pid in hosts { signalSession(of: pid, SIGKILL) }
    }

    /// Notes how much address space the host uses now (from /proc), keeping the largest seen.
    func sampleMemory() {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmPeak:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) })
        else { return }
        lock.withLock { largestMemory = max(largestMemory, kilobytes * 1024) }
    }

    /// Whether the host ran out of memory under its limit: it said it could not allocate (Swift's
    /// "failed to allocate", Python's `MemoryError`, C++'s `bad_alloc`…), or was last seen using
    /// most of its limit.
    func ranOutOfMemory(standardError: String) -> Bool {
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

    /// The processes whose session is `session` (the fifth field after the name in /proc/PID/stat).
    private static func sessionMembers(_ session: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 3, pid_t(fields[3]) == session else { return nil }
            return pid
        }
    }

    /// A memory limit from `$RELAY_PACKAGE_MEMORY` (bytes, or with K, M, G: `512M`), else half
    /// of the machine's memory; `0` or `none` sets no limit.
    static var configuredMemoryLimit: UInt64? {
        if let text = ProcessInfo.processInfo.environment["RELAY_PACKAGE_MEMORY"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            if text == "0" || text.lowercased() == "none" { return nil }
            let units: [Character: UInt64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
            if let unit = text.last.flatMap({ units[Character($0.uppercased())] }), let number = UInt64(text.dropLast()) {
                return number.multipliedReportingOverflow(by: unit).overflow ? nil : number * unit
            }
            if let bytes = UInt64(text) { return bytes }
        }
        return ProcessInfo.processInfo.physicalMemory / 2
    }
}

/// The package hosts of this process, as a whole.
public enum PackageHosts {
    /// Stops every host still running and everything each started: Relay is ending, and no
    /// process it started may outlive it.
    public static func stopAll() { HostProcess.stopAll() }
}
