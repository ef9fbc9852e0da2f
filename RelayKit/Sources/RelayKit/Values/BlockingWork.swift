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

/// The threads `BlockingWork` runs on: a job is handed to a thread that is idle, else to a new
/// one, so no job ever waits for another to end (two jobs may feed each other, as a pipe's two
/// ends do). Each idle thread waits on a semaphore of its own and is handed its next job directly,
/// so no wake-up can go to the wrong thread or be lost. A thread idle for ten seconds ends.
/// Starting a thread costs tens of microseconds: a loop of 10,000 renames reuses one instead.
final class WorkerThreads: @unchecked Sendable {
    static let shared = WorkerThreads()

    private final class Worker: @unchecked Sendable {
        let wake = DispatchSemaphore(value: 0)
        /// Set, under the pool's lock, before `wake` is signalled.
        var job: (@Sendable () -> Void)?
    }

    private let lock = NSLock()
    /// Threads waiting for a job, the most recently idle last.
    private var idle: [Worker] = []

    func start(_ job: @escaping @Sendable () -> Void) {
        lock.lock()
        if let worker = idle.popLast() {
            worker.job = job
            lock.unlock()
            worker.wake.signal()
            return
        }
        lock.unlock()
        let worker = Worker()
        worker.job = job
        let thread = Thread { [self] in work(worker) }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// A thread's life: its job, then each job it is handed, until none comes for ten seconds.
    private func work(_ worker: Worker) {
        while true {
            let job = lock.withLock {
                defer { worker.job = nil }
                return worker.job
            }
            job?()
            lock.withLock { idle.append(worker) }
            if worker.wake.wait(timeout: .now() + 10) == .timedOut {
                let leaving = lock.withLock {
                    guard let index = idle.firstIndex(where: { $0 === worker }) else { return false }
                    idle.remove(at: index)
                    return true
                }
                if leaving { return }
                // Handed a job just as the wait ended: its signal is on the way.
                worker.wake.wait()
            }
        }
    }
}
