import RelayKit
/// Orders items by sort keys, keeping only the best `limit` while reading them: a sorted list of
/// the best so far, against whose last entry most items are rejected with one comparison.
struct TopRanking {
    private let sort: [SortKey]
    private let limit: Int
    private var readers: PropertyReaders
    private var best: [(item: Value, keys: [Value])] = []
    /// The keys of the item being considered (reused, so that rejected items allocate nothing).
    private var keys: [Value] = []

    init(sort: [SortKey], limit: Int) {
        self.sort = sort
        self.limit = limit
        readers = PropertyReaders(sort.map(\.property))
        keys.reserveCapacity(sort.count)
        best.reserveCapacity(Swift.min(limit, 1024) + 1)
    }

    /// The best items, best first.
    var items: [Value] { best.map(\.item) }

    /// Considers `item` if its keys need no fetching; false (and nothing done) otherwise.
    mutating func considerNow(_ item: Value) throws -> Bool {
        guard try readKeysNow(item) else { return false }
        place(item)
        return true
    }

    /// Considers `item`, fetching deferred keys.
    mutating func consider(_ item: Value) async throws {
        try await readKeys(item)
        place(item)
    }

    /// All of `items`, sorted (stable: equal keys keep their order).
    mutating func sorted(_ items: [Value]) async throws -> [Value] {
        var keyed: [(item: Value, keys: [Value])] = []
        keyed.reserveCapacity(items.count)
        for item in items {
            if try !readKeysNow(item) { try await readKeys(item) }
            keyed.append((item, keys))
        }
        let sort = sort
        return keyed.sorted { Self.precedes($0.keys, $1.keys, sort) }.map(\.item)
    }

    /// Reads the keys of `item` into `keys`; false when one is deferred and must be fetched.
    private mutating func readKeysNow(_ item: Value) throws -> Bool {
        keys.removeAll(keepingCapacity: true)
        for index in sort.indices {
            guard let key = try readers.readNow(index, of: item) else { return false }
            keys.append(readers.sortKey(key, index, of: item))
        }
        return true
    }

    private mutating func readKeys(_ item: Value) async throws {
        keys.removeAll(keepingCapacity: true)
        for index in sort.indices { keys.append(readers.sortKey(try await readers.read(index, of: item), index, of: item)) }
    }

    /// Puts the item with `keys` in its place among the best, if it is among them.
    private mutating func place(_ item: Value) {
        guard limit > 0 else { return }
        if best.count == limit, !Self.precedes(keys, best[limit - 1].keys, sort) { return }
        var low = 0, high = best.count
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(keys, best[middle].keys, sort) { high = middle } else { low = middle + 1 }
        }
        best.insert((item, keys), at: low)
        if best.count > limit { best.removeLast() }
    }

    /// Whether keys `lhs` come strictly before `rhs` under the sort keys.
    private static func precedes(_ lhs: [Value], _ rhs: [Value], _ sort: [SortKey]) -> Bool {
        for index in sort.indices {
            let order = ValueComparison.order(lhs[index], rhs[index]) ?? .orderedSame
            if order != .orderedSame { return sort[index].ascending == (order == .orderedAscending) }
        }
        return false
    }
}
