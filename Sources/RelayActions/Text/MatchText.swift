import Foundation
import RelayKit

/// `match-text`: the matches of a regular expression.
struct MatchText: Intent {
    static let summary = "Outputs the list of every match of a regular expression in the input."
    static let examples = [
        IntentExample("- text: \"Invoice 2026-041 and 2026-042\"\n- match-text: \"\\\\d{4}-\\\\d{3}\"", output: "2026-041\n2026-042"),
    ]
    static let output = ValueType.list

    @Parameter(input: true, summary: "The text to search.") var text: String
    @Parameter(primary: true, summary: "A regular expression (ICU syntax).", check: RegularExpressions.problem) var pattern: String
    @Parameter(summary: "Match upper and lower case exactly.") var caseSensitive: Bool = true

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let expression = try RegularExpressions.make(pattern, caseSensitive: caseSensitive)
        return .value(.list(try await RegularExpressions.matches(of: expression, in: text).map { .text($0) }))
    }
}
