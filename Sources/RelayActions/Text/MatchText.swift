import Foundation
import RelayKit

/// `match-text`: the matches of a regular expression.
struct MatchText: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.text.match", title: "Match Text",
            parameters: ["WFInput": "input", "text": "input", "WFMatchTextPattern": "pattern", "WFMatchTextCaseSensitive": "case-sensitive"]),
    ]
    static let summary = "Outputs the list of every match of a regular expression in the input, or of one capture group of each match ('group': its number or name)."
    static let examples = [
        IntentExample("- text: \"due 2026-11-24, paid 2026-12-01\"\n- match-text: { pattern: \"(\\\\d{4})-(\\\\d{2})\", group: 2 }", output: "11\n12"),
        IntentExample("- text: \"Ada <ada@example.com>\"\n- match-text: { pattern: \"<(?<address>[^>]+)>\", group: address }", output: "ada@example.com"),
        IntentExample("- text: \"Invoice 2026-041 and 2026-042\"\n- match-text: \"\\\\d{4}-\\\\d{3}\"", output: "2026-041\n2026-042"),
    ]
    static let output = OutputType.list(of: .text)

    @Parameter(input: true, summary: "The text to search.") var text: String
    @Parameter(primary: true, summary: "A regular expression (ICU syntax).", check: RegularExpressions.problem) var pattern: String
    @Parameter(summary: "Match upper and lower case exactly.") var caseSensitive: Bool = true
    @Parameter(summary: "A capture group to output of each match instead of the whole match: its number (1 for the first) or its name ((?<name>…)).")
    var group: Value?

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let expression = try RegularExpressions.make(pattern, caseSensitive: caseSensitive)
        guard let group else {
            return .value(.list(try await RegularExpressions.matches(of: expression, in: text).map { .text($0) }))
        }
        let selector: RegularExpressions.CaptureGroup
        switch group {
        case .number(let number):
            guard number == number.rounded(), number >= 1, number <= 1000 else {
                throw IntentError("'group' is a group's number, from 1, or its name; found \(group.briefDescription)")
            }
            selector = .number(Int(number))
        case .text(let text) where Int(text) != nil:
            selector = .number(Int(text) ?? 0)
        case .text(let name) where !name.isEmpty:
            selector = .name(name)
        default:
            throw IntentError("'group' is a group's number, from 1, or its name; found \(group.briefDescription)")
        }
        return .value(.list(try await RegularExpressions.groups(selector, of: expression, in: text).map { .text($0) }))
    }
}
