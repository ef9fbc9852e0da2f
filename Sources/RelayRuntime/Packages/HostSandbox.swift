import Foundation
import RelayKit
import RelayEngine
internal import CSpawn

/// The kernel's confinement of package hosts (Docs/Security.md, "What the kernel confines"). On
/// Linux a host starts under Landlock: it may read the system's programs and libraries, its own
/// package's folder and built host; change its data folder; and beyond that touch only what the
/// run may touch without asking (`AccessGate.confinement`). TCP connections need a `net` grant
/// (Landlock ABI 4 and later). Elsewhere, or on a kernel without Landlock, hosts run with the
/// user's rights and Relay says so.
enum HostSandbox {
    /// A Landlock ruleset made in Relay and applied in the host before it starts.
    final class Ruleset: @unchecked Sendable {
        let descriptor: Int32
        init(descriptor: Int32) { self.descriptor = descriptor }
        deinit { close(descriptor) }
    }

    /// The Landlock ABI version of this kernel; 0 when it has none (or it is not Linux).
    static let version: Int32 = relay_landlock_version()

    /// Why hosts run unconfined or less confined than this page says, to show once; nil when
    /// the kernel confines them fully.
    static var warning: String? {
        #if os(Linux)
            if version == 0 {
                return "this kernel has no Landlock, so package hosts run with your rights: a package can touch whatever you can"
            }
            if version < 4 {
                return "this kernel's Landlock (version \(version)) cannot confine network connections, so package hosts may connect anywhere"
            }
            return nil
        #else
            return "package hosts are not confined on this system: a package can touch whatever you can"
        #endif
    }

    /// What the kernel gives Relay to confine programs and hosts, in a line for `relay --version`:
    /// Landlock's version and what it covers, the seccomp filter, and whether a process tree is
    /// contained (user and PID namespaces: `relay_tree`) — or, for each, that it is missing.
    static var summary: String {
        #if os(Linux)
            let landlock =
                switch version {
                case 0: "no Landlock (programs and hosts touch what you can)"
                case 1..<4: "Landlock \(version) (files; network connections not confined)"
                case 4, 5: "Landlock \(version) (files, TCP)"
                default: "Landlock \(version) (files, TCP, signals, abstract sockets)"
                }
            let trees = namespacesAvailable
                ? "process trees contained (user and PID namespaces)"
                : "process trees not contained (no user namespaces here: a detached process is ended by a search, not by the kernel)"
            return "sandbox: \(landlock), seccomp, \(trees), \(ControlGroup.summary)"
        #else
            return "sandbox: none on this system (programs and hosts touch what you can)"
        #endif
    }

