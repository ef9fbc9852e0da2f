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
    }

    private let lock = NSLock()
    private var reason: Reason?
    private var task: Task<Void, Never>?
    private let queue = DispatchQueue(label: "relay.run-stopper")
    private var sources: [any DispatchSourceSignal] = []
    private let position: RunPosition

    /// A stopper for a run whose place `position` tells.
    init(position: RunPosition) { self.position = position }

    /// Runs `work` until it ends, a signal arrives, or `timeout` seconds pass; returns why it was
    /// stopped, or nil when it ended by itself.
    func run(timeout: Double?, _ work: @escaping @Sendable () async -> Void) async -> Reason? {
        listen(for: [SIGINT, SIGTERM, SIGHUP])
        let task = Task { await work() }
        lock.withLock { self.task = task }
        var timer: Task<Void, Never>?
        if let timeout {
            timer = Task {
                try? await Task.sleep(for: Limits.duration(seconds: timeout))
                if !Task.isCancelled { self.stop(.timeout(timeout)) }
            }
        }
        await task.value
        timer?.cancel()
        return lock.withLock { reason }
    }

    /// What to say on standard error for `reason`, and the exit status.
    func report(_ reason: Reason) -> (message: String, status: Int32) {
        let place = position.description.map { "at \($0)" } ?? "before its first step"
        switch reason {
        case .signal(let number):
            return ("stopped \(place) by \(Self.name(of: number))\n", 128 + number)
        case .timeout(let seconds):
            return ("error: the run timed out after \(NumberFormatting.text(seconds)) s, \(place)\n", 1)
        }
    }

    private func listen(for signals: [Int32]) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in self?.stop(.signal(number)) }
            source.resume()
            sources.append(source)
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
            if case .signal(SIGINT) = newReason {
                ChildProcesses.stopAll()
                StandardStreams.writeError("stopped at once by a second SIGINT\n")
                exit(128 + SIGINT)
            }
            return
        }
        lock.withLock { task }?.cancel()
        ChildProcesses.terminateAll()
        // A run stuck where cancellation cannot reach still ends, a little after the grace period.
        queue.asyncAfter(deadline: .now() + ChildProcesses.grace + 1) { [self] in
            ChildProcesses.stopAll()
            let (message, status) = report(newReason)
            StandardStreams.writeError(message)
            exit(status)
        }
    }

    /// Runs `work` in a task that SIGINT cancels (stopping the processes it started), for the
    /// REPL: Ctrl-C stops the step under way and the session goes on. Returns the work's result
    /// and whether it was interrupted. Between entries, a SIGINT is ignored (at the prompt the
    /// line editor has its own handling).
    static func interruptible<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> (T, interrupted: Bool) {
        let task = Task { await work() }
        let entry = Interrupts.shared.begin { task.cancel() }
        let result = await task.value
        return (result, Interrupts.shared.end(entry))
    }

    /// The one SIGINT listener of a REPL, made once: libdispatch installs its handler for a
    /// signal once per process, so the listener must outlive every entry rather than be made and
    /// undone for each.
    private final class Interrupts: @unchecked Sendable {
        static let shared = Interrupts()
        private let lock = NSLock()
        private var cancel: (@Sendable () -> Void)?
        private var entry = 0
        private var interrupted = false
        private let source: any DispatchSourceSignal

        private init() {
            signal(SIGINT, SIG_IGN)
            source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "relay.repl-interrupt"))
            source.setEventHandler { [unowned self] in
                let stop: (@Sendable () -> Void)? = lock.withLock {
                    guard let current = self.cancel else { return nil }
                    interrupted = true
                    return current
                }
                guard let stop else { return }
                stop()
                ChildProcesses.terminateAll()
            }
            source.resume()
        }

        func begin(_ cancel: @escaping @Sendable () -> Void) -> Int {
            lock.withLock {
                entry += 1
                interrupted = false
                self.cancel = cancel
                return entry
            }
        }

        /// Ends entry `number`; whether it was interrupted.
        func end(_ number: Int) -> Bool {
            lock.withLock {
                if entry == number { cancel = nil }
                return interrupted
            }
        }
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
