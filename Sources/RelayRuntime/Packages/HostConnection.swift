import Foundation
import RelayKit

/// A running package host (`relay-host` of a package) and the protocol over its pipes
/// (Docs/PackageProtocol.md): requests out as JSON lines on its standard input, answers and
/// callbacks in on its standard output, its standard error kept for error messages.
///
/// A host that exits, answers garbage or does not answer in time fails the requests waiting on
/// it with a `HostError` carrying the end of its standard error; it is then stopped, and the next
/// request starts a new one (`HostedPackage`).
final class HostConnection: @unchecked Sendable {
    /// Handles a callback of a request (`confirm`, `choose`, `progress` …) and returns its answer.
    typealias Callbacks = @Sendable (_ method: String, _ params: ValueDictionary) async throws -> Value

    private struct Pending {
        let continuation: CheckedContinuation<Value, any Error>
        let callbacks: Callbacks?
        let method: String
        let timeout: Duration
        let deadline: ContinuousClock.Instant
    }

    let packageName: String
    private let process = Process()
    private let toHost: FileHandle
    private let lock = NSLock()
    private var nextID = 1
    private var pending: [Int: Pending] = [:]
    private var standardError = Data()
    /// Why the connection is unusable, once it is.
    private var failure: String?

    /// Starts `executable` with `arguments`.
    init(executable: URL, arguments: [String] = [], packageName: String) throws {
        self.packageName = packageName
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        toHost = input.fileHandleForWriting
        do {
            try process.run()
        } catch {
            throw HostError("cannot start the host of package '\(packageName)' (\(executable.path)): \(error.localizedDescription)")
        }
        startReading(output.fileHandleForReading, errors: errors.fileHandleForReading)
        startWatching()
    }

    /// Checks the waiting requests' deadlines ten times a second, for as long as the host runs:
    /// one thread for all requests, rather than a timer for each.
    private func startWatching() {
        Thread { [weak self] in
            while let self, self.process.isRunning {
                Thread.sleep(forTimeInterval: 0.1)
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
    var isUsable: Bool { lock.withLock { failure == nil } && process.isRunning }

    /// Sends a request and waits for its answer, handing its callbacks to `callbacks`. Fails after
    /// `timeout`, or when the calling task is cancelled (a step's `timeout:`), stopping the host.
    func request(_ method: String, _ params: ValueDictionary = [:], timeout: Duration, callbacks: Callbacks? = nil) async throws -> Value {
        let id = lock.withLock {
            let id = nextID
            nextID += 1
            return id
        }
        let deadline = ContinuousClock.now + timeout
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let refused: String? = lock.withLock {
                    if let failure { return failure }
                    pending[id] = Pending(continuation: continuation, callbacks: callbacks, method: method, timeout: timeout, deadline: deadline)
                    return nil
                }
                if let refused {
                    continuation.resume(throwing: HostError(refused, standardError: standardErrorText))
                    return
                }
                send(["id": .number(Double(id)), "method": .text(method), "params": .dictionary(params)])
            }
        } onCancel: {
            self.fail("the step was stopped while the host of package '\(self.packageName)' was answering '\(method)'", stop: true)
        }
    }

    /// Closes the host's standard input (it ends) and stops it if it lingers.
    func close() {
        try? toHost.close()
        let process = process
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) { if process.isRunning { process.terminate() } }
    }

    /// Stops the host at once.
    func terminate() {
        try? toHost.close()
        if process.isRunning { process.terminate() }
    }

    // MARK: - Reading

