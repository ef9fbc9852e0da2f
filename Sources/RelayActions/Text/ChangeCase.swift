import Foundation
import RelayKit

/// `change-case`: upper, lower or title case.
struct ChangeCase: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.text.changecase", title: "Change Case", parameters: ["WFInput": "input", "text": "input", "WFCaseType": "to"],
            values: ["WFCaseType": ["UPPERCASE": "upper", "lowercase": "lower", "Capitalize Every Word": "title"]],
            defaults: ["WFCaseType": "UPPERCASE"]),
    ]
    static let summary = "Changes the input to upper case, lower case or title case."
    static let examples = [
        IntentExample("- text: the quick brown fox\n- change-case: title", output: "The Quick Brown Fox"),
    ]
    static let output = ValueType.text

    @Parameter(input: true, summary: "The text to change.") var text: String
    @Parameter(primary: true, summary: "The case to change to.", choices: ["upper", "lower", "title"]) var to: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        switch to.lowercased() {
        case "upper": return .value(.text(text.uppercased()))
        case "lower": return .value(.text(text.lowercased()))
        default: return .value(.text(text.capitalized))
        }
    }
}
