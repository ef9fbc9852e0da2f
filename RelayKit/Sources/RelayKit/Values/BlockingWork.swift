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
                WorkerThreads.shared.start {
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

/// The threads `BlockingWork` runs on: a job goes to a thread that is idle, else to a new one, so
/// no job ever waits for another to end (two jobs may feed each other, as a pipe's two ends do).
/// A thread idle for ten seconds ends. Starting a thread costs tens of microseconds: a loop of
/// 10,000 renames reuses one instead.
final class WorkerThreads: @unchecked Sendable {
    static let shared = WorkerThreads()

    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    /// Threads waiting for a job. Each job queued is promised to one of them.
    private var idle = 0

    func start(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        let promised = jobs.count <= idle
        if promised { condition.signal() }
        condition.unlock()
        guard !promised else { return }
        let thread = Thread { [self] in work() }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// A thread's life: its first job (the one it was started for, or an earlier one still
    /// queued), then each job it is given, until none comes for ten seconds.
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
            idle += 1
            let deadline = Date(timeIntervalSinceNow: 10)
            var timedOut = false
            while jobs.isEmpty, !timedOut { timedOut = !condition.wait(until: deadline) }
            idle -= 1
            if jobs.isEmpty { break }
        }
        condition.unlock()
    }
}
