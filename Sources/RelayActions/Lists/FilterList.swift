import RelayKit
import RelayEngine

/// `filter`: keeps the items that match conditions, then sorts and limits them (Docs/Language.md, "Entities").
struct FilterList: Intent {
    static let name = "filter"
    static let summary = "Keeps the items of the input list that match 'where', then sorts and limits them."
    static let examples = [
        IntentExample("- list: [3, 14, 1, 9]\n- filter:\n    where: { item: { greater-than: 2 } }\n    sort: item\n    limit: 2", output: "3\n9"),
    ]
    static let output = OutputType.list

    @Parameter(input: true, summary: "The list to filter.") var items: [Value]
    @Parameter(
        name: "where", summary: "PROPERTY: VALUE or PROPERTY: {COMPARATOR: VALUE}; 'item' is the item itself.")
    var conditions: ValueDictionary?
    @Parameter(summary: "Whether every condition must hold, or any one.", choices: ["all", "any"]) var match: String = "all"
    @Parameter(summary: "A property, or {by: PROPERTY, order: ascending|descending}, or a list of those; or random, a random order.") var sort: Value?
    @Parameter(summary: "At most this many items.") var limit: Int?

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        var clauses = conditions ?? [:]
        // Entities of one type: an enum property's case may be written by its display name.
        if case .entity(let first)? = items.first,
            items.allSatisfy({ if case .entity(let entity) = $0 { entity.descriptor === first.descriptor } else { false } })
        {
            clauses = FilterValidation(entityType: first.descriptor).withRawCases(clauses)
        }
        let query = try FilterQuery(where: clauses, matchAll: match.lowercased() != "any", sort: sort, limit: limit)
        return .value(.list(try await query.apply(to: items)))
    }
}
