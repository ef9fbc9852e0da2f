import Foundation
import RelayKit
import Testing

@testable import RelayCLI

@Suite("The language server's framing")
struct MessageFramingTests {
    /// The frames a reader makes of `bytes`, written to a file (of `size` bytes, the rest a hole).
    private func frames(_ parts: [[UInt8]], hole: (after: Int, size: Int)? = nil) throws -> [MessageFraming.Frame] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("relay-frames-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        for (index, part) in parts.enumerated() {
            try handle.write(contentsOf: part)
            if let hole, hole.after == index { try handle.seek(toOffset: try handle.offset() + UInt64(hole.size)) }
        }
        try handle.close()
        let descriptor = open(file.path, O_RDONLY)
        defer { close(descriptor) }
        var reader = MessageFraming.Reader(descriptor: descriptor)
        var frames: [MessageFraming.Frame] = []
        while let frame = reader.next() { frames.append(frame) }
        return frames
    }

    private func described(_ frame: MessageFraming.Frame) -> String {
        switch frame {
        case .message(let bytes): "message \(String(decoding: bytes, as: UTF8.self))"
        case .broken(let reason): "broken \(reason)"
        }
    }

    @Test("messages split anywhere, headers in any case, a missing length, one over the limit skipped unread, and an end inside a message")
    func frames() throws {
        let over = Limits.editorMessage + 1
        let read = try frames(
            [
                Array("Content-Length: 2\r\n\r\n{}content-length:  3\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n[1]".utf8),
                Array("X: y\r\n\r\n".utf8),
                Array("Content-Length: \(over)\r\n\r\n".utf8),
                Array("Content-Length: 4\r\n\r\nnull".utf8),
                Array("Content-Length: 10\r\n\r\nabc".utf8),
            ], hole: (after: 2, size: over))
        #expect(read.map(described) == [
            "message {}", "message [1]", "broken a message without a Content-Length that is a number",
            "broken a message of \(over) bytes; at most \(Limits.editorMessage) are read (Docs/Reliability.md, \"Limits\")", "message null",
            "broken the input ended inside a message of 10 bytes",
        ])
        // Headers past their limit, in one read or many, are refused.
        let padded = try frames([Array("X-Pad: \(String(repeating: "x", count: 60_000))\r\n\r\nContent-Length: 1\r\n\r\n1".utf8)])
        #expect(padded.map(described) == ["broken headers longer than \(MessageFraming.headerLimit) bytes", "message 1"])
        // Headers that never end are cut off at their limit.
        let endless = try frames([Array(repeating: UInt8(ascii: "a"), count: MessageFraming.headerLimit + 10)])
        #expect(endless.map(described).first == "broken headers longer than \(MessageFraming.headerLimit) bytes")
    }

    @Test("after a wrong Content-Length — a byte short, a byte long, not a number — the reader finds the next message's headers and goes on; headers ended by bare line feeds are read")
    func resynchronizes() throws {
        func message(_ body: String, length: String? = nil) -> [UInt8] { Array("Content-Length: \(length ?? String(body.utf8.count))\r\n\r\n\(body)".utf8) }
        let good = (1...3).map { message("[\($0)]") }
        for wrong in [message("{\"a\":1}", length: "6"), message("{\"a\":1}", length: "8"), message("{\"a\":1}", length: "12a"), message("{\"a\":1}", length: "-5")] {
            let read = try frames([wrong] + good).map(described)
            // The broken one is said; of the messages after it, at most the first is lost (a long
            // length took the start of its headers); the rest are read.
            #expect(read.contains("message [2]") && read.contains("message [3]"), "\(read)")
            #expect(read.filter { $0.hasPrefix("message [") }.count >= 2 && read.contains { $0.hasPrefix("broken") || $0 == "message {\"a\":1" }, "\(read)")
        }
        #expect(try frames([Array("Content-Length: 2\n\n{}".utf8)] + good).map(described) == ["message {}", "message [1]", "message [2]", "message [3]"])
        // Thousands of blocks of garbage, each said once, and the message after them read; line
        // breaks between messages are no garbage.
        let junk = Array(String(repeating: "a\r\n\r\n", count: 3_000).utf8)
        let afterJunk = try frames([junk, Array("\r\n".utf8)] + good).map(described)
        #expect(afterJunk.filter { $0.hasPrefix("broken") }.count == 3_000 && afterJunk.suffix(3) == ["message [1]", "message [2]", "message [3]"], "\(afterJunk.suffix(5))")
    }
}
