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
                BlockingWork.onThreadOfItsOwn {
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
    /// Runs `job` at once on a thread of its own: one left idle by an earlier job, or one started
    /// for it (8 MB of stack, as the main thread has). Never queued behind another job, so a job
    /// that blocks (a read from a terminal, a regular expression waiting for its stop) holds up
    /// nothing else. A loop of 10,000 renames started a thread for each: a fifth of its time.
    static func onThreadOfItsOwn(_ job: @escaping @Sendable () -> Void) {
        IdleThreads.shared.run(job)
    }
}

/// Threads kept a few seconds after their job, for the next one (`BlockingWork.onThreadOfItsOwn`).
private final class IdleThreads: @unchecked Sendable {
    static let shared = IdleThreads()

    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    /// Threads waiting for a job, woken or not.
    private var waiting = 0
    /// How long a thread waits for another job before it ends.
    private let keptSeconds = 5.0

    func run(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        // Each job queued has a waiting thread of its own, or a new one.
        let startThread = waiting < jobs.count
        if !startThread { condition.signal() }
        condition.unlock()
        if startThread {
            let thread = Thread { [self] in work() }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    private func work() {
        condition.lock()
        while true {
            if !jobs.isEmpty {
                let job = jobs.removeFirst()
                condition.unlock()
                job()
                condition.lock()
                continue
            }
            waiting += 1
            let woken = condition.wait(until: Date(timeIntervalSinceNow: keptSeconds))
            waiting -= 1
            if !woken, jobs.isEmpty { break }
        }
        condition.unlock()
    }
}
