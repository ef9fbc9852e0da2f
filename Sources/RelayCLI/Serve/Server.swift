import Foundation
import RelayKit
import RelayLanguage
import RelayRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Arms the schedules of the served workflows and hands each firing to the one run pipeline
/// (`WorkflowRun`), as a run nobody is asked in, with the grants remembered for its file and the
/// server's own flags (Docs/Automations.md). Until a signal: then it stops arming, lets the runs
/// under way finish for the grace period, stops the rest, and returns the exit status.
final class Server: @unchecked Sendable {
    private let workflows: [ServedWorkflow]
    /// Makes the run of a workflow for a firing.
    private let makeRun: @Sendable (ServedWorkflow, Firing) -> WorkflowRun
    /// Reads and checks a served file again.
    private let reload: @Sendable (String) async -> ServedWorkflow
    private let log: ServeLog
    private let started = Date()
    /// When it started: a schedule's interval counts from then.
    var startedAt: Date { started }
    private let lock = NSLock()
    private var queues: [String: WorkflowQueue] = [:]
    /// What each served file armed: its schedules' timers and its folders' watches.
    private var armed: [String: (timers: [Task<Void, Never>], watches: [FolderWatch])] = [:]
    /// The watches of the served files' own folders, which read a file again when it changes.
    private var fileWatches: [FolderWatch] = []
    /// The reading of a file under way, which the next waits for.
    private var rereads: [String: Task<Void, Never>] = [:]
    private var stopping = false
    /// The runs under way: the triggers' and the assistants' calls (`/mcp`).
    let runs = RunningRuns()
    /// Each served file as last read, in the order served.
    private var current: [String: ServedWorkflow] = [:]
    private var order: [String]
    /// The folders served whole: a workflow file added to one is served from then on.
    private let folders: Set<String>
    /// The armed webhooks, by name: the file that has each, and its trigger.
    private var hooks: [String: (file: String, trigger: Trigger)] = [:]

    /// One firing of a trigger: which, and when it was due.
    struct Firing: Sendable {
        /// The trigger; nil for "Run now" on the page.
        var trigger: Trigger?
        var time: Date
        /// For a schedule's catch-up run at the start.
        var catchingUp = false
        /// For a watched folder: the file, and what happened to it.
        var file: String? = nil
        var event: Trigger.WatchEvent? = nil
        /// For a webhook: the request.
        var request: HookRequest? = nil
        /// Its row in the history, written before the caller was answered.
        var queuedID: Int64? = nil
        /// Told the run's ID and how it ended, for a caller that waits.
        var watcher: RunWatcher? = nil

        /// The word in the history's trigger column and the log.
        var word: String { trigger?.word ?? "page" }
        var concurrency: Trigger.Concurrency { trigger?.concurrency ?? .queue }
    }

    /// What became of a firing.
    enum Fired: Sendable {
        /// A run started, or waits its turn.
        case started, queued
        /// Dropped: a run was under way (`concurrency: skip`), too many wait, or the server stops.
        case skipped, dropped, closed
    }

