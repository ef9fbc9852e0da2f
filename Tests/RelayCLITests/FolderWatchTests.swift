import Foundation
import Testing

@testable import RelayCLI

/// A watched folder where the system does not tell of changes (macOS): the watch looks each
/// second, and a file is offered once it is the same two looks in a row.
@Suite("Watching a folder by looking")
struct FolderWatchTests {
    /// What the watch offered, in order, and what it said.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [String] = []
        func add(_ event: String) { lock.withLock { events.append(event) } }
        var all: [String] { lock.withLock { events } }
    }

    /// Waits until `done` holds of what was seen; an issue after a minute.
    private func wait(for seen: Seen, _ done: ([String]) -> Bool) async throws {
        for _ in 0..<600 where !done(seen.all) { try await Task.sleep(for: .milliseconds(100)) }
        #expect(done(seen.all), "\(seen.all)")
    }

    @Test("by looking: a file written is offered once, as created, then changed and removed; files there before are not; a folder gone is said so, and watched again when back")
    func looking() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-look-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "old".write(to: folder.appendingPathComponent("before.txt"), atomically: true, encoding: .utf8)
        let seen = Seen()
        let watch = FolderWatch(
            folder: folder.path, glob: "*.txt", events: [.created, .changed, .removed], polling: true,
            deliver: { seen.add("\($0.kind.rawValue) \(($0.path as NSString).lastPathComponent)") }, note: { seen.add("note: \($0)") })
        #expect(watch.start())
        defer { watch.stop() }
        // Once it has looked a first time.
        for _ in 0..<600 where watch.looks < 1 { try await Task.sleep(for: .milliseconds(50)) }
        try "one".write(to: folder.appendingPathComponent("new.txt"), atomically: true, encoding: .utf8)
        try "skip".write(to: folder.appendingPathComponent("other.pdf"), atomically: true, encoding: .utf8)
        try await wait(for: seen) { $0.contains("created new.txt") }
        try "one and more".write(to: folder.appendingPathComponent("new.txt"), atomically: false, encoding: .utf8)
        try await wait(for: seen) { $0.contains("changed new.txt") }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("new.txt"))
        try await wait(for: seen) { $0.contains("removed new.txt") }
        #expect(seen.all == ["created new.txt", "changed new.txt", "removed new.txt"], "\(seen.all)")
        try FileManager.default.removeItem(at: folder)
        try await wait(for: seen) { $0.contains { $0.contains("is not there") } }
        #expect(watch.trouble != nil)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try await wait(for: seen) { $0.contains { $0.contains("is back, and watched again") } }
        #expect(watch.trouble == nil)
    }
}
