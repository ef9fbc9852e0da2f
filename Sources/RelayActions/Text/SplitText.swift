import RelayKit

/// `split-text`: splits text into a list.
struct SplitText: Intent {
    static let summary = "Splits the input into a list: by lines, spaces, characters, or a separator."
    static let examples = [
        IntentExample("- text: \"red, green, blue\"\n- split-text: \", \"", output: "red\ngreen\nblue"),
    ]
    static let output = ValueType.list
    static let outputItem: ValueType? = .text

    @Parameter(input: true, summary: "The text to split.") var text: String
    @Parameter(primary: true, summary: "'newline', 'spaces', 'characters', or any separator text.") var by: String = "newline"

    func perform(_ context: any IntentContext) async throws -> IntentResult {
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
}
