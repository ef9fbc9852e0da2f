import RelayKit

/// `combine-text`: joins a list into one text.
struct CombineText: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.text.combine", title: "Combine Text", parameters: ["WFInput": "input", "text": "input", "WFTextSeparator": "with"],
            values: ["WFTextSeparator": ["New Lines": "newline", "Spaces": " "]], defaults: ["WFTextSeparator": "New Lines"],
            when: ["WFTextSeparator": ["New Lines", "Spaces"]]),
        ShortcutsMapping(
            "is.workflow.actions.text.combine", title: "Combine Text",
            parameters: ["WFInput": "input", "text": "input", "WFTextCustomSeparator": "with"], when: ["WFTextSeparator": ["Custom"]]),
    ]
    static let summary = "Joins the items of the input list into one text."
    static let examples = [
        IntentExample("- list: [red, green, blue]\n- combine-text: \" + \"", output: "red + green + blue"),
    ]
    static let output = OutputType.text

    @Parameter(input: true, summary: "The items to join.") var items: [Value]
    @Parameter(primary: true, summary: "'newline', 'space', or any separator text.") var with: String = "newline"

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let separator =
            switch with {
            case "newline": "\n"
            case "space": " "
            default: with
            }
        return .value(.text(items.map(\.textValue).joined(separator: separator)))
    }
}
