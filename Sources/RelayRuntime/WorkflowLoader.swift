import Foundation
import RelayKit
import RelayLanguage

/// Loads a workflow file: reads it, parses it and checks it against the registry.
public struct WorkflowLoader: Sendable {
    public let registry: ActionRegistry

    public init(registry: ActionRegistry) { self.registry = registry }

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
        let diagnostics = parseDiagnostics + checkDiagnostics
        let failed = diagnostics.contains { $0.severity == .error }
        return (failed ? nil : checked, diagnostics)
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

/// A file that could not be read.
public struct FileReadError: Error, Sendable {
    public let message: String
}
