import RelayActions
import RelayKit

@testable import RelayLanguage

/// The built-in registry, made once.
let builtinRegistry: ActionRegistry = {
    var registry = ActionRegistry()
    try? registry.register(BuiltinActions.self, prefixed: false)
    return registry
}()

/// Parses and checks `yaml`, returning every diagnostic.
func diagnostics(_ yaml: String, path: String = "test.yaml", predefined: Set<String> = []) -> [Diagnostic] {
    let file = SourceFile(path: path, text: yaml)
    let (workflow, parseDiagnostics) = WorkflowParser.parse(file)
    guard let workflow else { return parseDiagnostics }
    return parseDiagnostics + Checker.check(workflow, registry: builtinRegistry, predefined: predefined).diagnostics
}

/// Parses and checks `yaml`, which must be valid.
func checked(_ yaml: String) -> CheckedWorkflow? {
    let file = SourceFile(path: "test.yaml", text: yaml)
    guard let workflow = WorkflowParser.parse(file).workflow else { return nil }
    return Checker.check(workflow, registry: builtinRegistry).workflow
}

/// The YAML tree of `text`.
func yaml(_ text: String) throws(Diagnostic) -> YAMLNode {
    try YAMLParser.parse(SourceFile(path: "test.yaml", text: text))
}

extension Diagnostic {
    /// `line:column: message`, for compact assertions.
    var summary: String {
        "\(range?.start.line ?? 0):\(range?.start.column ?? 0): \(message)"
    }
}
