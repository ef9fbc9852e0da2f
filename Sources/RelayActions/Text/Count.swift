import RelayKit

/// `count`: how many items, characters, words or lines.
struct Count: Intent {
    static let summary = "Counts the items of the input, or the characters, words or lines of its text."
    static let examples = [
        IntentExample("- text: one two three\n- count: words", output: "3"),
    ]
    static let output = ValueType.number

    @Parameter(input: true, summary: "What to count.", readsFiles: false) var value: Value
    @Parameter(primary: true, summary: "What to count in it.", choices: ["items", "characters", "words", "lines"])
    var of: String = "items"

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let count: Int
        switch of.lowercased() {
        case "characters": count = value.textValue.count
        case "words": count = TextSplitting.words(value.textValue).count
        case "lines": count = value.isNothing ? 0 : TextSplitting.lines(value.textValue).count
        default:
            switch value {
            case .dictionary(let entries): count = entries.count
            default: count = value.asList.count
            }
        }
        return .value(.number(Double(count)))
    }
}
