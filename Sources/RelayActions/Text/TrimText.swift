import Foundation
import RelayKit

/// `trim-text`: removes surrounding white space.
struct TrimText: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.text.trimwhitespace", title: "Trim Whitespace", parameters: ["WFInput": "input"]),
    ]
    static let summary = "Removes spaces, tabs and line breaks from both ends of the input."
    static let examples = [
        IntentExample("- text: \"  padded  \"\n- trim-text\n- text: \"[${previous}]\"", output: "[padded]"),
    ]
    static let output = OutputType.text

    @Parameter(primary: true, input: true, summary: "The text to trim.") var text: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.text(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}
