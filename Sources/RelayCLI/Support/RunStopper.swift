import Dispatch
import Foundation
import RelayKit
import RelayRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Stops a run from outside (Docs/Language.md, "Stopping a run"): SIGINT, SIGTERM and SIGHUP, or
/// the run's own time bound. The run's task is cancelled — the step under way stops at its next
/// wait, and every process the run started is stopped with its session (SIGTERM, then SIGKILL
/// after a grace period) — then Relay says where it stopped and exits 128 + the signal (1 for the
/// time bound). A file change under way is whole or not begun: writes are not interrupted. A
/// second SIGINT ends at once; a run that does not end within the grace period is ended too.
final class RunStopper: @unchecked Sendable {
    enum Reason: Sendable {
        case signal(Int32)
        case timeout(Double)
        /// Its caller stopped it (an assistant cancelled its call, or went away): a cancelled run.
        case cancelled(by: String)
    }

    private let lock = NSLock()
    private var reason: Reason?
    /// Set when Relay is ending at once (a second SIGINT): nothing else may report or exit then.
    private var exiting = false
    private var task: Task<Void, Never>?
    private let queue = DispatchQueue(label: "relay.run-stopper")
    private let position: RunPosition
    /// Whether the run owns the process: signals stop it, and a run that does not end ends Relay.
    /// A server's runs share the process: the server takes the signals and stops each run by
    /// cancelling the task it runs in.
    private let ownsProcess: Bool

    /// A stopper for a run whose place `position` tells.
    init(position: RunPosition, ownsProcess: Bool = true) {
        self.position = position
        self.ownsProcess = ownsProcess
    }

    /// Runs `work` until it ends, a signal arrives (or the task this is called in is cancelled,
    /// taken as SIGTERM unless `cancelled` says why), or `timeout` seconds pass; returns why it was
    /// stopped, or nil when it ended by itself.
    func run(timeout: Double?, cancelled: (@Sendable () -> Reason)? = nil, _ work: @escaping @Sendable () async -> Void) async -> Reason? {
        let body = { [self] in
            let task = Task { await work() }
            let stoppedEarly = lock.withLock {
                self.task = task
                return reason != nil
            }
            if stoppedEarly { task.cancel() }
            var timer: Task<Void, Never>?
            if let timeout {
                timer = Task {
                    try? await Task.sleep(for: Limits.duration(seconds: timeout))
                    if !Task.isCancelled { self.stop(.timeout(timeout)) }
                }
            }
            await withTaskCancellationHandler { await task.value } onCancel: { self.stop(cancelled?() ?? .signal(SIGTERM)) }
            timer?.cancel()
        }
        if ownsProcess {
            ProcessSignals.prepare()
            // The handler is in place before the run starts: a signal can come at its first step.
            await ProcessSignals.handling(with: { [self] number in stop(.signal(number)) }, body)
        } else {
            await body()
        }
        return lock.withLock { reason }
    }

    /// What to say on standard error for `reason`, and the exit status. While Relay is ending at
    /// once from another thread, this waits for that.
    func report(_ reason: Reason) -> (message: String, status: Int32) {
        // Reached only when the run is over and Relay is ending from the signal thread: nothing is
        // left to wait for but that exit, so holding this thread costs nothing.
        while lock.withLock({ exiting }) { Thread.sleep(forTimeInterval: 1) }
        return reportText(reason)
    }

    private func reportText(_ reason: Reason) -> (message: String, status: Int32) {
        let place = position.description.map { "at \($0)" } ?? "before its first step"
        switch reason {
        case .signal(let number):
            return ("stopped \(place) by \(Self.name(of: number))\n", 128 + number)
        case .timeout(let seconds):
            return ("error: the run timed out after \(NumberFormatting.text(seconds)) s, \(place)\n", 1)
        case .cancelled(let who):
            return ("stopped \(place): \(who)\n", ExitStatus.cancelled.rawValue)
        }
    }

    private func stop(_ newReason: Reason) {
        let first: Bool = lock.withLock {
            guard reason == nil else { return false }
            reason = newReason
            return true
        }
        guard first else {
            // A second SIGINT: end now, with everything the run started.
            if ownsProcess, case .signal(SIGINT) = newReason {
                // Said first, and the run's own report held back: killing the children lets the
                // run end on its own thread, which must not report or exit before this does.
                lock.withLock { exiting = true }
                StandardStreams.writeError("stopped at once by a second SIGINT\n")
                ChildProcesses.stopAll()
                exit(128 + SIGINT)
            }
            return
        }
        // A run sharing the process stops by its task alone: what it started stops with its steps.
        guard ownsProcess else {
            lock.withLock { task }?.cancel()
            return
        }
        if case .signal(SIGINT) = newReason { StandardStreams.writeError("stopping… (Ctrl-C again to stop at once)\n") }
        lock.withLock { task }?.cancel()
        ChildProcesses.terminateAll()
        // A run stuck where cancellation cannot reach still ends, a little after the grace period.
        queue.asyncAfter(deadline: .now() + ChildProcesses.grace + 1) { [self] in
            guard !lock.withLock({ exiting }) else { return }
            lock.withLock { exiting = true }
            ChildProcesses.stopAll()
            let (message, status) = reportText(newReason)
            StandardStreams.writeError(message)
            exit(status)
        }
    }

    /// Runs `work` in a task that SIGINT cancels (stopping the processes it started), for the
    /// REPL: Ctrl-C stops the step under way and the session goes on. Returns the work's result
    /// and whether it was interrupted. SIGTERM and SIGHUP still end Relay.
    static func interruptible<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> (T, interrupted: Bool) {
        ProcessSignals.prepare()
        let interrupted = Interrupted()
        let current = CurrentTask()
        let result = await ProcessSignals.handling(with: { number in
            guard number == SIGINT else {
                ChildProcesses.stopAll()
                exit(128 + number)
            }
            interrupted.set()
            current.cancel()
            ChildProcesses.terminateAll()
        }) {
            let task = Task { await work() }
            current.set { task.cancel() }
            return await task.value
        }
        return (result, interrupted.value)
    }

    /// How to cancel the task under way, once there is one (a cancel asked for before is kept).
    private final class CurrentTask: @unchecked Sendable {
        private let lock = NSLock()
        private var cancelTask: (@Sendable () -> Void)?
        private var cancelled = false
        func set(_ cancel: @escaping @Sendable () -> Void) {
            let now = lock.withLock {
                cancelTask = cancel
                return cancelled
            }
            if now { cancel() }
        }
        func cancel() {
            let cancel = lock.withLock {
                cancelled = true
                return cancelTask
            }
            cancel?()
        }
    }

    private final class Interrupted: @unchecked Sendable {
        private let lock = NSLock()
        private var fired = false
        func set() { lock.withLock { fired = true } }
        var value: Bool { lock.withLock { fired } }
    }

    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }
}
