import Foundation
import RelayKit

/// `match-text`: the matches of a regular expression.
struct MatchText: Intent {
    static let summary = "Outputs the list of every match of a regular expression in the input."
    static let output = ValueType.list

    @Parameter(input: true, summary: "The text to search.") var text: String
    @Parameter(primary: true, summary: "A regular expression (ICU syntax).") var pattern: String
    @Parameter(summary: "Match upper and lower case exactly.") var caseSensitive: Bool = true

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let expression = try RegularExpressions.make(pattern, caseSensitive: caseSensitive)
        let matches = expression.matches(in: text, range: NSRange(text.startIndex..., in: text))
        return .value(.list(matches.compactMap { match in
            Range(match.range, in: text).map { .text(String(text[$0])) }
        }))
    }
}