    private func startReading(_ output: FileHandle, errors: FileHandle) {
        Thread {
            var buffer = Data()
            while true {
                let chunk = output.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = buffer[buffer.startIndex..<newline]
                    buffer = Data(buffer[buffer.index(after: newline)...])
                    if !line.isEmpty { self.received(String(decoding: line, as: UTF8.self)) }
                }
            }
            self.process.waitUntilExit()
            let status = self.process.terminationStatus
            let how = self.process.terminationReason == .uncaughtSignal ? "was killed by signal \(status)" : "exited with status \(status)"
            self.fail("the host of package '\(self.packageName)' \(how)", stop: false)
        }.start()
        Thread {
            while true {
                let chunk = errors.availableData
                if chunk.isEmpty { break }
                self.lock.withLock {
                    self.standardError.append(chunk)
                    if self.standardError.count > 16_384 { self.standardError = Data(self.standardError.suffix(8_192)) }
                }
            }
        }.start()
    }

    private func received(_ line: String) {
        let message: ValueDictionary
        do {
            guard case .dictionary(let object) = try JSONReader.value(from: line) else { throw WireError("not a JSON object") }
            message = object
        } catch {
            fail("the host of package '\(packageName)' spoke the protocol wrong: \(error) in \(line.prefix(200))", stop: true)
            return
        }
        if case .number(let id)? = message["id"] {
            guard let waiting = lock.withLock({ pending.removeValue(forKey: Int(id)) }) else { return }
            if case .dictionary(let error)? = message["error"] {
                let text = error["message"]?.textValue ?? "the action failed"
                waiting.continuation.resume(throwing: error["cancelled"] == .boolean(true) ? RunCancelled(text) : IntentError(text))
            } else {
                waiting.continuation.resume(returning: message["result"] ?? .nothing)
            }
        } else if case .number(let callback)? = message["callback"] {
            answerCallback(Int(callback), message)
        } else if case .number(let fraction)? = message["progress"], case .number(let request)? = message["request"] {
            let callbacks = lock.withLock { pending[Int(request)]?.callbacks }
            Task { _ = try? await callbacks?("progress", ["fraction": .number(fraction), "label": message["label"] ?? .nothing]) }
        } else {
            fail("the host of package '\(packageName)' sent a message that is neither an answer nor a callback: \(line.prefix(200))", stop: true)
        }
    }

    private func answerCallback(_ callback: Int, _ message: ValueDictionary) {
        guard case .number(let request)? = message["request"], let callbacks = lock.withLock({ pending[Int(request)]?.callbacks }) else {
            send(["reply": .number(Double(callback)), "error": ["message": "no request of that number is waiting"]])
            return
        }
        let method = message["method"]?.textValue ?? ""
        let params: ValueDictionary = if case .dictionary(let params)? = message["params"] { params } else { [:] }
        Task {
            do {
                let result = try await callbacks(method, params)
                send(["reply": .number(Double(callback)), "result": result])
            } catch let cancelled as RunCancelled {
                send(["reply": .number(Double(callback)), "error": ["message": .text(cancelled.reason), "cancelled": true]])
            } catch {
                send(["reply": .number(Double(callback)), "error": ["message": .text(Interpreter.message(for: error))]])
            }
        }
    }

    // MARK: - Writing and failing

    private func send(_ message: Value) {
        let line = JSONWriter.string(for: message, pretty: false) + "\n"
        lock.withLock {
            guard failure == nil else { return }
            do {
                try toHost.write(contentsOf: Data(line.utf8))
            } catch {
                failure = "cannot write to the host of package '\(packageName)': it has closed its input"
            }
        }
    }

    /// Fails every waiting request with `reason` (the first reason sticks), stopping the host if asked.
    private func fail(_ reason: String, stop: Bool) {
        let waiting: [Pending] = lock.withLock {
            if failure == nil { failure = reason }
            let waiting = Array(pending.values)
            pending.removeAll()
            return waiting
        }
        if stop { terminate() }
        // Give the standard error reader a moment to collect the host's last words.
        if !waiting.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        let message = lock.withLock { failure ?? reason }
        for request in waiting { request.continuation.resume(throwing: HostError(message, standardError: standardErrorText)) }
    }

    private var standardErrorText: String {
        lock.withLock { String(decoding: standardError, as: UTF8.self) }
    }

    private static func seconds(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

/// A package host that failed: it could not start, exited, hung or spoke the protocol wrong.
public struct HostError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// The end of the host's standard error (or build log), if there is any.
    public let standardError: String

    init(_ message: String, standardError: String = "") {
        self.message = message
        self.standardError = standardError
    }

    public var description: String {
        let lines = standardError.split(separator: "\n", omittingEmptySubsequences: true).suffix(12)
        guard !lines.isEmpty else { return message }
        return message + "\nthe host's standard error:\n" + lines.map { "  " + $0 }.joined(separator: "\n")
    }
}
