import Foundation

/// The `where`/`match`/`sort`/`limit` of SPEC §5, applied in memory to any values: entities and
/// files by their properties, dictionaries by key, and plain values through the pseudo property `item`.
public struct FilterQuery: Sendable {
    public let conditions: [FilterCondition]
    /// All conditions must hold (`match: all`), or any one (`match: any`).
    public let matchAll: Bool
    public let sort: [SortKey]
    public let limit: Int?

    public init(conditions: [FilterCondition], matchAll: Bool = true, sort: [SortKey] = [], limit: Int? = nil) {
        self.conditions = conditions
        self.matchAll = matchAll
        self.sort = sort
        self.limit = limit
    }

    /// Parses a step's `where`, `match`, `sort` and `limit`.
    public init(where clauses: ValueDictionary, matchAll: Bool, sort: Value?, limit: Int?, now: Date = Date()) throws(FilterError) {
        var parsed: [FilterCondition] = []
        for (property, specification) in clauses {
            parsed += try FilterCondition.parse(property: property, specification, now: now)
        }
        if let limit, limit < 0 { throw FilterError("'limit' must be 0 or more, not \(limit)") }
        self.init(conditions: parsed, matchAll: matchAll, sort: try sort.map(SortKey.parse) ?? [], limit: limit)
    }

    /// The items that satisfy the conditions, sorted, at most `limit` of them.
    public func apply(to items: [Value]) async throws -> [Value] {
        var kept: [Value] = []
        if conditions.isEmpty {
            kept = items
        } else {
            for item in items where try await satisfies(item) { kept.append(item) }
        }
        return try await sortAndLimit(kept)
    }

    /// Whether `item` satisfies the conditions under the match mode.
    public func satisfies(_ item: Value) async throws -> Bool {
        if matchAll {
            for condition in conditions where !(try condition.holds(for: await Self.read(condition.property, of: item))) { return false }
            return true
        }
        for condition in conditions where try condition.holds(for: await Self.read(condition.property, of: item)) { return true }
        return conditions.isEmpty
    }

    /// Sorts by the sort keys (if any), then keeps the first `limit`. With a limit smaller than
    /// the list, only the best `limit` items are kept in order while reading, not the whole list sorted.
    public func sortAndLimit(_ items: [Value]) async throws -> [Value] {
        guard !sort.isEmpty else {
            guard let limit, items.count > limit else { return items }
            return Array(items.prefix(limit))
        }
        var keyed: [(item: Value, keys: [Value])] = []
        keyed.reserveCapacity(limit.map { Swift.min($0 + 1, items.count) } ?? items.count)
        let precedes: ((item: Value, keys: [Value]), (item: Value, keys: [Value])) -> Bool = { lhs, rhs in
            for (index, key) in sort.enumerated() {
                let order = ValueComparison.order(lhs.keys[index], rhs.keys[index]) ?? .orderedSame
                if order != .orderedSame { return key.ascending == (order == .orderedAscending) }
            }
            return false
        }
        if let limit, limit < items.count {
            guard limit > 0 else { return [] }
            for item in items {
                var keys: [Value] = []
                for key in sort { keys.append(try await Self.read(key.property, of: item)) }
                let entry = (item: item, keys: keys)
                if keyed.count == limit, let last = keyed.last, !precedes(entry, last) { continue }
                var low = 0, high = keyed.count
                while low < high {
                    let middle = (low + high) / 2
                    if precedes(entry, keyed[middle]) { high = middle } else { low = middle + 1 }
                }
                keyed.insert(entry, at: low)
                if keyed.count > limit { keyed.removeLast() }
            }
            return keyed.map(\.item)
        }
        for item in items {
            var keys: [Value] = []
            for key in sort { keys.append(try await Self.read(key.property, of: item)) }
            keyed.append((item, keys))
        }
        return keyed.sorted(by: precedes).map(\.item)
    }

    /// The value of `property` for `item`: the item itself for `item`, an entity's property
    /// (fetching a deferred one), else the value's property or dictionary key.
    public static func read(_ property: String, of item: Value) async throws -> Value {
        if property == "item" { return item }
        do {
            if case .entity(let entity) = item {
                if let value = try entity.propertyNow(property) { return value }
                return try await entity.property(property)
            }
            return try item.property(property)
        } catch let error as ValueAccessError {
            throw FilterError(error.message, property: property)
        }
    }
}
