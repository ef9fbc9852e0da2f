import RelayActions
import RelayKit
import RelayLanguage

/// A workflow file through everything `relay check --permissions` does: libyaml, Relay's node
/// builder, the parser, the checker and the report. Every error it finds has a place in the file.
enum WorkflowHarness {
    private static let registry: ActionRegistry = {
        var registry = ActionRegistry()
        try? registry.register(BuiltinActions.self, prefixed: false)
        return registry
    }()

    static func check(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        let file = SourceFile(path: "fuzz.yaml", text: text)
        let (workflow, parsing) = WorkflowParser.parse(file)
        var diagnostics = parsing
        if let workflow {
            let checked = Checker.check(workflow, registry: registry)
            diagnostics += checked.diagnostics
            if let plan = checked.workflow { _ = PermissionReport(plan, entityTypes: registry.entityTypes) }
        }
        let lines = file.lineCount
        for diagnostic in diagnostics where diagnostic.severity == .error {
            guard let range = diagnostic.range else { return "the error '\(diagnostic.message)' has no place in the file" }
            let length = file.line(range.start.line).count
            guard range.start.line >= 1, range.start.line <= lines, range.start.column >= 1, range.start.column <= length + 1 else {
                return "the error '\(diagnostic.message)' is at \(range.start.line):\(range.start.column), outside the file's \(lines) lines (that line has \(length) characters)"
            }
        }
        return nil
    }
}
