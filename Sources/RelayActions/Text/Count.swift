import RelayKit

/// `count`: how many items, characters, words or lines.
struct Count: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.count", title: "Count", parameters: ["WFInput": "input", "Input": "input", "WFCountType": "of"],
            values: ["WFCountType": ["Items": "items", "Characters": "characters", "Words": "words", "Sentences": "sentences", "Lines": "lines"]],
            defaults: ["WFCountType": "Items"]),
    ]
    static let summary = "Counts the items of the input, or the characters, words, sentences or lines of its text."
    static let examples = [
        IntentExample("- text: one two three\n- count: words", output: "3"),
        IntentExample("- text: \"It rained. Did it stop? Not yet!\"\n- count: sentences", output: "3"),
    ]
    static let output = OutputType.number

    @Parameter(input: true, summary: "What to count.", readsFiles: false) var value: Value
    @Parameter(primary: true, summary: "What to count in it.", choices: ["items", "characters", "words", "sentences", "lines"])
    var of: String = "items"

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let count: Int
        let unit = of.lowercased()
        var text: String { value.textValue }
        // The characters, words or lines of a file are those of its text, not of its path: the
        // file is read, so the run's gate is asked first (the parameter reads no file to count it).
        if unit != "items", case .file(let file) = value.oneValue {
            try await context.authorize(.read(file.path))
            let read = try await context.convert(.file(file), to: .value(.text)).textValue
            return .value(.number(Double(Self.count(unit, in: read))))
        }
        switch unit {
        case "characters", "words", "sentences", "lines": count = value.isNothing ? 0 : Self.count(unit, in: text)
        default:
            switch value {
            case .dictionary(let entries): count = entries.count
            default: count = value.asList.count
            }
        }
        return .value(.number(Double(count)))
    }

    private static func count(_ unit: String, in text: String) -> Int {
        switch unit {
        case "characters": text.count
        case "words": TextSplitting.words(text).count
        case "sentences": sentences(in: text)
        default: TextSplitting.lines(text).count
        }
    }

    /// The sentences of `text`: each ends at `.`, `!`, `?` or `…` (or their full-width forms)
    /// followed by a space, a line break or the end — after closing quotes and brackets — and has
    /// a letter or a digit. An abbreviation's full stop (`Dr. Smith`) ends one too.
    static func sentences(in text: String) -> Int {
        let ends: Set<Character> = [".", "!", "?", "…", "。", "！", "？"]
        let closing: Set<Character> = ["\"", "'", "”", "’", ")", "]", "»"]
        var count = 0, hasWords = false, index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character.isLetter || character.isNumber { hasWords = true }
            index = text.index(after: index)
            guard ends.contains(character) else { continue }
            while index < text.endIndex, ends.contains(text[index]) || closing.contains(text[index]) { index = text.index(after: index) }
            if index == text.endIndex || text[index].isWhitespace || ["。", "！", "？"].contains(character) {
                if hasWords { count += 1 }
                hasWords = false
            }
        }
        return hasWords ? count + 1 : count
    }
}
