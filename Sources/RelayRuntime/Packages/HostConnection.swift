import Foundation
import RelayKit
import RelayEngine
internal import CPipeSignal

/// A running package host (`relay-host` of a package) and the protocol over its pipes
/// (Docs/PackageProtocol.md): requests out as JSON lines on its standard input, answers and
/// callbacks in on its standard output, its standard error kept for error messages.
///
/// A host that exits, answers garbage or does not answer in time fails the requests waiting on
/// it with a `HostError` carrying the end of its standard error; it is then stopped, and the next
/// request starts a new one (`HostedPackage`).
final class HostConnection: @unchecked Sendable {
    /// What answers the callbacks of a request (`confirm`, `choose` …) and takes its progress.
    struct Callbacks: Sendable {
        var handlers: HostHandlers<HostedPackage.CallbackContext>
        /// The package and the step's context, which answer them.
        var context: HostedPackage.CallbackContext
        var progress: @Sendable (_ fraction: Double, _ label: String?) async -> Void
        /// The declarations of the run the request was made for: callbacks are answered on
        /// tasks the connection starts, which do not inherit them.
        var declarations = Declarations.current
    }

    private struct Pending {
        let continuation: CheckedContinuation<Value, any Error>
        let callbacks: Callbacks?
        let method: String
        let timeout: Duration
        let deadline: ContinuousClock.Instant
    }

    let packageName: String
    private let host: ChildProcess
    /// The host's standard input; a host is always started with pipes.
    private let toHost: FileHandle
    private let lock = NSLock()
    /// Held while a message is written to the host, which may block while the host is busy:
    /// apart from `lock`, so that the reader, the watcher and a cancellation never wait for it.
    private let writing = NSLock()
    private var nextID = 1
    private var pending: [Int: Pending] = [:]
    private var standardError = Data()
    /// Why the connection is unusable, once it is.
    private var failure: String?
    /// Whether the failure says all there is, the host's standard error adding nothing.
    private var failureSaysAll = false
    /// Whether a write found the host gone, and its failure is being waited for.
    private var writeFailed = false
    /// Whether the host's standard error has ended (its last words are all in `standardError`).
    private var standardErrorEnded = false
    /// Whether the host is to be closed once no request is waiting (`retire`).
    private var retiring = false
    /// The handshake, once begun: every request waits for it.
    private var greeting: Task<HostProtocol.Hello, any Error>?
    /// The host's hello, once it has come.
    private var greeted: HostProtocol.Hello?

    /// The longest message a host may send, in bytes: `$RELAY_PACKAGE_MESSAGE_LIMIT`, else 512 MB.
    static let messageLimit: Int = {
        ProcessInfo.processInfo.environment["RELAY_PACKAGE_MESSAGE_LIMIT"].flatMap(Int.init).map { max($0, 1024) } ?? 512_000_000
    }()

