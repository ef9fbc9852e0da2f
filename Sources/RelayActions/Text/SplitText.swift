import RelayKit

/// `split-text`: splits text into a list.
struct SplitText: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.text.split", title: "Split Text", parameters: ["WFInput": "input", "text": "input", "WFTextSeparator": "by"],
            values: ["WFTextSeparator": ["New Lines": "newline", "Spaces": "spaces", "Every Character": "characters"]],
            defaults: ["WFTextSeparator": "New Lines"], when: ["WFTextSeparator": ["New Lines", "Spaces", "Every Character"]]),
        ShortcutsMapping(
            "is.workflow.actions.text.split", title: "Split Text",
            parameters: ["WFInput": "input", "text": "input", "WFTextCustomSeparator": "by"], when: ["WFTextSeparator": ["Custom"]]),
    ]
    static let summary = "Splits the input into a list: by lines, spaces, characters, or a separator."
    static let examples = [
        IntentExample("- text: \"red, green, blue\"\n- split-text: \", \"", output: "red\ngreen\nblue"),
    ]
    static let output = OutputType.list(of: .text)

    @Parameter(input: true, summary: "The text to split.") var text: String
    @Parameter(primary: true, summary: "'newline', 'spaces', 'characters', or any separator text.") var by: String = "newline"

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        // Counted before the list is made: a list past the bound is an error, not gigabytes first
        // (Docs/Reliability.md, "No crash, no hang, bounded memory").
        if let problem = Value.itemsProblem(try Self.countBound(of: text, by: by), of: "the list '\(by)' splits this text into") {
            throw IntentError(problem)
        }
        let parts: [String]
        switch by {
        case "newline": parts = TextSplitting.lines(text)
        case "spaces": parts = text.split(whereSeparator: \.isWhitespace).map(String.init)
        case "characters": parts = text.map(String.init)
        case "": throw IntentError("the separator is empty; use 'characters' to split into characters")
        default: parts = text.components(separatedBy: by)
        }
        return .value(.list(parts.map { .text($0) }))
    }

    /// How many parts splitting `text` by `by` makes, or more, counted without making them;
    /// counting stops once past `Limits.collectionItems`.
    static func countBound(of text: String, by: String) throws -> Int {
        let limit = Limits.collectionItems
        switch by {
        case "characters":
            var count = 0
            for _ in text {
                count += 1
                if count > limit { break }
            }
            return count
        case "newline":
            // At most one part more than the line ends.
            var count = 1
            for byte in text.utf8 where byte == 10 || byte == 13 {
                count += 1
                if count > limit { break }
            }
            return count
        case "spaces":
            // One part for each run of characters that are not white space.
            var count = 0
            var inWord = false
            for character in text {
                if character.isWhitespace {
                    inWord = false
                } else if !inWord {
                    inWord = true
                    count += 1
                    if count > limit { break }
                }
            }
            return count
        case "": return 0
        default:
            var count = 1
            var rest = text[...]
            while let found = rest.range(of: by) {
                count += 1
                if count > limit { break }
                rest = rest[found.upperBound...]
            }
            return count
        }
    }
}
