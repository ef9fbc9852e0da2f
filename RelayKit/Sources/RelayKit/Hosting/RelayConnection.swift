import Foundation

/// A package host's connection to Relay (Relay's to a host is `HostConnection`): JSON lines in on
/// standard input, out on standard output. Replies to the host's own callbacks are matched to
/// the callbacks waiting for them.
final class RelayConnection: @unchecked Sendable {
    private let lock = NSLock()
    private var nextCallback = 1
    private var waiting: [Int: CheckedContinuation<Value, any Error>] = [:]
    private let output = FileHandle.standardOutput

    /// Writes one message as a line.
    func send(_ message: WireMessage) {
        let bytes = message.bytes
        lock.withLock { output.write(Data(bytes)) }
    }

    /// Asks Relay something during a request (`confirm`, `choose`, …) and waits for the answer.
    func call<Callback: HostCallback>(_ callback: Callback, for request: Int) async throws -> Callback.Reply {
        let params = try callback.params
        let reply = try await call(Callback.method, for: request, params)
        return try ValueCoding.decode(Callback.Reply.self, from: reply)
    }

    private func call(_ method: String, for request: Int, _ params: ValueDictionary) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let id = lock.withLock {
                let id = nextCallback
                nextCallback += 1
                waiting[id] = continuation
                return id
            }
            send(.callback(id: id, request: request, method: method, params: params))
        }
    }

    /// Resumes the callback a reply answers.
    func resolve(_ callback: Int, _ outcome: WireOutcome) {
        let continuation = lock.withLock { waiting.removeValue(forKey: callback) }
        switch outcome {
        case .result(let value): continuation?.resume(returning: value)
        case .failure(let failure):
            continuation?.resume(throwing: failure.cancelled ? RunCancelled(failure.message) : IntentError(failure.message))
        }
    }

    /// Fails every waiting callback: standard input has closed.
    func closeAll() {
        let all = lock.withLock {
            let all = waiting.values
            waiting.removeAll()
            return all
        }
        for continuation in all { continuation.resume(throwing: IntentError("relay closed the connection")) }
    }

    /// Reads lines from standard input on a thread of its own, handing each to `handle`; returns at end of input.
    func readLines(_ handle: @escaping @Sendable (String) -> Void) async {
        await withCheckedContinuation { (finished: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                while let line = Swift.readLine(strippingNewline: true) {
                    if !line.isEmpty { handle(line) }
                }
                finished.resume()
            }
            thread.start()
        }
    }
}
