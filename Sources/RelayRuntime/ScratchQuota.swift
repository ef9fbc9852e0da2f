import Foundation
import RelayKit

/// Holds a run to its scratch folder's quota (Docs/Reliability.md, "The scratch folder"): while
/// the run goes on, the folder is measured four times a second, and once more when the run ends;
/// a run past the quota is stopped — the step under way is cancelled, and the programs it started
/// with it — and fails at that step. Whatever writes there (an action, a download, a program, a
/// package's host) is held to it alike.
enum ScratchQuota {
    /// How long the watch waits between two measures.
    static let interval: Duration = .milliseconds(250)

    /// Runs `work`, held to `folder`'s quota; the run's place is `position`.
    static func holding<T: Sendable>(
        _ folder: ScratchFolder, position: RunPosition, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        // The work's value comes as a list of one; the watch, which ends only by throwing or when
        // cancelled, as an empty one.
        let result = try await withThrowingTaskGroup(of: [T].self) { group in
            group.addTask { [try await work()] }
            group.addTask {
                while !Task.isCancelled {
                    try await Task.sleep(for: interval)
                    try await check(folder, position: position)
                }
                return []
            }
            defer { group.cancelAll() }
            while let ended = try await group.next() {
                if let value = ended.first { return value }
            }
            throw CancellationError()
        }
        try await check(folder, position: position)
        return result
    }

    /// Throws the run's error when `folder` is over its quota. The folder is measured on a thread
    /// of its own: a folder of many files takes a while.
    private static func check(_ folder: ScratchFolder, position: RunPosition) async throws {
        // Most runs never make the folder: nothing to measure, and no thread asked to.
        guard folder.isMade else { return }
        guard let problem = try await BlockingWork.run({ _ in folder.overQuota(held: { ChildProcess.bytesHeldRemoved(in: folder.folder.path) }) })
        else { return }
        let step = position.current
        var error = RuntimeError(problem, step: step?.name, at: step?.range)
        error.endsRun = true
        throw error
    }
}
