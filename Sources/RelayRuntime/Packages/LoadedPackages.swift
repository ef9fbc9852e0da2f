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
        return try await load(path) { try await HostedPackage.load(path: path, progress: progress) }
    }

    /// The package at the absolute `path` when its host is built for its sources as they are
    /// now, else nil: nothing is built.
    public func builtPackage(at path: String) async throws -> HostedPackage? {
        if let known = loading[path] { return try await known.value }
        guard let executable = try PackageBuilder.builtHost(forPackageAt: path) else { return nil }
        return try await load(path) { try await HostedPackage.load(path: path, executable: executable) }
    }

    /// The package at `path` as `make` loads it, kept for the next use; a failure is not kept.
    private func load(_ path: String, _ make: @escaping @Sendable @concurrent () async throws -> HostedPackage) async throws -> HostedPackage {
        let task = Task(operation: make)
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