    /// Whether hosts' standard error is shown as it comes (`RELAY_LOG=packages`), for debugging a
    /// package; otherwise it is kept, and its end shown when a call fails.
    static let showsStandardError = (ProcessInfo.processInfo.environment["RELAY_LOG"] ?? "")
        .split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "packages" }

    /// The longest message this host may send.
    private let messageLimit: Int

    /// Starts `executable` with `arguments`, its memory limited to `memoryLimit` bytes, with
    /// `environment` added to Relay's (or only `environment`, for a package's host: `HostSandbox.environment`),
    /// confined by the Landlock `ruleset` when one is given, with `refusedCalls` refused.
    init(
        executable: URL, arguments: [String] = [], packageName: String, memoryLimit: UInt64? = ChildProcess.configuredMemoryLimit,
        messageLimit: Int = HostConnection.messageLimit, environment: [String: String] = [:], inheritsEnvironment: Bool = true,
        ruleset: HostSandbox.Ruleset? = nil, refusedCalls: HostSandbox.RefusedCalls = []
    ) throws {
        self.packageName = packageName
        self.messageLimit = messageLimit
        do throws(ChildProcessError) {
            host = try ChildProcess(
                executable: executable.path, arguments: arguments, memoryLimit: memoryLimit, environment: environment,
                inheritsEnvironment: inheritsEnvironment, ruleset: ruleset, refusedCalls: refusedCalls, contained: true,
                treeMemory: memoryLimit)
        } catch {
            throw HostError("cannot start the host of package '\(packageName)' (\(executable.path)): \(error.message)")
        }
        guard let input = host.input, let output = host.output, let errors = host.errors else {
            throw HostError("cannot start the host of package '\(packageName)': no pipes to it")
        }
        toHost = input
        startReading(output, errors: errors)
        startWatching()
    }

    /// Checks the waiting requests' deadlines ten times a second, for as long as the host runs:
    /// one thread for all requests, rather than a timer for each. It also notes the host's memory.
    private func startWatching() {
        Thread { [weak self] in
            while let self, self.host.isRunning {
                // A thread of its own (not a cooperative one): sleeping here holds up nothing.
                Thread.sleep(forTimeInterval: 0.1)
                self.host.sampleMemory()
                let now = ContinuousClock.now
                let overdue = self.lock.withLock { self.pending.values.first { $0.deadline < now } }
                if let overdue {
                    self.fail(
                        "the host of package '\(self.packageName)' did not answer '\(overdue.method)' within \(Self.seconds(overdue.timeout))",
                        stop: true)
                }
            }
        }.start()
    }

    /// Whether the host is running and has not misbehaved.
    var isUsable: Bool { lock.withLock { failure == nil } && host.isRunning }

    /// Sends a request and waits for its answer, handing its callbacks to `callbacks`. Fails after
    /// `timeout`, or when the calling task is cancelled (a step's `timeout:`), stopping the host.
    /// The first request of a host waits for the handshake, in which the host says its version.
    func request<Request: HostRequest>(_ request: Request, timeout: Duration, callbacks: Callbacks? = nil) async throws -> Request.Reply {
        let hello = try await handshake(timeout: timeout)
        guard hello.capabilities.contains(Request.method) else {
            throw HostError("the host of package '\(packageName)' does not answer '\(Request.method)' (it speaks package protocol \(hello.protocolVersion))")
        }
        let reply = try await send(Request.method, try request.params, timeout: timeout, callbacks: callbacks)
        do {
            return try ValueCoding.decode(Request.Reply.self, from: reply)
        } catch {
            throw HostError("the host of package '\(packageName)' answered '\(Request.method)' wrongly: \(error)")
        }
    }

    /// Says hello, once: Relay's version and the callbacks it answers; the host's answer has its
    /// version, which must be Relay's, and the requests it answers.
    private func handshake(timeout: Duration) async throws -> HostProtocol.Hello {
        if let greeted = lock.withLock({ greeted }) { return greeted }
        let greeting = lock.withLock { () -> Task<HostProtocol.Hello, any Error> in
            if let greeting = self.greeting { return greeting }
            let hello = HostProtocol.Hello(capabilities: HostedPackage.callbackMethods)
            let started = Task { [self] in
                let reply: Value
                do {
                    reply = try await send(HostProtocol.Hello.method, try hello.params, timeout: timeout, callbacks: nil)
                } catch let error as IntentError where error.message.hasPrefix("unknown method") {
                    // A host from before the handshake: it answered an error.
                    throw HostError(Self.versionMismatch(package: packageName, host: "1"))
                }
                let answer: HostProtocol.Hello
                do {
                    answer = try ValueCoding.decode(HostProtocol.Hello.self, from: reply)
                } catch {
                    throw HostError("the host of package '\(packageName)' answered 'hello' wrongly: \(error)")
                }
                guard answer.protocolVersion == HostProtocol.version else {
                    throw HostError(Self.versionMismatch(package: packageName, host: "\(answer.protocolVersion)"))
                }
                return answer
            }
            self.greeting = started
            return started
        }
        let hello = try await greeting.value
        lock.withLock { greeted = hello }
        return hello
    }

    static func versionMismatch(package: String, host: String) -> String {
        "the package '\(package)' speaks package protocol \(host) (that of the RelayKit it was built with), and this relay speaks "
            + "protocol \(HostProtocol.version): make its Package.swift depend on this relay's RelayKit (Docs/Packages.md, \"Starting one\")"
    }

    /// Sends one request line and waits for its answer.
    private func send(_ method: String, _ params: ValueDictionary, timeout: Duration, callbacks: Callbacks?) async throws -> Value {
        let id = lock.withLock {
            let id = nextID
            nextID += 1
            return id
        }
        let deadline = ContinuousClock.now + timeout
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let refused: (String, Bool)? = lock.withLock {
                    if let failure { return (failure, failureSaysAll) }
                    pending[id] = Pending(continuation: continuation, callbacks: callbacks, method: method, timeout: timeout, deadline: deadline)
                    return nil
                }
                if let (refused, saysAll) = refused {
                    continuation.resume(throwing: HostError(refused, standardError: saysAll ? "" : standardErrorText))
                    return
                }
                send(.request(id: id, method: method, params: params))
            }
        } onCancel: {
            // The cancelling thread may be a cooperative one: no pause for the host's last words.
            self.fail("the step was stopped while the host of package '\(self.packageName)' was answering '\(method)'", stop: true, pause: false)
        }
    }

    /// Lets the host finish the requests under way (their callbacks included), then closes it: a
    /// host replaced by one with wider grants.
    func retire() {
        let idle = lock.withLock {
            retiring = true
            return pending.isEmpty
        }
        if idle { close() }
    }

    /// Closes the host's standard input (it ends) and stops it, and all it started, if it lingers.
    func close() {
        try? toHost.close()
        let host = host
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) { host.stop() }
    }

    /// Stops the host and everything it started: SIGTERM, then SIGKILL after a moment.
    func terminate() {
        try? toHost.close()
        host.stop()
    }

    // MARK: - Reading

    /// Reads the host's messages, one a line, on a thread of its own. Each byte is looked at
    /// once (however the lines arrive), and a line longer than `messageLimit` ends the connection.
    private func startReading(_ output: FileHandle, errors: FileHandle) {
        Thread {
            self.readMessages(from: output.fileDescriptor)
            // The handle owns the descriptor read above: kept until reading is done.
            withExtendedLifetime(output) {}
            let (signalled, status) = self.host.waitForExit()
            // The standard error reader collects the host's last words: up to a second for them
            // (a process the host started may hold its standard error open), on this reader's own thread.
            for _ in 0..<100 where !self.lock.withLock({ self.standardErrorEnded }) { Thread.sleep(forTimeInterval: 0.01) }
            if (signalled || status != 0), self.host.ranOutOfMemory(standardError: self.standardErrorText), let limit = self.host.memoryLimit {
                self.fail(
                    "the package '\(self.packageName)' ran out of memory (its host\(self.host.controlGroup == nil ? "" : " and what it starts") "
                        + "may use \(ByteCount.text(Int64(clamping: limit))); "
                        + "set RELAY_PACKAGE_MEMORY to change that)", stop: false)
            } else if !signalled, status == HostProtocol.declarationErrorStatus, let problem = self.declarationProblem {
                // The package declares something wrongly: its problem is the error, not the exit.
                self.fail("package '\(self.packageName)' cannot be loaded: \(problem); fix its declaration in the package's sources (Docs/Packages.md)", stop: false, showsStandardError: false)
            } else {
                let how = signalled ? "was killed by signal \(status)" : "exited with status \(status)"
                self.fail("the host of package '\(self.packageName)' \(how)", stop: false)
            }
        }.start()
        let shown = Self.showsStandardError ? "[\(packageName)] " : nil
        // The run's secrets are masked in what a package prints too (Docs/Runs.md, "Secrets").
        let secrets = AccessGate.running?.secrets
        Thread {
            var partial = Data()
            while true {
                let chunk = errors.availableData
                if chunk.isEmpty {
                    self.lock.withLock { self.standardErrorEnded = true }
                    break
                }
                self.lock.withLock {
                    self.standardError.append(chunk)
                    if self.standardError.count > 65_536 { self.standardError = Data(self.standardError.suffix(32_768)) }
                }
                // With RELAY_LOG=packages, each whole line as it comes, marked with the package.
                guard let shown else { continue }
                partial.append(chunk)
                while let newline = partial.firstIndex(of: 10) {
                    let line = String(decoding: partial[partial.startIndex...newline], as: UTF8.self)
                    FileHandle.standardError.write(Data((shown + TerminalText.visible(secrets?.redact(line) ?? line, keepingLineBreaks: true)).utf8))
                    partial.removeSubrange(partial.startIndex...newline)
                }
                if partial.count > 4096 { partial.removeAll() }
            }
        }.start()
    }

    /// Reads the host's messages, a line each, until its output ends or it sends one that ends
    /// the connection: straight from the descriptor into one buffer, each line read where it lies
    /// (a line split between reads is gathered first), with no copy of each message as text.
    private func readMessages(from descriptor: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var partial: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                var count: Int
                repeat { count = read(descriptor, bytes.baseAddress, bytes.count) } while count < 0 && errno == EINTR
                return count
            }
            if count <= 0 { return }
            let goesOn = buffer.withUnsafeBufferPointer { whole -> Bool in
                let chunk = UnsafeBufferPointer(rebasing: whole[0..<count])
                guard let base = chunk.baseAddress else { return true }
                var start = 0
                while start < count, let found = memchr(base + start, Int32(UInt8(ascii: "\n")), count - start) {
                    let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    let piece = UnsafeBufferPointer(rebasing: chunk[start..<newline])
                    start = newline + 1
                    // A message is held to the limit however it arrived: whole, or over several reads.
                    if partial.count + piece.count > messageLimit {
                        tooLong()
                        return false
                    }
                    if partial.isEmpty {
                        if !piece.isEmpty, !received(piece) { return false }
                    } else {
                        partial.append(contentsOf: piece)
                        let line = partial
                        // A long message's buffer is not kept for the short ones after it.
                        partial = []
                        if !line.withUnsafeBufferPointer({ received($0) }) { return false }
                    }
                }
                partial.append(contentsOf: chunk[start..<count])
                return true
            }
            if !goesOn { return }
            if partial.count > messageLimit {
                tooLong()
                return
            }
        }
    }

    private func tooLong() {
        fail(
            "the host of package '\(packageName)' sent a message of more than \(ByteCount.text(Int64(messageLimit))), "
                + "the most one message may be (set RELAY_PACKAGE_MESSAGE_LIMIT to allow more)",
            stop: true)
    }

    /// Handles one message; false when it ends the connection (it is not UTF-8).
    private func received(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let message: WireMessage
        do {
            message = try WireMessage(bytes: line)
        } catch {
            // Messages are UTF-8 (Docs/PackageProtocol.md): bytes that are not would be read as
            // other text than the host sent. Looked at only when a message does not read: the
            // reader takes no string that is not UTF-8, and no byte outside strings above 0x7F.
            if UTF8Validation.firstInvalidByte(in: line) != nil {
                fail("the host of package '\(packageName)' sent a message that is not UTF-8", stop: true)
                return false
            }
            fail("the host of package '\(packageName)' spoke the protocol wrong: \(error) in \(String(decoding: line.prefix(200), as: UTF8.self))", stop: true)
            return true
        }
        switch message {
        case .answer(let id, let outcome):
            guard let waiting = lock.withLock({ pending.removeValue(forKey: id) }) else {
                fail("the host of package '\(packageName)' answered request \(id), which is not waiting", stop: true)
                return true
            }
            switch outcome {
            case .result(let value): waiting.continuation.resume(returning: value)
            case .failure(let failure) where failure.cancelled: waiting.continuation.resume(throwing: RunCancelled(failure.message))
            case .failure(let failure):
                waiting.continuation.resume(throwing: HostRefusal(failure.message, failure.refused) ?? IntentError(failure.message, retryAfter: failure.retryAfter))
            }
            if lock.withLock({ retiring && pending.isEmpty }) { close() }
        case .callback(let callback, let request, let method, let params):
            answerCallback(callback, request: request, method, params)
        case .progress(let request, let fraction, let label):
            let callbacks = lock.withLock { pending[request]?.callbacks }
            Task { await callbacks?.progress(fraction, label) }
        case .request, .reply:
            fail("the host of package '\(packageName)' sent a message only Relay sends: \(String(decoding: line.prefix(200), as: UTF8.self))", stop: true)
        }
        return true
    }

    private func answerCallback(_ callback: Int, request: Int, _ method: String, _ params: ValueDictionary) {
        guard let callbacks = lock.withLock({ pending[request]?.callbacks }) else {
            send(.reply(id: callback, .failure(WireFailure(message: "no request of that number is waiting"))))
            return
        }
        Task {
            do {
                let result = try await callbacks.declarations.using { try await callbacks.handlers.handle(method, params, in: callbacks.context) }
                send(.reply(id: callback, .result(result)))
            } catch let cancelled as RunCancelled {
                send(.reply(id: callback, .failure(WireFailure(message: cancelled.reason, cancelled: true))))
            } catch {
                send(.reply(id: callback, .failure(WireFailure(message: Interpreter.message(for: error)))))
            }
        }
    }

    // MARK: - Writing and failing

    /// Writes `message` to the host. A host that cannot be written to fails every waiting
    /// request at once and is stopped; it is not waited for until a timeout.
    private func send(_ message: WireMessage) {
        let bytes = message.bytes
        guard lock.withLock({ failure == nil }) else { return }
        let status: Int32 = writing.withLock {
            bytes.withUnsafeBytes { relay_write_all(toHost.fileDescriptor, $0.baseAddress, $0.count) }
        }
        guard status != 0 else { return }
        let reason = status == EPIPE ? "it has closed its input" : String(cString: strerror(status))
        guard status == EPIPE else { return fail("cannot write to the host of package '\(packageName)': \(reason)", stop: true, pause: false) }
        // A host that closed its input has most often ended, and how it ended (a declaration it
        // could not take, a crash) says more than the write: its watcher is given a moment to say
        // so first, on a thread of its own (the writer may be on a cooperative one); one thread
        // however many writes find it gone.
        guard lock.withLock({ () -> Bool in
            defer { writeFailed = true }
            return !writeFailed
        }) else { return }
        Thread { [self] in
            // Up to a second for the host to end (one that only closed its input is stopped
            // then), and then for its watcher, which reaps it, to say how. These sleeps are on
            // this thread of its own, never a cooperative one; a step stopped meanwhile is not
            // held by them: its cancellation fails its request at once (`request`'s `onCancel`).
            for _ in 0..<100 where host.isRunning { Thread.sleep(forTimeInterval: 0.01) }
            if !host.isRunning {
                // On this thread of its own too, as above: no step waits here.
                for _ in 0..<200 where lock.withLock({ failure == nil }) { Thread.sleep(forTimeInterval: 0.01) }
            }
            fail("cannot write to the host of package '\(packageName)': \(reason)", stop: true, pause: false)
        }.start()
    }

    /// What a host that could not start said the package declares wrongly, from its standard error.
    private var declarationProblem: String? {
        standardErrorText.split(separator: "\n").last { $0.hasPrefix(HostProtocol.declarationErrorPrefix) }
            .map { Excerpt.start(of: String($0.dropFirst(HostProtocol.declarationErrorPrefix.count))) }
    }

    /// Fails every waiting request with `reason` (the first reason sticks), stopping the host if asked.
    private func fail(_ reason: String, stop: Bool, pause: Bool = true, showsStandardError: Bool = true) {
        let waiting: [Pending] = lock.withLock {
            if failure == nil {
                failure = reason
                failureSaysAll = !showsStandardError
            }
            let waiting = Array(pending.values)
            pending.removeAll()
            return waiting
        }
        if stop { terminate() }
        // Give the standard error reader a moment to collect the host's last words. Called from the
        // watcher's and the reader's own threads; a cancellation passes `pause: false`.
        if pause && !waiting.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        let (message, saysAll) = lock.withLock { (failure ?? reason, failureSaysAll) }
        let standardError = saysAll ? "" : standardErrorText
        for request in waiting { request.continuation.resume(throwing: HostError(message, standardError: standardError)) }
    }

    private var standardErrorText: String {
        lock.withLock { String(decoding: standardError, as: UTF8.self) }
    }

    private static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

