import Dispatch
import Foundation
import RelayRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP for the whole process, in one place. They are blocked in every
/// thread — `prepare()` runs first thing in `main`, before any thread exists, and every thread
/// inherits the mask — and read by one dispatch source each. (A signal that some thread does not
/// block may be handed to that thread and, ignored there, lost: so it must be all threads.)
/// Processes Relay starts get a clear mask (`ChildProcess`).
///
/// While a run or a REPL entry is under way, its handler decides what a signal does
/// (`RunStopper`); otherwise Relay stops its children and exits with 128 + the signal.
public enum ProcessSignals {
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private static let lock = NSLock()
    nonisolated(unsafe) private static var prepared = false
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []
    nonisolated(unsafe) private static var handler: (@Sendable (Int32) -> Void)?

    /// Seals this process's memory and /proc entries from other processes, and makes it adopt
    /// what its children leave behind (`ChildProcesses.sealMemory`, `adoptOrphans`). First in
    /// `main`, before any secret is read.
    public static func sealAndAdopt() {
        ChildProcesses.sealMemory()
        ChildProcesses.adoptOrphans()
    }

    /// Blocks the signals in this thread and listens for them. Call it first in `main`, before
    /// anything starts a thread; calling it again does nothing.
    public static func prepare() {
        lock.lock()
        defer { lock.unlock() }
        guard !prepared else { return }
        prepared = true
        var set = sigset_t()
        sigemptyset(&set)
        for number in handled { sigaddset(&set, number) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let queue = DispatchQueue(label: "relay.signals")
        for number in handled {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { received(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// Runs `body` with `handler` deciding what the signals do.
    static func handling<T>(with handler: @escaping @Sendable (Int32) -> Void, _ body: () async throws -> T) async rethrows -> T {
        let previous = lock.withLock {
            let previous = self.handler
            self.handler = handler
            return previous
        }
        defer { lock.withLock { self.handler = previous } }
        return try await body()
    }

    private static func received(_ number: Int32) {
        if let handler = lock.withLock({ handler }) {
            handler(number)
            return
        }
        ChildProcesses.stopAll()
        exit(128 + number)
    }
}
