import Foundation
import Synchronization
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

        /// The bytes it holds.
        var size: Int {
            if case .message(let bytes) = self { return bytes.count }
            return 0
        }
    }

    /// The most a header block may take before its empty line.
    static let headerLimit = 8 << 10

    /// Frames read from `descriptor` on a thread of its own (its reads block; no task waits on
    /// them), until the input ends. What is read and not yet taken by the server is at most one
    /// message's limit (`Limits.editorMessage`) in all: past it, the reader waits for the server
    /// (and the editor then waits on its pipe).
    static func frames(from descriptor: Int32) -> some AsyncSequence<Frame, Never> {
        let (stream, continuation) = AsyncStream<Frame>.makeStream()
        let waiting = Mutex(0)
        let thread = Thread {
            var reader = Reader(descriptor: descriptor)
            while let frame = reader.next() {
                while waiting.withLock({ $0 > 0 && $0 + frame.size > Limits.editorMessage }) { usleep(1_000) }
                waiting.withLock { $0 += frame.size }
                continuation.yield(frame)
            }
            continuation.finish()
        }
        thread.name = "relay-lsp-input"
        thread.start()
        return stream.map { frame in
            waiting.withLock { $0 -= frame.size }
            return frame
        }
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
        /// What is read and not yet taken: `storage[start...]` (taken bytes are dropped from the
        /// front now and then, not at each message, so that many small messages cost no more
        /// than one big one).
        private var storage: [UInt8] = []
        private var start = 0
        private var ended = false
        /// Bytes of a message too large to read, still to be skipped.
        private var skipping = 0
        /// Whether the rest of a line too long for headers is still to be skipped.
        private var skippingLine = false

        init(descriptor: Int32) { self.descriptor = descriptor }

        private var buffer: ArraySlice<UInt8> { storage[start...] }

        private mutating func take(_ count: Int) {
            start += min(count, storage.count - start)
            if start == storage.count {
                storage.removeAll(keepingCapacity: true)
                start = 0
            } else if start > 64 << 10, start * 2 > storage.count {
                storage.removeFirst(start)
                start = 0
            }
        }

        private mutating func takeAll() { take(storage.count - start) }

        /// The next frame, or nil at the input's end.
        mutating func next() -> Frame? {
            // What is left of a message too large to read, a part at a time.
            while skipping > 0 {
                if buffer.isEmpty, !fill() { return nil }
                let taken = min(skipping, buffer.count)
                take(taken)
                skipping -= taken
            }
            while skippingLine {
                if buffer.isEmpty, !fill() { return nil }
                if let newline = buffer.firstIndex(of: 10) {
                    take(newline - buffer.startIndex + 1)
                    skippingLine = false
                } else {
                    takeAll()
                }
            }
            // The headers, up to the empty line; anything before them that is no header (what a
            // wrong length left, or garbage) is passed over, so that the next message is read.
            // Each look is bounded by the headers' limit, however much is waiting.
            var headerEnd: (index: Int, length: Int)?
            while true {
                // Line breaks between messages are no harm.
                let blank = buffer.prefix { $0 == 13 || $0 == 10 }.count
                if blank > 0, blank < buffer.count { take(blank) }
                if let garbage = Self.garbage(in: buffer) {
                    take(garbage)
                    return .broken("\(garbage) bytes that are no message's headers (a Content-Length that was not the body's length?)")
                }
                if let end = Self.emptyLine(in: buffer.prefix(MessageFraming.headerLimit + 4)) {
                    headerEnd = end
                    break
                }
                if buffer.count > MessageFraming.headerLimit {
                    // No end within the limit: passed over to the end of the line they are on,
                    // however long it is.
                    if let newline = buffer.firstIndex(of: 10) {
                        take(newline - buffer.startIndex + 1)
                    } else {
                        takeAll()
                        skippingLine = true
                    }
                    return .broken("headers longer than \(MessageFraming.headerLimit) bytes")
                }
                guard fill() else {
                    if buffer.allSatisfy({ $0 == 13 || $0 == 10 }) { return nil }
                    takeAll()
                    return .broken("the input ended inside a message's headers")
                }
            }
            guard let headerEnd else { return nil }
            let headers = String(decoding: buffer.prefix(headerEnd.index), as: UTF8.self)
            take(headerEnd.index + headerEnd.length)
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
                    takeAll()
                    return .broken("the input ended inside a message of \(length) bytes")
                }
            }
            let body = Array(buffer.prefix(length))
            take(length)
            return .message(body)
        }

        /// Reads more of the input into the buffer; false at its end.
        private mutating func fill() -> Bool {
            guard !ended else { return false }
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    storage += chunk[..<count]
                    return true
                }
                if count < 0, errno == EINTR { continue }
                ended = true
                return false
            }
        }

        /// Where the headers' end (`\r\n\r\n`, or `\n\n` from a client that ends lines so)
        /// starts in `bytes`, from their start, and its length.
        private static func emptyLine(in bytes: ArraySlice<UInt8>) -> (index: Int, length: Int)? {
            var index = bytes.startIndex
            while index + 1 < bytes.endIndex {
                if bytes[index] == 10, bytes[index + 1] == 10 { return (index - bytes.startIndex, 2) }
                if index + 3 < bytes.endIndex, bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 {
                    return (index - bytes.startIndex, 4)
                }
                index += 1
            }
            return nil
        }

        /// How many bytes at the start of `bytes` are no header: a first line that is no header
        /// (`Name: value`) — up to a `Content-Length:` in it, when one is there (what a short
        /// length left before the next message's headers). Nil when they start with a header, or
        /// when the first line has not all come.
        static func garbage(in bytes: ArraySlice<UInt8>) -> Int? {
            let window = bytes.prefix(MessageFraming.headerLimit)
            guard let lineEnd = window.firstIndex(of: 10), !isHeader(bytes[..<lineEnd]) else { return nil }
            let header = headerStart(in: bytes[..<lineEnd]) ?? lineEnd + 1
            return header - bytes.startIndex
        }

        /// Where `Content-Length:` starts in `line`, after its first byte.
        private static func headerStart(in line: ArraySlice<UInt8>) -> Int? {
            let name = Array("content-length:".utf8)
            var at = line.startIndex + 1
            while at + name.count <= line.endIndex {
                var matches = true
                for offset in 0..<name.count where bytesDiffer(line[at + offset], name[offset]) {
                    matches = false
                    break
                }
                if matches { return at }
                at += 1
            }
            return nil
        }

        private static func bytesDiffer(_ byte: UInt8, _ lowercase: UInt8) -> Bool {
            byte != lowercase && (byte | 0x20) != lowercase
        }

        /// Whether a line is a header: a name of letters and hyphens, a colon.
        private static func isHeader(_ line: ArraySlice<UInt8>) -> Bool {
            guard let colon = line.firstIndex(of: 58), colon > line.startIndex else { return false }
            return line[..<colon].allSatisfy { ($0 | 0x20) >= 97 && ($0 | 0x20) <= 122 || $0 == 45 }
        }
    }
}
