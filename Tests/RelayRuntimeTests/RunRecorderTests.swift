import Foundation
import RelayKit
import Testing

@testable import RelayRuntime

/// What the run history keeps of a step's output (Docs/Runs.md, "What is not kept").
@Suite("Run recorder")
struct RunRecorderTests {
    @Test("a preview is the first line, at most 80 characters, of values that say what they are cheaply")
    func preview() {
        #expect(RunRecorder.preview(.text("hello")) == "hello")
        #expect(RunRecorder.preview(.text("first\nsecond")) == "first…")
        #expect(RunRecorder.preview(.text(String(repeating: "a", count: 80))) == String(repeating: "a", count: 80))
        #expect(RunRecorder.preview(.text(String(repeating: "b", count: 81))) == String(repeating: "b", count: 80) + "…")
        #expect(RunRecorder.preview(.number(2.5)) == "2.5")
        #expect(RunRecorder.preview(.list([.number(1), .number(2)])) == "2 items")
        #expect(RunRecorder.preview(.list([.text("x")])) == "1 item")
        #expect(RunRecorder.preview(.nothing) == nil)
        #expect(RunRecorder.preview(.file(FileReference(path: "/tmp/a b.txt"))) == "/tmp/a b.txt")
    }

    @Test("a text of 50 MB on one line is previewed without reading it all")
    func longText() {
        let text = String(repeating: "x", count: 50_000_000)
        let started = ContinuousClock.now
        for _ in 0..<1_000 { _ = RunRecorder.preview(.text(text)) }
        #expect(ContinuousClock.now - started < .seconds(1))
        #expect(RunRecorder.preview(.text(text))?.hasSuffix("…") == true)
    }
}
