import Foundation
import RelayKit
import RelayLanguage

/// Loads a workflow file: reads it, parses it and checks it against the registry.
public struct WorkflowLoader: Sendable {
    public let registry: ActionRegistry
    /// The absolute paths of the packages whose actions the registry holds.
    public let loadedPackages: Set<String>

    public init(registry: ActionRegistry, loadedPackages: Set<String> = []) {
        self.registry = registry
        self.loadedPackages = loadedPackages
    }

    /// Loads the file at `path` (shown in diagnostics as `path`). `predefined` names variables
    /// given from outside the file. The workflow is nil when there were errors.
    public func load(path: String, predefined: Set<String> = []) -> (workflow: CheckedWorkflow?, diagnostics: [Diagnostic]) {
        let text: String
        do {
            text = try Self.readText(path)
        } catch {
            return (nil, [.error(error.message, at: nil)])
        }
        return load(SourceFile(path: path, text: text), predefined: predefined)
    }

    /// Parses and checks `file`.
    public func load(_ file: SourceFile, predefined: Set<String> = []) -> (workflow: CheckedWorkflow?, diagnostics: [Diagnostic]) {
        let (parsed, parseDiagnostics) = WorkflowParser.parse(file, entityTypes: registry.entityTypes)
        guard let parsed else { return (nil, parseDiagnostics) }
        let (checked, checkDiagnostics) = Checker.check(parsed, registry: registry, predefined: predefined)
        var packageDiagnostics: [Diagnostic] = []
        for package in parsed.packages where !loadedPackages.contains(Self.packagePath(package.text, in: file.path)) {
            packageDiagnostics.append(
                .error(
                    "the package '\(package.text)' is not loaded", at: package.range,
                    notes: ["note: 'relay run' and 'relay check' load a workflow's packages; 'run-workflow' does not yet"]))
        }
        let diagnostics = parseDiagnostics + packageDiagnostics + checkDiagnostics
        let failed = diagnostics.contains { $0.severity == .error }
        return (failed ? nil : checked, diagnostics)
    }

    /// The absolute path of a `packages:` entry of the workflow at `workflowPath`.
    static func packagePath(_ entry: String, in workflowPath: String) -> String {
        let expanded = FileReference(path: entry).originalPath
        if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded).standardizedFileURL.path }
        let folder = URL(fileURLWithPath: workflowPath).deletingLastPathComponent()
        return folder.appendingPathComponent(expanded).standardizedFileURL.path
    }

    /// This loader with the packages that the workflow at `path` names in `packages:` loaded
    /// (built if needed) and registered. Nothing happens for a workflow without packages, or one
    /// that does not parse (loading it reports why).
    public func loadingPackages(of path: String, from library: PackageLibrary, progress: @escaping @Sendable (String) -> Void)
        async throws(PackageLoadFailure) -> WorkflowLoader
    {
        guard let text = try? Self.readText(path), let parsed = WorkflowParser.parse(SourceFile(path: path, text: text)).workflow else {
            return self
        }
        var registry = registry
        var loaded = loadedPackages
        for entry in parsed.packages {
            let packagePath = Self.packagePath(entry.text, in: path)
            guard !loaded.contains(packagePath) else { continue }
            do {
                let package = try await library.package(at: packagePath, progress: progress)
                try registry.register(hosted: package)
            } catch let error as HostError {
                throw PackageLoadFailure(diagnostic: .error("cannot load the package '\(entry.text)': \(error)", at: entry.range))
            } catch {
                throw PackageLoadFailure(diagnostic: .error("cannot load the package '\(entry.text)': \(error)", at: entry.range))
            }
            loaded.insert(packagePath)
        }
        return WorkflowLoader(registry: registry, loadedPackages: loaded)
    }

    /// Reads a UTF-8 text file, with a message fit for users on failure.
    public static func readText(_ path: String) throws(FileReadError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw FileReadError(message: "no such file: '\(path)'")
        }
        guard !isDirectory.boolValue else { throw FileReadError(message: "'\(path)' is a folder, not a workflow file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileReadError(message: "cannot read '\(path)' (permission denied?)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw FileReadError(message: "'\(path)' is not UTF-8 text")
        }
        return text
    }
}

/// A package of a workflow's `packages:` that could not be loaded (a runtime error: exit 1).
public struct PackageLoadFailure: Error, Sendable {
    public let diagnostic: Diagnostic
}

/// A file that could not be read.
public struct FileReadError: Error, Sendable {
    public let message: String
}