    /// Whether this system lets Relay make user and PID namespaces for a program (as far as
    /// /proc says; a child that cannot have them starts without, and `relay_contains_trees` then
    /// says so).
    static var namespacesAvailable: Bool {
        func number(_ path: String) -> Int? {
            (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        guard relay_contains_trees() != 0, number("/proc/sys/user/max_user_namespaces").map({ $0 > 0 }) ?? false else { return false }
        return number("/proc/sys/kernel/unprivileged_userns_clone").map { $0 != 0 || getuid() == 0 } ?? true
    }

    /// Folders every host may read: the system's programs, libraries and settings, what the
    /// kernel shows of processes and devices, and the Swift toolchain the host was built with.
    static let systemFolders: [String] = {
        var folders = ["/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/proc", "/sys"]
        if let swift = ChildProcess.find("swift"), let resolved = realpath(swift, nil) {
            // …/usr/bin/swift: the toolchain's usr folder holds the Swift runtime libraries.
            folders.append(URL(fileURLWithPath: String(cString: resolved)).deletingLastPathComponent().deletingLastPathComponent().path)
            free(resolved)
        }
        return folders
    }()

    /// What the host of a package may touch whatever the run was granted: its package folder and
    /// its built host to read, its data folder to change.
    static func ownPlaces(packagePath: String, executable: URL, dataFolder: String) -> Confinement {
        Confinement(
            read: Set((systemFolders + [packagePath, executable.deletingLastPathComponent().path]).map(ResolvedPath.resolve)),
            write: [ResolvedPath.resolve(dataFolder)])
    }

    /// System calls the kernel refuses a host (with EACCES) whatever Landlock allows: a seccomp
    /// filter installed in the host before it starts, on Linux.
    struct RefusedCalls: OptionSet, Sendable {
        let rawValue: UInt32
        /// Every new socket, of every family: what Landlock cannot tell apart (UDP, pathname
        /// UNIX sockets such as ssh-agent's or Docker's) is closed with the rest.
        static let sockets = RefusedCalls(rawValue: UInt32(RELAY_FILTER_SOCKETS))
        /// io_uring, whose operations would not pass through the filter.
        static let ioUring = RefusedCalls(rawValue: UInt32(RELAY_FILTER_IO_URING))
        /// The kernel's keyrings (`keyctl`, `add_key`, `request_key`).
        static let keyring = RefusedCalls(rawValue: UInt32(RELAY_FILTER_KEYRING))
    }

    /// What a host confined to `confinement` is refused besides Landlock's rules: io_uring and
    /// the keyrings always, and every new socket unless the run has a `net` grant.
    static func refusedCalls(for confinement: Confinement) -> RefusedCalls {
        #if os(Linux)
            return confinement.network ? [.ioUring, .keyring] : [.sockets, .ioUring, .keyring]
        #else
            return []
        #endif
    }

    /// The variables of Relay's environment a host gets: what a program needs to run and to
    /// read and write text (the search path, the home folder, the language and time zone), and
    /// the library folders the run was given. Nothing else crosses, so tokens and agent sockets in
    /// Relay's environment (`*_TOKEN`, `AWS_*`, `SSH_AUTH_SOCK`) stay out of a package's reach.
    static let passedVariables = ["PATH", "HOME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "RELAY_PHOTOS", "RELAY_NOTES"]

    /// A host's whole environment: `passedVariables` from Relay's, and where its package keeps its data.
    static func environment(dataFolder: String, from relay: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var environment = relay.filter { passedVariables.contains($0.key) }
        environment["PATH"] = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        environment[PackageDataFolder.environmentKey] = dataFolder
        return environment
    }

    /// A ruleset allowing what `confinement` says, and reading and writing `/dev/null` and
    /// reading the random devices; nil where the kernel has no Landlock. A path that does not
    /// exist is left out (nothing may be made there).
    static func ruleset(for confinement: Confinement, of what: String = "the package's host") throws(HostError) -> Ruleset? {
        guard version > 0 else { return nil }
        let made = relay_landlock_ruleset(version, confinement.network ? 0 : 1)
        guard made >= 0 else { throw HostError("cannot confine \(what): \(String(cString: strerror(-made)))") }
        let ruleset = Ruleset(descriptor: made)
        let simplified = confinement.simplified
        let rules: [(String, relay_rule_kind)] =
            simplified.read.sorted().map { ($0, RELAY_RULE_READ) } + simplified.write.sorted().map { ($0, RELAY_RULE_WRITE) }
            + [("/dev/null", RELAY_RULE_DEVICE), ("/dev/urandom", RELAY_RULE_READ), ("/dev/random", RELAY_RULE_READ), ("/dev/zero", RELAY_RULE_READ)]
        for (path, kind) in rules {
            let failure = relay_landlock_allow(ruleset.descriptor, version, path, kind)
            // A path that does not exist, or that this user cannot reach, grants nothing.
            guard failure != 0, failure != ENOENT, failure != EACCES, failure != ENOTDIR, failure != ELOOP else { continue }
            throw HostError("cannot confine \(what) to '\(path)': \(String(cString: strerror(failure)))")
        }
        return ruleset
    }
}
