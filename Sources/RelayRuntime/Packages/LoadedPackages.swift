import Foundation
import RelayKit

/// The packages a command has loaded from paths, each loaded (built and started) once. Each
/// command makes its own and hands it on in its `WorkflowLoader`; nothing is shared process-wide.
public actor LoadedPackages {
    private var loading: [String: Task<HostedPackage, any Error>] = [:]

    public init() {}

    /// The package at the absolute `path`, loading it on first use.
    public func package(at path: String, progress: @escaping @Sendable (String) -> Void) async throws -> HostedPackage {
        if let known = loading[path] { return try await known.value }
        let task = Task { () async throws -> HostedPackage in try await HostedPackage.load(path: path, progress: progress) }
        loading[path] = task
        do {
            return try await task.value
        } catch {
            loading[path] = nil
            throw error
        }
    }

    /// Ends every package host (each also ends on its own when relay exits: its input closes).
    public func closeAll() async {
        for task in loading.values { (try? await task.value)?.close() }
        loading.removeAll()
    }
}
