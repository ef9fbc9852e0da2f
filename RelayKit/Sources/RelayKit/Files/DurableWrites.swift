import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Flushes to disk, in groups, what a power cut may lose without leaving a file half-written:
/// the folder entries a rename changed and the undo journal's new lines. A file's new bytes are
/// still flushed before they are renamed into place (AtomicFile), so a crash, a `kill -9` or a
/// power cut leaves every file old or new; what waits here is only the rename's own record and
/// the journal's, which the kernel keeps from the moment of the call (a killed process loses
/// nothing) and this writes to disk within 50 ms, and at exit (Docs/Reliability.md, "Your files").
/// One flush for a batch of 10,000 renames rather than three each (Docs/Performance.md).
public enum DurableWrites {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var pending: Set<String> = []
    nonisolated(unsafe) private static var scheduled = false
    nonisolated(unsafe) private static var exitHook = false

    /// How long a change may wait for its flush.
    static let delayMilliseconds = 50

    /// Notes that the entries of `folder`, or the file at `path`, changed: flushed within 50 ms.
    public static func later(_ path: String) {
        lock.lock()
        pending.insert(path.isEmpty ? "." : path)
        let schedule = !scheduled
        scheduled = true
        if !exitHook {
            exitHook = true
            atexit { DurableWrites.flush() }
        }
        lock.unlock()
        // On a thread of its own, never one of Swift's cooperative threads nor one of Dispatch's
        // (which Swift's tasks run on here: a slow disk's flushes must not hold them).
        if schedule {
            BlockingWork.onThreadOfItsOwn {
                usleep(useconds_t(delayMilliseconds) * 1000)
                flush()
            }
        }
    }

    /// Flushes everything noted so far, now (the end of a run or an undo; a test).
    public static func flush() {
        lock.lock()
        let paths = pending
        pending.removeAll()
        scheduled = false
        lock.unlock()
        for path in paths {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            _ = fsync(descriptor)
            close(descriptor)
        }
    }
}
