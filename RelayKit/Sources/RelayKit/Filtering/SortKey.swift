/// One key of a `sort`: a property and a direction.
public struct SortKey: Sendable, Hashable {
    public let property: String
    public let ascending: Bool

    public init(property: String, ascending: Bool = true) {
        self.property = property
        self.ascending = ascending
    }

    /// Whether `sort` is `random`: no property's order, the items shuffled.
    public static func isRandom(_ sort: Value?) -> Bool {
        if case .text(let text)? = sort { return text.lowercased() == "random" }
        return false
    }

    /// Reads `sort: PROPERTY`, `sort: {by: PROPERTY, order: ascending|descending}`, or a list of those.
    public static func parse(_ sort: Value) throws(FilterError) -> [SortKey] {
        switch sort {
        case .nothing: return []
        case .list(let keys):
            var parsed: [SortKey] = []
            for key in keys { parsed += try parse(key) }
            return parsed
        case .dictionary(let entries):
            guard let by = entries["by"] else { throw FilterError("'sort' needs 'by', the property to sort by") }
            let order = entries["order"]?.textValue.lowercased() ?? "ascending"
            guard ["ascending", "descending", "asc", "desc"].contains(order) else {
                throw FilterError("'order' is 'ascending' or 'descending', not '\(order)'")
            }
            if let unknown = entries.keys.first(where: { $0 != "by" && $0 != "order" }) {
                throw FilterError("'sort' takes 'by' and 'order', not '\(unknown)'\(Suggestions.didYouMean(unknown, in: ["by", "order"]))")
            }
            return [SortKey(property: by.textValue, ascending: order.hasPrefix("asc"))]
        default:
            return [SortKey(property: sort.textValue)]
        }
    }
}
