import Foundation
import RelayKit

internal import CPipeSignal

/// The Language Server Protocol's framing on a pipe (Docs/Editors.md): each message is headers
/// (`Content-Length: N`), an empty line, and N bytes of JSON.
enum MessageFraming {
    /// What the reader made of the next bytes.
    enum Frame: Sendable {
        case message([UInt8])
        /// Bytes that are no message, and why; the reader goes on after them.
        case broken(String)
    }

    /// The most a header block may take before its empty line.
    static let headerLimit = 8 << 10

    /// Frames read from `descriptor` on a thread of its own (its reads block; no task waits on
    /// them), until the input ends.
    static func frames(from descriptor: Int32) -> AsyncStream<Frame> {
        let (stream, continuation) = AsyncStream<Frame>.makeStream(bufferingPolicy: .bufferingOldest(64))
        let thread = Thread {
            var reader = Reader(descriptor: descriptor)
            while let frame = reader.next() {
                // A full buffer waits for the server to take some (the client then waits on its pipe).
                while case .dropped = continuation.yield(frame) { usleep(1_000) }
            }
            continuation.finish()
        }
        thread.name = "relay-lsp-input"
        thread.start()
        return stream
    }

    /// Writes `body` as one framed message; false when nobody reads any more.
    @discardableResult
    static func write(_ body: String, to descriptor: Int32) -> Bool {
        let bytes = Array("Content-Length: \(body.utf8.count)\r\n\r\n".utf8) + Array(body.utf8)
        return bytes.withUnsafeBytes { relay_write_all(descriptor, $0.baseAddress, $0.count) } == 0
    }

    /// Reads frames, blocking, from a descriptor.
    struct Reader {
        let descriptor: Int32
        private var buffer: [UInt8] = []
        private var ended = false
        /// Bytes of a message too large to read, still to be skipped.
        private var skipping = 0

        init(descriptor: Int32) { self.descriptor = descriptor }

        /// The next frame, or nil at the input's end.
        mutating func next() -> Frame? {
            // What is left of a message too large to read, a part at a time.
            while skipping > 0 {
                if buffer.isEmpty, !fill() { return nil }
                let taken = min(skipping, buffer.count)
                buffer.removeFirst(taken)
                skipping -= taken
            }
            // The headers, up to the empty line.
            var headerEnd: Int?
            while true {
                if let end = Self.emptyLine(in: buffer) {
                    guard end <= MessageFraming.headerLimit else {
                        buffer.removeFirst(end + 4)
                        return .broken("headers longer than \(MessageFraming.headerLimit) bytes")
                    }
                    headerEnd = end
                    break
                }
                if buffer.count > MessageFraming.headerLimit {
                    buffer.removeAll()
                    return .broken("headers longer than \(MessageFraming.headerLimit) bytes")
                }
                guard fill() else {
                    if buffer.allSatisfy({ $0 == 13 || $0 == 10 }) { return nil }
                    buffer.removeAll()
                    return .broken("the input ended inside a message's headers")
                }
            }
            guard let headerEnd else { return nil }
            let headers = String(decoding: buffer[..<headerEnd], as: UTF8.self)
            buffer.removeFirst(headerEnd + 4)
            var length: Int?
            for line in headers.split(whereSeparator: \.isNewline) {
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" else { continue }
                length = Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
            guard let length, length >= 0 else { return .broken("a message without a Content-Length that is a number") }
            guard length <= Limits.editorMessage else {
                // Said at once, then skipped unread as it comes: the next message may follow it.
                skipping = length
                return .broken("a message of \(length) bytes; at most \(Limits.editorMessage) are read (Docs/Reliability.md, \"Limits\")")
            }
            while buffer.count < length {
                guard fill() else {
                    buffer.removeAll()
                    return .broken("the input ended inside a message of \(length) bytes")
                }
            }
            let body = Array(buffer[..<length])
            buffer.removeFirst(length)
            return .message(body)
        }

        /// Reads more of the input into the buffer; false at its end.
        private mutating func fill() -> Bool {
            guard !ended else { return false }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    buffer += chunk[..<count]
                    return true
                }
                if count < 0, errno == EINTR { continue }
                ended = true
                return false
            }
        }

        /// Where the first `\r\n\r\n` starts.
        private static func emptyLine(in bytes: [UInt8]) -> Int? {
            guard bytes.count >= 4 else { return nil }
            for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index
            }
            return nil
        }
    }
}
