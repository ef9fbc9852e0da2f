import ArgumentParser
import Foundation
import RelayKit
import RelayEngine
import RelayLanguage
import RelayRuntime

/// `--package PATH` (repeatable): Swift packages of actions to load, built if needed and run in
/// host processes of their own.
struct PackageOptions: ParsableArguments {
    @Option(name: .customLong("package"), help: ArgumentHelp("Load the Swift package of actions at this path (repeatable).", valueName: "path"))
    var paths: [String] = []

    /// A loader whose registry holds the built-in and linked actions plus these packages', loaded
    /// into a library of this command's own; exits with status 1 after reporting a package that
    /// cannot be loaded.
    func loader() async throws -> WorkflowLoader {
        try await Self.loader(packages: paths)
    }

    /// A loader with the built-in and linked actions plus the packages at `paths`; a package
    /// that cannot be loaded is reported under the `--package` flag that named it, unless the
    /// command named it otherwise (`relay package build PATH`).
    static func loader(packages paths: [String], namedByFlag: Bool = true) async throws -> WorkflowLoader {
        var registry = try RelayCommand.registry()
        var loaded: Set<String> = []
        let packages = LoadedPackages()
        for path in paths {
            let absolute = URL(fileURLWithPath: FileReference(path: path).originalPath).standardizedFileURL.path
            do {
                let package = try await packages.package(at: absolute, progress: Self.showProgress)
                try registry.register(hosted: package)
                loaded.insert(absolute)
                warnIfUnconfined()
            } catch {
                StandardStreams.writeError(namedByFlag ? "error: --package \(path): \(error)\n" : "error: \(error)\n")
                throw ExitStatus.runtimeError.exitCode
            }
        }
        return WorkflowLoader(registry: registry, loadedPackages: loaded, packages: packages)
    }

    /// Says once, when a package is loaded, that the kernel cannot confine its host here.
    static func warnIfUnconfined() {
        guard let warning = HostedPackage.confinementWarning else { return }
        let first = warnedLock.withLock {
            defer { warned = true }
            return !warned
        }
        if first { StandardStreams.writeError("warning: \(warning) (Docs/Security.md, \"What the kernel confines\")\n") }
    }

    private static let warnedLock = NSLock()
    nonisolated(unsafe) private static var warned = false

    /// Shows a build's progress line on standard error, terminal or log alike.
    @Sendable static func showProgress(_ line: String) {
        StandardStreams.writeError(line + "\n")
    }

    /// `loader` with the packages of the workflow at `path` loaded, each once `gate` trusts it;
    /// after reporting one that cannot be, exits with status 2 when the workflow names no package
    /// there, 4 when it is not trusted, else 1.
    static func loading(packagesOf path: String, into loader: WorkflowLoader, gate: AccessGate) async throws -> WorkflowLoader {
        do {
            let loading = try await loader.loadingPackages(of: path, gate: gate, progress: showProgress)
            if loading.loadedPackages.count > loader.loadedPackages.count { warnIfUnconfined() }
            return loading
        } catch {
            RelayCommand.report([error.diagnostic])
            if error.denial != nil { throw ExitStatus.permissionDenied.exitCode }
            throw (error.isInvalidWorkflow ? ExitStatus.invalid : ExitStatus.runtimeError).exitCode
        }
    }
}
