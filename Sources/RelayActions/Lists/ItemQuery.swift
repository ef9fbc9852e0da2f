import Foundation
import RelayKit

/// The `where`/`match`/`sort`/`limit` of SPEC §5 applied to plain values: dictionaries by key,
/// other values by their properties, and the value itself through the pseudo property `item`.
struct ItemQuery {
    let conditions: [ItemCondition]
    let matchAll: Bool
    let sortKeys: [(property: String, ascending: Bool)]
    let limit: Int?

    init(conditions: ValueDictionary, matchAll: Bool, sort: Value?, limit: Int?) throws {
        var parsed: [ItemCondition] = []
        for (property, specification) in conditions {
            parsed += try ItemCondition.parse(property: property, specification)
        }
        self.conditions = parsed
        self.matchAll = matchAll
        self.sortKeys = try sort.map(Self.sortKeys) ?? []
        if let limit, limit < 0 { throw IntentError("'limit' must be 0 or more, not \(limit)") }
        self.limit = limit
    }

    func apply(to items: [Value]) throws -> [Value] {
        var kept = try items.filter { item in
            guard !conditions.isEmpty else { return true }
            if matchAll { return try conditions.allSatisfy { try $0.holds(for: item) } }
            return try conditions.contains { try $0.holds(for: item) }
        }
        if !sortKeys.isEmpty {
            let keyed = try kept.map { item in (item, try sortKeys.map { try Self.read($0.property, of: item) }) }
            kept = keyed.sorted { lhs, rhs in
                for (index, key) in sortKeys.enumerated() {
                    let order = ValueComparison.order(lhs.1[index], rhs.1[index]) ?? .orderedSame
                    if order != .orderedSame { return key.ascending == (order == .orderedAscending) }
                }
                return false
            }.map(\.0)
        }
        if let limit, kept.count > limit { kept = Array(kept.prefix(limit)) }
        return kept
    }

    /// The value of `property` for `item`: the item itself for `item`, else its property.
    static func read(_ property: String, of item: Value) throws -> Value {
        if property == "item" { return item }
        do {
            return try item.property(property)
        } catch {
            throw IntentError(error.message)
        }
    }

    private static func sortKeys(_ sort: Value) throws -> [(property: String, ascending: Bool)] {
        switch sort {
        case .list(let keys): return try keys.flatMap(sortKeys)
        case .dictionary(let entries):
            guard let by = entries["by"] else { throw IntentError("'sort' needs 'by', the property to sort by") }
            let order = entries["order"]?.textValue.lowercased() ?? "ascending"
            guard ["ascending", "descending", "asc", "desc"].contains(order) else {
                throw IntentError("'order' is 'ascending' or 'descending', not '\(order)'")
            }
            if let unknown = entries.keys.first(where: { $0 != "by" && $0 != "order" }) {
                throw IntentError("'sort' takes 'by' and 'order', not '\(unknown)'")
            }
            return [(by.textValue, order.hasPrefix("asc"))]
        default:
            return [(sort.textValue, true)]
        }
    }
}
