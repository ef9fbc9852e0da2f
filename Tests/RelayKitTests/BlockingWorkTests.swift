import Foundation
import Testing

@testable import RelayKit

/// Work that cannot suspend runs on threads of its own, kept a while for the next job
/// (`BlockingWork`, Docs/Reliability.md).
@Suite struct BlockingWorkTests {
    @Test("a job waiting for a later one is not queued in front of it: each job has a thread at once")
    func noJobWaitsBehindAnother() async throws {
        let released = DispatchSemaphore(value: 0)
        // Queued behind the first, the others would never run: the bound only ends such a
        // deadlock, and is long because a loaded machine may leave this task waiting a while.
        async let first: Bool = BlockingWork.run { _ in released.wait(timeout: .now() + 300) == .success }
        // Each of these starts while the first still waits: with a queue, none would run.
        for _ in 0..<4 {
            try await BlockingWork.run { _ in () }
        }
        released.signal()
        #expect(try await first)
    }

    @Test("many jobs at once each run, on as many threads as are busy, and their results come back in order")
    func manyJobs() async throws {
        let results = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for index in 0..<50 {
                group.addTask { (index, try await BlockingWork.run { _ in index * 2 }) }
            }
            var results = [Int](repeating: -1, count: 50)
            for try await (index, value) in group { results[index] = value }
            return results
        }
        #expect(results == (0..<50).map { $0 * 2 })
    }

    @Test("cancelling the task raises the job's stop flag")
    func cancelRaisesTheFlag() async throws {
        let task = Task {
            try await BlockingWork.run { flag in
                let deadline = Date().addingTimeInterval(300)
                while !flag.isRaised, Date() < deadline { usleep(1000) }
                return flag.isRaised
            }
        }
        try await Task.sleep(for: .milliseconds(20))
        task.cancel()
        #expect(try await task.value)
    }
}

/// Scratch folders of runs that never removed theirs are cleared a day on, off the run's way.
@Suite struct ScratchFolderClearingTests {
    @Test("a run folder a day old is removed, a newer one and anything not a run folder stay")
    func dayOldFoldersGo() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("relay-scratch-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["run-old", "run-new", "keep-old"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try Data("x".utf8).write(to: root.appendingPathComponent("run-file"))
        let twoDaysAgo = Date().addingTimeInterval(-2 * 86_400)
        for name in ["run-old", "keep-old", "run-file"] {
            try FileManager.default.setAttributes([.modificationDate: twoDaysAgo], ofItemAtPath: root.appendingPathComponent(name).path)
        }
        ScratchFolder.clearOldFolders(in: root.path)
        let left = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        #expect(left == ["keep-old", "run-file", "run-new"])
    }
}
