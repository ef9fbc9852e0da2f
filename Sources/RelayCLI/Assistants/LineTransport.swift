import Foundation
import Logging
import MCP
import RelayKit
import Synchronization

/// MCP over standard input and output, a message a line (the protocol's stdio transport): each
/// byte read is looked at once, however long the line, and a line longer than `limit` is refused
/// (answered as a message that does not parse) without being kept. The SDK's own transport looks
/// for the line's end from its start at every read, so a 10 MB message took minutes, during which
/// nothing else was answered. Reads and writes block a thread of their own, never a cooperative one.
actor LineTransport: Transport {
    nonisolated let logger = Logger(label: "relay.mcp") { _ in SwiftLogNoOpLogHandler() }
    /// The longest message read, in bytes.
    nonisolated let limit: Int
    private let messages: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var reading = false
    /// Held for each message's write: two sends under way (the actor lets one start while another
    /// waits for its thread) must not interleave their bytes.
    private nonisolated let writing = WriteLock()

    init(limit: Int = 64 << 20) {
        self.limit = limit
        (messages, continuation) = AsyncThrowingStream.makeStream()
    }

    func connect() async throws {
        guard !reading else { return }
        reading = true
        let (continuation, limit, writing) = (self.continuation, self.limit, self.writing)
        // Reads until standard input ends: a thread of its own, which a read may hold forever.
        Thread {
            Self.readLines(from: FileHandle.standardInput.fileDescriptor, limit: limit) { line in
                if let refusal = Self.refusal(of: line) {
                    // Answered here, on this thread of its own: the SDK would answer with an id it made up.
                    writing.lock.withLock { _ in try? FileHandle.standardOutput.write(contentsOf: refusal + Data("\n".utf8)) }
                } else {
                    continuation.yield(line)
                }
            }
            continuation.finish()
        }.start()
    }

    /// The protocol's error for a line that is no message — not JSON, JSON that is not a
    /// message, a line over the limit — with the id it gave, else null (JSON-RPC 2.0, section
    /// 5); nil for a line that may be one, which the SDK reads.
    static func refusal(of line: Data) -> Data? { Inspected(line).refusal }

    /// A message as read once: the error that refuses it, or, for a request, its id.
    struct Inspected: @unchecked Sendable {
        /// The protocol's error for it (`refusal(of:)`); nil for a message the SDK reads.
        var refusal: Data?
        /// A request's id, as given (a text or a whole number); nil for anything else.
        var requestID: Any?

        /// The id as a key (`s:text`, `n:42`), for telling requests in flight apart.
        var requestKey: String? {
            if let text = requestID as? String { return "s:" + text }
            return (requestID as? NSNumber).map { "n:\($0.int64Value)" }
        }

        init(_ line: Data) {
            guard line != overLimit else {
                refusal = encoded(-32700, "Parse error: the message is longer than the limit, and was not read", NSNull())
                return
            }
            guard let parsed = try? JSONSerialization.jsonObject(with: line, options: [.fragmentsAllowed]) else {
                refusal = encoded(-32700, "Parse error: the message is not JSON", NSNull())
                return
            }
            // MCP sends each message on its own (batches left the protocol in 2025-06-18).
            if parsed is [Any] {
                refusal = encoded(-32600, "Invalid Request: a batch of messages is not taken: send each on its own", NSNull())
                return
            }
            guard let object = parsed as? [String: Any] else {
                refusal = encoded(-32600, "Invalid Request: a message is a JSON object", NSNull())
                return
            }
            // An id is a text or a whole number: another (a fraction, true, an object, null) could not be answered by it.
            if object.keys.contains("id"), !isID(object["id"]) {
                refusal = encoded(-32600, "Invalid Request: an id is a text of at most \(longestID) characters, or a whole number", NSNull())
                return
            }
            if object["method"] is String {
                requestID = object["id"]
                return
            }
            if object["result"] != nil || object["error"] != nil { return }
            let given: Any = object["id"].flatMap { $0 is String || $0 is NSNumber ? $0 : nil } ?? NSNull()
            refusal = encoded(-32600, "Invalid Request: a message has a method, or is a response with a result or an error", given)
        }
    }

    /// Whether `value` is an id JSON-RPC answers by: a text, or a whole number (not a yes or no).
    fileprivate static func isID(_ value: Any?) -> Bool {
        // A long id would come back in every message about it: what it asks would be answered many times over.
        if let text = value as? String { return text.utf8.count <= longestID && !text.contains(where: \.isNewline) }
        // A yes or no is read as a number of type `c` (a char).
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return false }
        return number.doubleValue == number.doubleValue.rounded() && abs(number.doubleValue) < 9e15
    }

    fileprivate static func encoded(_ code: Int, _ message: String, _ id: Any) -> Data? {
        try? JSONSerialization.data(
            withJSONObject: ["jsonrpc": "2.0", "id": id, "error": ["code": code, "message": message]] as [String: Any], options: [.sortedKeys])
    }

    /// The longest text an id may be.
    static let longestID = 256

    /// What `readLines` delivers for a line over its limit.
    static let overLimit = Data("relay: a message over the limit was not read".utf8)

    func disconnect() async { continuation.finish() }

    func send(_ data: Data) async throws {
        var line = data
        line.append(UInt8(ascii: "\n"))
        let bytes = line
        let writing = self.writing
        try await BlockingWork.run { _ in
            try writing.lock.withLock { _ in try FileHandle.standardOutput.write(contentsOf: bytes) }
        }
    }

    func receive() -> AsyncThrowingStream<Data, any Error> { messages }

    /// Calls `deliver` with each line of `descriptor` (without its line end; an empty line is
    /// skipped), until it ends; a line over `limit` is delivered as `overLimit`.
    static func readLines(from descriptor: Int32, limit: Int, deliver: (Data) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var line = Data()
        var overLimit = false
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                var count: Int
                repeat { count = read(descriptor, bytes.baseAddress, bytes.count) } while count < 0 && errno == EINTR
                return count
            }
            guard count > 0 else { return }
            var start = 0
            while start < count {
                let end = buffer[start..<count].firstIndex(of: UInt8(ascii: "\n"))
                let piece = buffer[start..<(end ?? count)]
                if !overLimit {
                    if line.count + piece.count > limit {
                        overLimit = true
                        line = Data()
                    } else {
                        line.append(contentsOf: piece)
                    }
                }
                guard let end else { break }
                if overLimit {
                    deliver(Self.overLimit)
                } else if !line.isEmpty {
                    deliver(line)
                }
                line = Data()
                overLimit = false
                start = end + 1
            }
        }
    }
}

/// The lock a transport's writes take, shared with the threads that write.
private final class WriteLock: Sendable {
    let lock = Mutex(())
}