/// A hosted action that failed because the system refused it a file (EACCES, EPERM): for a
/// confined host, the kernel stopping it from touching what the run was not granted.
struct HostRefusal: Error, Sendable, CustomStringConvertible {
    let message: String
    let access: Access

    /// The refusal an error from the host reports, if it reports one.
    init?(_ message: String, _ refused: WireFailure.Refusal?) {
        guard let refused, let capability = Capability(rawValue: refused.capability), [.read, .write].contains(capability),
            refused.path.hasPrefix("/")
        else { return nil }
        let path = refused.path
        self.message = message
        access = Access(capability, ResolvedPath.resolve(path))
    }

    var description: String { message }
}

/// A package host that failed: it could not start, exited, hung or spoke the protocol wrong.
public struct HostError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// The end of the host's standard error, or of the build's output, if there is any.
    public let standardError: String
    /// What `standardError` is, for the heading it is shown under.
    let source: String

    init(_ message: String, standardError: String = "") {
        self.init(message, output: standardError, of: "the host's standard error")
    }

    /// An error with the end of `output`, shown under `source` (`the build's output`).
    init(_ message: String, output: String, of source: String) {
        self.message = message
        self.standardError = output
        self.source = source
    }

    public var description: String {
        let lines = Self.summary(of: standardError)
        guard !lines.isEmpty else { return message }
        return message + "\n\(source):\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }

    /// What helps of a host's standard error: the package's own last messages (the `Fatal
    /// error: …` line among them) and the line that says how it crashed — not the stack, the
    /// registers and the images of a crash report.
    static func summary(of text: String) -> [String] {
        let lines = TextSplitting.lines(text).filter { !$0.isEmpty }
        guard let report = lines.firstIndex(where: isCrashReportStart) else { return Array(lines.suffix(12)) }
        let own = lines[..<report].suffix(10)
        let how = lines[report...].first { $0.hasPrefix("*** Program crashed") || $0.hasPrefix("💣 Program crashed") }
        return Array(own) + (how.map { [$0] } ?? [])
    }

    private static func isCrashReportStart(_ line: String) -> Bool {
        ["*** Signal ", "*** Program crashed", "💣 Program crashed", "Current stack trace:", "Stack dump:", "Thread 0 crashed"]
            .contains { line.hasPrefix($0) }
    }
}
