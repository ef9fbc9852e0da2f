import RelayKit

/// `get-item`: one item, or a range of items, of a list.
struct GetItem: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.getitemfromlist", title: "Get Item from List", parameters: ["WFInput": "input", "WFItemSpecifier": "at"],
            values: ["WFItemSpecifier": ["First Item": "first", "Last Item": "last"]], defaults: ["WFItemSpecifier": "First Item"],
            when: ["WFItemSpecifier": ["First Item", "Last Item"]]),
        ShortcutsMapping(
            "is.workflow.actions.getitemfromlist", title: "Get Item from List", parameters: ["WFInput": "input", "WFItemIndex": "at"],
            when: ["WFItemSpecifier": ["Item At Index"]]),
        ShortcutsMapping(
            "is.workflow.actions.getitemfromlist", title: "Get Item from List",
            parameters: ["WFInput": "input", "WFItemRangeStart": "from", "WFItemRangeEnd": "to"], when: ["WFItemSpecifier": ["Items in Range"]]),
    ]
    static let summary = "Gets the first, last or Nth item of the input list (1-based; negative counts from the end), or a range."
    static let examples = [
        IntentExample("- list: [red, green, blue]\n- get-item: last", output: "blue"),
        IntentExample("- list: [a, b, c, d]\n- get-item: { from: 2, to: 3 }", output: "b\nc"),
    ]
    static let output = OutputType.any

    @Parameter(input: true, summary: "The list.") var items: [Value]
    @Parameter(primary: true, summary: "'first', 'last', a position, or {from, to}.") var at: Value?
    @Parameter(summary: "The first position of a range.") var from: Int?
    @Parameter(summary: "The last position of a range (inclusive).") var to: Int?

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        if case .dictionary(let range)? = at {
            return try slice(from: range["from"].map { try Int(parameterValue: $0) }, to: range["to"].map { try Int(parameterValue: $0) })
        }
        if from != nil || to != nil { return try slice(from: from, to: to) }
        guard let at else { throw IntentError("give 'at' (first, last or a position) or 'from'/'to'") }
        switch at.textValue.lowercased() {
        case "first": return .value(items.first ?? .nothing)
        case "last": return .value(items.last ?? .nothing)
        default:
            do {
                return .value(try Value.list(items).element(at: at))
            } catch {
                throw IntentError(error.message)
            }
        }
    }

    private func slice(from: Int?, to: Int?) throws -> IntentResult {
        let count = items.count
        func offset(_ position: Int) -> Int { position < 0 ? count + position : position - 1 }
        let start = max(0, offset(from ?? 1))
        let end = min(count - 1, offset(to ?? count))
        guard start <= end else { return .value(.list([])) }
        return .value(.list(Array(items[start...end])))
    }
}
