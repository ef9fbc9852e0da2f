import Foundation
import RelayKit

/// `unique`: the list without repeated items.
struct Unique: Intent {
    static let summary = "Removes repeated items from the input list, keeping the first of each in its place."
    static let examples = [
        IntentExample("- list: [b, a, b, c, a]\n- unique", output: "b\na\nc"),
        IntentExample("- list: [Oslo, oslo, Bergen]\n- unique: { case-sensitive: false }", output: "Oslo\nBergen"),
    ]
    static let output = OutputType.list

    @Parameter(input: true, summary: "The list.") var items: [Value]
    @Parameter(summary: "Whether texts that differ only in case are different items.") var caseSensitive: Bool = true

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        var kept: [Value] = []
        // Equal values hash alike only when they are the same value; numbers, dates and texts that
        // read as each other are equal too (as in `if`), so the kept items are compared one by one
        // within a bucket of the same key.
        var buckets: [String: [Int]] = [:]
        for item in items {
            try Task.checkCancellation()
            let key = Self.bucketKey(item, caseSensitive: caseSensitive)
            let seen = buckets[key, default: []].contains {
                ValueComparison.equal(kept[$0], item, ignoringCase: !caseSensitive)
            }
            guard !seen else { continue }
            buckets[key, default: []].append(kept.count)
            kept.append(item)
        }
        return .value(.list(kept))
    }

    /// A key equal values share: a number's value (a text that reads as a number has it too), a
    /// date's instant, else the text, folded when case does not count.
    private static func bucketKey(_ value: Value, caseSensitive: Bool) -> String {
        switch value {
        case .number(let number): return "n\(number == 0 ? 0 : number)"
        case .date(let date): return "d\(date.timeIntervalSinceReferenceDate)"
        case .text(let text):
            if let number = NumberParsing.number(from: text) ?? ByteCount.bytes(from: text) { return "n\(number == 0 ? 0 : number)" }
            if let date = DateFormatting.parse(text) { return "d\(date.timeIntervalSinceReferenceDate)" }
            return "t" + (caseSensitive ? text : text.lowercased())
        case .list: return "l"
        default: return "t" + (caseSensitive ? value.textValue : value.textValue.lowercased())
        }
    }
}

/// `reverse-list`: the list backwards.
struct ReverseList: Intent {
    static let summary = "Outputs the input list in the opposite order."
    static let examples = [
        IntentExample("- list: [1, 2, 3]\n- reverse-list", output: "3\n2\n1"),
    ]
    static let output = OutputType.list

    @Parameter(primary: true, input: true, summary: "The list.") var items: [Value]

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.list(items.reversed()))
    }
}

/// `sort-list`: the list in order.
struct SortList: Intent {
    static let summary =
        "Sorts the input list: numbers by value, dates in time, texts alphabetically (digits as numbers unless 'natural' is false); 'random' shuffles it."
    static let examples = [
        IntentExample("- list: [photo10.jpg, Photo2.jpg, photo1.jpg]\n- sort-list", output: "photo1.jpg\nPhoto2.jpg\nphoto10.jpg"),
        IntentExample("- list: [3, 11, 2]\n- sort-list: descending", output: "11\n3\n2"),
        IntentExample("- list: [a, b, c, d]\n- sort-list: random"),
        IntentExample(
            "- list: [b, B, a, A]\n- sort-list: { case-sensitive: true, natural: false }", output: "A\nB\na\nb"),
    ]
    static let output = OutputType.list

    @Parameter(input: true, summary: "The list.") var items: [Value]
    @Parameter(primary: true, summary: "The order: random shuffles the items, whatever they are.", choices: ["ascending", "descending", "random"])
    var order: String = "ascending"
    @Parameter(summary: "Whether upper case sorts apart from lower case (A to Z, then a to z).") var caseSensitive: Bool = false
    @Parameter(summary: "Whether the digits in texts are compared as numbers (2 before 10).") var natural: Bool = true

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        if order.lowercased() == "random" { return .value(.list(items.shuffled())) }
        var options: String.CompareOptions = natural ? [.numeric] : []
        if !caseSensitive { options.insert(.caseInsensitive) }
        let descending = order.lowercased() == "descending"
        // The first pair that cannot be ordered (a list against a number, say) ends the sort with an error.
        var unordered: (Value, Value)?
        let compare = { (a: Value, b: Value) -> ComparisonResult in
            switch (a, b) {
            case (.text(let x), .text(let y)):
                let result = x.compare(y, options: options)
                return result == .orderedSame ? (x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame) : result
            default:
                if let result = ValueComparison.order(a, b) { return result }
                if unordered == nil { unordered = (a, b) }
                return .orderedSame
            }
        }
        try Task.checkCancellation()
        let sorted = items.sorted { a, b in compare(a, b) == (descending ? .orderedDescending : .orderedAscending) }
        if let (a, b) = unordered {
            throw IntentError("cannot sort \(a.type.withArticle) and \(b.type.withArticle) in one list; sort-list orders numbers, dates and texts")
        }
        return .value(.list(sorted))
    }
}

/// `random-item`: one item of a list, chosen at random.
struct RandomItem: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.getitemfromlist", title: "Get Item from List", parameters: ["WFInput": "input"],
            when: ["WFItemSpecifier": ["Random Item"]]),
    ]
    static let summary = "Outputs one item of the input list, chosen at random."
    static let examples = [
        IntentExample("- list: [heads, tails]\n- random-item"),
    ]
    static let output = OutputType.any

    @Parameter(primary: true, input: true, summary: "The list.") var items: [Value]

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard let item = items.randomElement() else { throw IntentError("random-item needs a list with an item; the list is empty") }
        return .value(item)
    }
}