    init(
        workflows: [ServedWorkflow], folders: [String] = [], log: ServeLog, reload: @escaping @Sendable (String) async -> ServedWorkflow,
        makeRun: @escaping @Sendable (ServedWorkflow, Firing) -> WorkflowRun
    ) {
        self.workflows = workflows
        order = workflows.map(\.file)
        self.folders = Set(folders)
        current = Dictionary(workflows.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
        self.log = log
        self.reload = reload
        self.makeRun = makeRun
    }

    /// Serves until SIGTERM, SIGINT or SIGHUP; returns 128 + the signal, or 1 when `web` cannot
    /// listen.
    func serve(grace: Double, lastRuns: [String: Date], web: WebServer?, armedNote: String) async -> Int32 {
        ProcessSignals.prepare()
        var listening: Task<Void, Never>?
        if let web {
            let ready = ReadyBox()
            listening = Task {
                do {
                    try await web.run { port in ready.set(.success(port)) }
                    ready.set(.failure(ServeError("the HTTP server stopped")))
                } catch {
                    ready.set(.failure(ServeError("\(error)")))
                }
            }
            switch await ready.wait() {
            case .success(let port):
                log.note("listening on http://\(web.host.contains(":") ? "[\(web.host)]" : web.host):\(port)/")
            case .failure(let problem):
                log.note("error: could not listen on \(web.host) port \(web.port): \(problem) (--port chooses another port)", error: true)
                return 1
            }
        }
        let signal = SignalBox()
        await ProcessSignals.handling(with: { number in signal.raise(number) }) {
            for served in workflows { arm(served, lastRuns: lastRuns) }
            watchFiles()
            log.note(armedNote)
            await signal.wait()
        }
        let number = signal.number
        web?.assistants?.stopAccepting()
        log.note("stopping on \(RunStopper.name(of: number)): no more runs start; runs under way may finish for \(NumberFormatting.text(grace)) s")
        let (files, watches) = lock.withLock { () -> ([String], [FolderWatch]) in
            stopping = true
            return (Array(armed.keys), fileWatches)
        }
        for watch in watches { watch.stop() }
        for file in files { disarm(file) }
        for queue in lock.withLock({ Array(queues.values) }) { queue.close() }
        if await !runs.finish(within: grace) {
            log.note("stopping the runs still under way")
            runs.cancelAll(.signal(number))
            _ = await runs.finish(within: ChildProcesses.grace + 5)
        }
        // An assistant's session may hold a stream open: it ends before the listening does.
        await web?.assistants?.endAll()
        listening?.cancel()
        await listening?.value
        log.note("stopped")
        return 128 + number
    }

    /// How often a workflow that needs grants is read again, to be armed once it has them.
    static let grantsLookedAgain: Duration = .seconds(5)

    /// Arms the triggers of `served`, when it checks and has its grants; one that needs grants is
    /// read again every few seconds, and armed once they are given (`relay permissions FILE --grant`).
    private func arm(_ served: ServedWorkflow, lastRuns: [String: Date]) {
        lock.withLock { current[served.file] = served }
        if served.problem == nil, !served.needs.isEmpty, !served.servedTriggers.isEmpty {
            let waiting = Task { [self] in
                try? await Task.sleep(for: Self.grantsLookedAgain)
                if !Task.isCancelled { reread(served.file, quietly: true) }
            }
            lock.withLock { armed[served.file] = ([waiting], []) }
            return
        }
        guard served.isArmed else { return }
        let queue: WorkflowQueue = lock.withLock {
            if let queue = queues[served.file] {
                queue.update(served)
                return queue
            }
            let queue = WorkflowQueue(served: served, runs: runs, log: log, makeRun: makeRun)
            queues[served.file] = queue
            return queue
        }
        var timers: [Task<Void, Never>] = []
        var watches: [FolderWatch] = []
        for trigger in served.triggers {
            switch trigger.kind {
            case .watch(let watch):
                let folderWatch = FolderWatch(
                    watch,
                    deliver: { event in
                        // A file the workflow's own runs wrote there starts nothing.
                        guard !queue.wroteRecently(event.path) else { return }
                        queue.fire(Firing(trigger: trigger, time: Date(), file: event.path, event: event.kind))
                    }, note: { [log] in log.note("\(served.file): \($0)") })
                if folderWatch.start() { watches.append(folderWatch) }
            case .schedule:
                if trigger.catchUp, let last = lastRuns[served.file], let due = trigger.nextFire(after: last, started: last), due < started {
                    queue.fire(Firing(trigger: trigger, time: due, catchingUp: true))
                }
                timers.append(Task { await self.arm(trigger, of: queue) })
            case .webhook(let hook):
                lock.withLock { hooks[hook.name.text] = (served.file, trigger) }
            }
        }
        lock.withLock { armed[served.file] = (timers, watches) }
    }

    /// Stops the triggers of `file`; its runs under way go on.
    private func disarm(_ file: String) {
        guard let (timers, watches) = lock.withLock({ () -> ([Task<Void, Never>], [FolderWatch])? in
            hooks = hooks.filter { $0.value.file != file }
            return armed.removeValue(forKey: file)
        }) else { return }
        for timer in timers { timer.cancel() }
        for watch in watches { watch.stop() }
    }

    /// Watches the folders of the served files: a file that changes is read again.
    private func watchFiles() {
        let files = Set(workflows.map(\.file))
        for folder in Set(files.map { ($0 as NSString).deletingLastPathComponent }).union(folders).sorted() {
            let folderWatch = FolderWatch(
                folder: folder, glob: nil, events: [.created, .changed],
                deliver: { [self] event in
                    let known = lock.withLock { order.contains(event.path) }
                    if known { return reread(event.path) }
                    // A workflow file new in a folder served whole: served from now on.
                    guard folders.contains((event.path as NSString).deletingLastPathComponent),
                        event.path.hasSuffix(".yaml") || event.path.hasSuffix(".yml")
                    else { return }
                    lock.withLock { if !order.contains(event.path) { order.append(event.path) } }
                    reread(event.path, new: true)
                }, note: { [log] in log.note($0) })
            if folderWatch.start() { lock.withLock { fileWatches.append(folderWatch) } }
        }
    }

    /// Reads `file` again and arms what it says now; one that no longer checks, or needs grants
    /// it does not have, has its triggers disarmed, and the log says why.
    private func reread(_ file: String, quietly: Bool = false, new: Bool = false) {
        lock.lock()
        defer { lock.unlock() }
        guard !stopping else { return }
        let previous = rereads[file]
        rereads[file] = Task { [self] in
            await previous?.value
            var fresh = await reload(file)
            guard !lock.withLock({ stopping }) else { return }
            fresh.refuseHooks(takenBy: lock.withLock { order.filter { $0 != file }.compactMap { current[$0] } })
            disarm(file)
            // Looked at again while it waits for grants: said only once it has them.
            if quietly, fresh.problem == nil, !fresh.needs.isEmpty {
                arm(fresh, lastRuns: [:])
                return
            }
            let changed = new ? "is new" : "changed"
            if quietly, fresh.problem == nil {
                log.note("\(file) has its grants now: \(fresh.servedTriggers.count) trigger\(fresh.servedTriggers.count == 1 ? "" : "s") armed")
            } else if let problem = fresh.problem {
                log.note("\(file) \(new ? "is new, and does not check" : "changed, and no longer checks"): its triggers are disarmed until it does:\n\(problem)", error: true)
            } else if !fresh.needs.isEmpty {
                log.note("\(file) \(changed), and needs grants: its triggers are disarmed: \(ServeCommand.needs(of: fresh))", error: true)
            } else {
                log.note("\(file) \(changed): read\(new ? "" : " again"), \(fresh.servedTriggers.count) trigger\(fresh.servedTriggers.count == 1 ? "" : "s") armed")
            }
            arm(fresh, lastRuns: [:])
        }
    }

    /// The served workflows as last read, in the order served.
    var served: [ServedWorkflow] { lock.withLock { order.compactMap { current[$0] } } }

    /// What is wrong with the triggers of `file` now: its watched folders that are gone.
    func troubles(of file: String) -> [String] {
        lock.withLock { armed[file]?.watches.compactMap(\.trouble) ?? [] }
    }

    /// The armed webhook `name`: its workflow and trigger.
    func hook(_ name: String) -> (served: ServedWorkflow, trigger: Trigger)? {
        lock.withLock {
            guard let (file, trigger) = hooks[name], let served = current[file] else { return nil }
            return (served, trigger)
        }
    }

    /// Fires `firing` for the armed workflow `file`; `.closed` when it is not armed (or the
    /// server stops).
    func fire(_ firing: Firing, of file: String) -> Fired {
        guard let queue = lock.withLock({ stopping || current[file]?.isArmed != true ? nil : queues[file] }) else { return .closed }
        return queue.fire(firing)
    }

    /// Fires `trigger` at each of its times until the server stops. A wait is at most a minute,
    /// then worked out again: the clock may have been changed, or the machine asleep.
    private func arm(_ trigger: Trigger, of queue: WorkflowQueue) async {
        // From now: a schedule armed again (its file changed) does not make up the times before.
        var after = Date()
        while !Task.isCancelled {
            guard let due = trigger.nextFire(after: after, started: started) else { return }
            var wait = due.timeIntervalSinceNow
            while wait > 0, !Task.isCancelled {
                try? await Task.sleep(for: .seconds(min(wait, 60)))
                wait = due.timeIntervalSinceNow
            }
            guard !Task.isCancelled else { return }
            queue.fire(Firing(trigger: trigger, time: due))
            // A time missed while the machine slept is not made up: the next is after now.
            after = max(due, Date())
        }
    }

    /// What the server says on standard error: one line per run and per event.
    final class ServeLog: Sendable {
        /// Under systemd (its journal reads standard error): a priority, no time.
        private let journal = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil

        func note(_ text: String, error: Bool = false) {
            let line = journal ? (error ? "<3>" : "<6>") + text : "\(DateFormatting.iso8601(Date())) \(text)"
            StandardStreams.writeError(line + "\n")
        }
    }
}

/// Whether the HTTP server listens, once it knows: its port, or why not.
private final class ReadyBox: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Int, ServeError>?
    private var waiter: CheckedContinuation<Result<Int, ServeError>, Never>?

