import Foundation

extension IntentContext {
    /// Runs `work`, and if it lasts longer than half a second, reports `measure()` as the step's
    /// progress four times a second until it ends (the bar a terminal shows for a long copy or
    /// download); the bar is cleared at the end.
    public func showingProgress<T: Sendable>(
        _ measure: @escaping @Sendable () -> (fraction: Double, label: String),
        of work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                var shown = false
                do {
                    try await Task.sleep(for: .milliseconds(500))
                    while true {
                        let (fraction, label) = measure()
                        await reportProgress(fraction, label)
                        shown = true
                        try await Task.sleep(for: .milliseconds(250))
                    }
                } catch {
                    if shown { await reportProgress(1, nil) }
                    return nil
                }
            }
            var result: T?
            for try await value in group {
                if let value {
                    result = value
                    group.cancelAll()
                }
            }
            guard let result else { throw CancellationError() }
            return result
        }
    }
}
