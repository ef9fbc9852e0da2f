import Foundation
import RelayKit

/// `replace-text`: replaces occurrences of text, or of a regular expression, in its input.
struct ReplaceText: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.text.replace", title: "Replace Text",
            parameters: [
                "WFInput": "input", "WFReplaceTextFind": "find", "WFReplaceTextReplace": "with",
                "WFReplaceTextCaseSensitive": "case-sensitive", "WFReplaceTextRegularExpression": "regex",
            ]),
    ]
    static let summary = "Replaces every occurrence of 'find' in the input with 'with'."
    static let examples = [
        IntentExample("- text: 2026-11-24\n- replace-text: { find: \"-\", with: / }", output: "2026/11/24"),
        IntentExample("- text: \"call 555-0100 or 555-0199\"\n- replace-text: { find: \"(\\\\d{3})-(\\\\d{4})\", with: \"$2-$1\", regex: true }", output: "call 0100-555 or 0199-555"),
    ]
    static let output = OutputType.text

    @Parameter(input: true, summary: "The text to change.") var text: String
    @Parameter(summary: "What to look for: text, or a regular expression if 'regex' is true.") var find: String
    @Parameter(summary: "The replacement; with 'regex', $1 inserts a captured group.") var with: String = ""
    @Parameter(summary: "Treat 'find' as a regular expression.") var regex: Bool = false
    @Parameter(summary: "Match upper and lower case exactly.") var caseSensitive: Bool = true

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard !find.isEmpty else { return .value(.text(text)) }
        if regex {
            let expression = try RegularExpressions.make(find, caseSensitive: caseSensitive)
            return .value(.text(try await RegularExpressions.replacingMatches(of: expression, in: text, with: with)))
        }
        let options: String.CompareOptions = caseSensitive ? [] : [.caseInsensitive]
        // Its size is known before it is made: a long replacement of a frequent text is refused
        // before it takes gigabytes.
        if let problem = Value.textSizeProblem(Self.replacedSize(of: text, find: find, with: with, options: options)) {
            throw IntentError(problem)
        }
        return .value(.text(text.replacingOccurrences(of: find, with: with, options: options)))
    }

    /// The size in bytes of `text` with every `find` replaced by `with`, counted as the matches are
    /// found (a match without case may not be `find`'s size). Stops counting past the text bound.
    static func replacedSize(of text: String, find: String, with: String, options: String.CompareOptions) -> Int {
        var size = text.utf8.count
        let added = with.utf8.count
        var searched = text.startIndex..<text.endIndex
        while let found = text.range(of: find, options: options, range: searched) {
            size += added - text.utf8.distance(from: found.lowerBound, to: found.upperBound)
            if size > Limits.textBytes { return size }
            searched = found.upperBound..<text.endIndex
        }
        return size
    }
}
