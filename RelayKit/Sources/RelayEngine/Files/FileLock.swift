import Foundation
import RelayKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Exclusive access to a file between reading it and writing it back, across processes: two runs
/// rotating the same image at once take turns instead of losing one rotation (Docs/Reliability.md).
///
/// A file's lock cannot live on the file itself: an atomic write gives the path a new inode, and
/// a process waiting on the old one would proceed together with one that locked the new one. So
/// the lock is an advisory `flock` on one of a fixed set of lock files, chosen by a hash of the
/// file's real path, in a folder of the user's own (`$XDG_RUNTIME_DIR/relay/locks`, else
/// `$TMPDIR/relay-UID/locks`). Unrelated files that share a lock file only take turns.
/// Waiting never blocks a thread: the lock is tried, and between tries the task sleeps, so a
/// step's `timeout:` or a signal ends the wait.
public enum FileLock {
    /// How many lock files there are.
    static let stripes = 256

    /// Runs `body` while holding `path`'s lock. Gives up with an error after `patience`.
    public static func exclusive<T: Sendable>(
        _ path: String, patience: Duration = .seconds(60), _ body: () async throws -> T
    ) async throws -> T {
        let lockPath = try lockFile(for: path)
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw FileOperationError("cannot open the lock file '\(lockPath)': \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let deadline = ContinuousClock.now + patience
        var pause = Duration.milliseconds(1)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw FileOperationError("cannot lock '\(path)': \(String(cString: strerror(errno)))")
            }
            guard ContinuousClock.now < deadline else {
                throw FileOperationError("'\(path)' is being changed by another process (another relay run?); gave up waiting after \(patience.components.seconds) s")
            }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(50))
        }
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }

    /// The lock file for `path`, its folder made when needed.
    static func lockFile(for path: String) throws(FileOperationError) -> String {
        let folder = lockFolder
        if mkdir(folder, 0o700) != 0, errno != EEXIST {
            throw FileOperationError("cannot make the lock folder '\(folder)': \(String(cString: strerror(errno)))")
        }
        // A folder someone else made (or a link planted in a shared temporary folder) is refused.
        var info = stat()
        guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() else {
            throw FileOperationError("the lock folder '\(folder)' is not a folder of this user's")
        }
        var key = path
        if let resolved = realpath(path, nil) {
            key = String(cString: resolved)
            free(resolved)
        }
        return folder + "/" + String(StableHash.of(key) % UInt64(stripes))
    }

    private static var lockFolder: String {
        let environment = ProcessInfo.processInfo.environment
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"), FileManager.default.isWritableFile(atPath: runtime) {
            let relay = runtime + "/relay"
            _ = mkdir(relay, 0o700)
            return relay + "/locks"
        }
        let temporary = (environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp")
        let own = (temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary) + "/relay-\(getuid())"
        _ = mkdir(own, 0o700)
        return own + "/locks"
    }
}