    func set(_ result: Result<Int, ServeError>) {
        let waiting: CheckedContinuation<Result<Int, ServeError>, Never>? = lock.withLock {
            guard self.result == nil else { return nil }
            self.result = result
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume(returning: result)
    }

    func wait() async -> Result<Int, ServeError> {
        await withCheckedContinuation { continuation in
            let now = lock.withLock { () -> Result<Int, ServeError>? in
                if let result { return result }
                waiter = continuation
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }
}

/// A signal, once one comes.
private final class SignalBox: @unchecked Sendable {
    private let lock = NSLock()
    private var raised: Int32?
    private var waiter: CheckedContinuation<Void, Never>?

    var number: Int32 { lock.withLock { raised ?? SIGTERM } }

    func raise(_ number: Int32) {
        let waiting: CheckedContinuation<Void, Never>? = lock.withLock {
            guard raised == nil else { return nil }
            raised = number
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume()
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = lock.withLock { () -> Bool in
                if raised != nil { return true }
                waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// The runs of one workflow: what a firing does while one is under way is its trigger's
/// `concurrency:` — skip it, queue it (one run at a time, in order), or start it alongside.
final class WorkflowQueue: @unchecked Sendable {
    /// The most firings waiting in a queue; more are dropped, and said so.
    static let longest = 1_000
    /// The most runs of one workflow at once with `concurrency: parallel`; more wait their turn.
    static let mostAtOnce = 16

    private var served: ServedWorkflow
    private let runs: RunningRuns
    private let log: Server.ServeLog
    private let makeRun: @Sendable (ServedWorkflow, Server.Firing) -> WorkflowRun
    private let lock = NSLock()
    private var running = 0
    private var waiting: [Server.Firing] = []
    private var closed = false
    /// The paths this workflow's runs wrote: nil while a run that wrote one is under way, else
    /// when the last such run ended.
    private var written: [String: Date?] = [:]
    /// How long after its run ended a file it wrote still starts nothing (its events may come late).
    static let writtenQuiet: TimeInterval = 2

    init(served: ServedWorkflow, runs: RunningRuns, log: Server.ServeLog, makeRun: @escaping @Sendable (ServedWorkflow, Server.Firing) -> WorkflowRun) {
        self.served = served
        self.runs = runs
        self.log = log
        self.makeRun = makeRun
    }

    @discardableResult
    func fire(_ firing: Server.Firing) -> Server.Fired {
        let fired: Server.Fired = lock.withLock {
            guard !closed else { return .closed }
            switch firing.concurrency {
            case .parallel:
                if running < Self.mostAtOnce {
                    running += 1
                    return .started
                }
                guard waiting.count < Self.longest else { return .dropped }
                waiting.append(firing)
                return .queued
            case .skip, .queue:
                if running == 0 {
                    running += 1
                    return .started
                }
                guard firing.concurrency == .queue else { return .skipped }
                guard waiting.count < Self.longest else { return .dropped }
                waiting.append(firing)
                return .queued
            }
        }
        switch fired {
        case .started: begin(firing)
        case .skipped: log.note("\(served.file): \(firing.word) skipped: a run is under way (concurrency: skip)")
        case .dropped: log.note("\(served.file): \(firing.word) dropped: \(Self.longest) runs are waiting already", error: true)
        case .queued, .closed: break
        }
        return fired
    }

    /// The workflow as read again: what runs from now on.
    func update(_ served: ServedWorkflow) {
        lock.withLock { self.served = served }
    }

    /// No more runs start; those waiting are dropped (a webhook's, acknowledged, stays in the
    /// history as queued, and is marked interrupted once this server is gone).
    func close() {
        let dropped: [Server.Firing] = lock.withLock {
            closed = true
            defer { waiting.removeAll() }
            return waiting
        }
        for firing in dropped {
            firing.request?.finished()
            firing.watcher?.ended(nil)
        }
    }

    /// A run of this workflow is let write `path`.
    func wrote(_ path: String) {
        lock.withLock { written[ResolvedPath.resolve(path)] = .some(nil) }
    }

    /// Whether `path` is a file this workflow's runs wrote, under way or just ended.
    func wroteRecently(_ path: String) -> Bool {
        lock.withLock {
            guard let entry = written[ResolvedPath.resolve(path)] else { return false }
            guard let ended = entry else { return true }
            return Date().timeIntervalSince(ended) < Self.writtenQuiet
        }
    }

    private func begin(_ firing: Server.Firing) {
        let served = lock.withLock { self.served }
        var made = makeRun(served, firing)
        made.onWrite = { [weak self] path in self?.wrote(path) }
        made.queuedID = firing.queuedID
        made.stopReason = { [runs] in runs.stopReason ?? .signal(SIGTERM) }
        if let watcher = firing.watcher { made.onRecorded = { watcher.recorded($0) } }
        let run = made
        let log = self.log
        runs.start { [self] in
            let began = Date()
            let outcome = await run.run()
            firing.request?.finished()
            firing.watcher?.ended(outcome)
            let started = "\(firing.word)\(firing.catchingUp ? ", catching up" : "")\(firing.file.map { ": \(TerminalText.visible($0))" } ?? "")"
            log.note(Self.line(outcome, of: served.file, startedBy: started, began: began), error: outcome.status != 0)
            finished()
        }
    }

    private func finished() {
        let next: Server.Firing? = lock.withLock {
            running -= 1
            // What the runs wrote quiets its events a little longer; what is old is forgotten.
            let now = Date()
            written = written.compactMapValues { ended in
                guard let ended else { return running == 0 ? .some(now) : .some(nil) }
                return now.timeIntervalSince(ended) < 60 ? .some(ended) : nil
            }
            // The next waiting firing: when no run is under way, or (parallel) fewer than the most.
            guard !closed, !waiting.isEmpty, running == 0 || (waiting[0].concurrency == .parallel && running < Self.mostAtOnce) else { return nil }
            running += 1
            return waiting.removeFirst()
        }
        if let next { begin(next) }
    }

    /// The log's line for a run that ended: `run 12 of FILE (schedule): succeeded, exit 0, 6.1 ms`.
    static func line(_ outcome: WorkflowRun.Outcome, of file: String, startedBy: String, began: Date) -> String {
        let status = outcome.status >= 128 ? "stopped" : ExitStatus(rawValue: outcome.status).map(Self.word) ?? "failed"
        let id = outcome.runID.map { "run \($0)" } ?? "a run (not recorded)"
        return "\(id) of \(file) (\(startedBy)): \(status), exit \(outcome.status), \(RunsCommand.seconds(Date().timeIntervalSince(began)))"
    }

    private static func word(_ status: ExitStatus) -> String {
        switch status {
        case .success: "succeeded"
        case .runtimeError: "failed"
        case .invalid: "did not check"
        case .cancelled: "cancelled"
        case .permissionDenied: "denied"
        }
    }
}

/// The runs under way, to wait for or stop when the server stops: the triggers' runs, and the
/// calls of assistants (Docs/Assistants.md).
final class RunningRuns: @unchecked Sendable {
    private let lock = NSLock()
    /// How to stop each run under way.
    private var tasks: [Int: @Sendable () -> Void] = [:]
    private var next = 0
    /// Why they were stopped, when they all were.
    private var stoppedBy: RunStopper.Reason?
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func start(_ work: @escaping @Sendable () async -> Void) {
        lock.lock()
        let key = next
        next += 1
        let task = Task { [self] in
            await work()
            ended(key)
        }
        tasks[key] = { task.cancel() }
        lock.unlock()
    }

    /// Runs `work` as a run under way, in a task of its own: stopped when the caller is
    /// cancelled, and when the runs are.
    func run<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T {
        let (key, task) = lock.withLock {
            defer { next += 1 }
            let task = Task { await work() }
            tasks[next] = { task.cancel() }
            return (next, task)
        }
        defer { ended(key) }
        return await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
    }

    private func ended(_ key: Int) {
        let wake: [CheckedContinuation<Void, Never>] = lock.withLock {
            tasks[key] = nil
            guard tasks.isEmpty else { return [] }
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in wake { waiter.resume() }
    }

    /// Why every run was stopped (`cancelAll`), if it was.
    var stopReason: RunStopper.Reason? { lock.withLock { stoppedBy } }

    /// Stops every run under way, as SIGTERM stops a run, or as `reason` says.
    func cancelAll(_ reason: RunStopper.Reason? = nil) {
        let cancels = lock.withLock {
            if stoppedBy == nil { stoppedBy = reason }
            return Array(tasks.values)
        }
        for cancel in cancels { cancel() }
    }

    /// Waits until no run is under way, or `seconds` pass; whether none is.
    func finish(within seconds: Double) async -> Bool {
        let timer = Task { [self] in
            try? await Task.sleep(for: .seconds(seconds))
            let wake: [CheckedContinuation<Void, Never>] = lock.withLock {
                defer { waiters.removeAll() }
                return waiters
            }
            for waiter in wake { waiter.resume() }
        }
        await withCheckedContinuation { continuation in
            let done = lock.withLock { () -> Bool in
                if tasks.isEmpty { return true }
                waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
        timer.cancel()
        return lock.withLock { tasks.isEmpty }
    }
}
