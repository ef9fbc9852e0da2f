import RelayKit

/// `text`: outputs its text, with `${…}` interpolated.
struct MakeText: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.gettext", title: "Text", parameters: ["WFTextActionText": "text"], defaults: ["WFTextActionText": ""]),
    ]
    static let name = "text"
    static let summary = "Outputs the given text, with ${…} replaced by variables' values."
    static let examples = [
        IntentExample("- text: Ada\n  as: name\n- text: \"Hello, ${name}\"", output: "Hello, Ada"),
    ]
    static let output = OutputType.text

    @Parameter(primary: true, summary: "The text; ${name} inserts a variable.") var text: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.text(text))
    }
}
