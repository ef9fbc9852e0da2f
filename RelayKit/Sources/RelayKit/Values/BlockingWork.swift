import Foundation

/// A flag that work running outside Swift's concurrency checks to learn it should stop.
public final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    public init() {}

    public var isRaised: Bool {
        lock.lock()
        defer { lock.unlock() }
        return raised
    }

    public func raise() {
        lock.lock()
        raised = true
        lock.unlock()
    }
}

/// Runs work that cannot suspend (a long regular-expression match) on a thread of its own, so
/// that it never holds one of Swift's few cooperative threads (two, on two cores): timers and
/// other steps go on meanwhile, and a step's `timeout:` or a signal cancels the task, which
/// raises the work's stop flag.
public enum BlockingWork {
    /// Runs `work`; cancelling the task raises its stop flag and calls `onCancel` (for work that
    /// has a stop of its own, such as a libcurl transfer).
    public static func run<T: Sendable>(
        onCancel: @escaping @Sendable () -> Void = {}, _ work: @escaping @Sendable (StopFlag) throws -> T
    ) async throws -> T {
        let flag = StopFlag()
        // A thread has no task: the run's declarations go along by hand.
        let declarations = Declarations.current
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                BlockingWork.onNewThread {
                    do {
                        continuation.resume(returning: try declarations.using { try work(flag) })
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        } onCancel: {
            flag.raise()
            onCancel()
        }
    }
}

extension BlockingWork {
    /// Runs `job` on a thread started for it (8 MB of stack, as the main thread has).
    static func onNewThread(_ job: @escaping @Sendable () -> Void) {
        let thread = Thread { job() }
        thread.stackSize = 8 << 20
        thread.start()
    }
}
