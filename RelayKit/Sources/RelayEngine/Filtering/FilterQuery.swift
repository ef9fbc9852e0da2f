import Foundation
import RelayKit

/// The `where`/`match`/`sort`/`limit` of Docs/Language.md, "Entities", applied in memory to any values: entities and
/// files by their properties, dictionaries by key, and plain values through the pseudo property `item`.
public struct FilterQuery: Sendable {
    public let conditions: [FilterCondition]
    /// All conditions must hold (`match: all`), or any one (`match: any`).
    public let matchAll: Bool
    public let sort: [SortKey]
    /// `sort: random`: the items that pass in a random order (then `limit` of them: a random few).
    public let shuffled: Bool
    public let limit: Int?

    public init(conditions: [FilterCondition], matchAll: Bool = true, sort: [SortKey] = [], shuffled: Bool = false, limit: Int? = nil) {
        self.conditions = conditions
        self.matchAll = matchAll
        self.sort = shuffled ? [] : sort
        self.shuffled = shuffled
        self.limit = limit
    }

    /// Parses a step's `where`, `match`, `sort` and `limit`.
    public init(where clauses: ValueDictionary, matchAll: Bool, sort: Value?, limit: Int?, now: Date = Date()) throws(FilterError) {
        var parsed: [FilterCondition] = []
        for (property, specification) in clauses {
            parsed += try FilterCondition.parse(property: property, specification, now: now)
        }
        if let limit, limit < 0 { throw FilterError("'limit' must be 0 or more, not \(limit)") }
        let shuffled = SortKey.isRandom(sort)
        self.init(
            conditions: parsed, matchAll: matchAll, sort: shuffled ? [] : try sort.map(SortKey.parse) ?? [], shuffled: shuffled, limit: limit)
    }

    /// The items that satisfy the conditions, sorted, at most `limit` of them. With a sort and
    /// a limit, one pass keeps the best `limit` of the items that pass, without sorting them all.
    public func apply(to items: [Value]) async throws -> [Value] {
        try await Self.prefetch(conditions.map(\.property) + sort.map(\.property), of: items)
        var selection = Selection(self, expected: items.count)
        for item in items {
            guard try await selection.offer(item) else { break }
        }
        return try await selection.finish()
    }

    /// The properties the conditions read.
    public var conditionProperties: [String] { conditions.map(\.property) }

    /// Whether an item satisfies the conditions, judged by the properties `read` gives (nil for a
    /// property it cannot give): true or false when those decide, nil when the others must (a
    /// walk rejects most files by name this way before reading anything else about them).
    public func decide(reading read: (String) throws -> Value?) throws -> Bool? {
        var undecided = false
        for condition in conditions {
            guard condition.property != "item", !condition.isPattern, let value = try read(condition.property) else {
                undecided = true
                continue
            }
            let holds = try condition.holds(for: value)
            if holds != matchAll { return holds }
        }
        return undecided ? nil : (matchAll || conditions.isEmpty)
    }

    /// The query applied to items one at a time, as a walk finds them: what passes is kept — the
    /// best `limit` when sorted, the first `limit` otherwise — so memory holds no more than the answer.
    public struct Selection {
        private let query: FilterQuery
        private var readers: PropertyReaders
        private var ranking: TopRanking?
        private var kept: [Value] = []
        /// How many items passed, for a random few (`sort: random` with a limit).
        private var passed = 0

        /// `expected`: how many items will be offered, when known (a limit that many or more needs no ranking).
        public init(_ query: FilterQuery, expected: Int? = nil) {
            self.query = query
            readers = PropertyReaders(query.conditions.map(\.property))
            if let limit = query.limit, !query.sort.isEmpty, limit < (expected ?? .max) {
                ranking = TopRanking(sort: query.sort, limit: limit)
            }
        }

        /// Offers `item`; `passes`: whether it is already known to satisfy the conditions (nil:
        /// they are read here). Returns false once no later item can change the answer.
        @discardableResult
        public mutating func offer(_ item: Value, passes known: Bool? = nil) async throws -> Bool {
            let passes: Bool
            if let known { passes = known } else { passes = try await query.passes(item, readers: &readers) }
            guard passes else { return true }
            if query.shuffled {
                // A random few of any number, holding no more than the few: each item that passes
                // takes a place with the chance the answer's size over how many passed so far.
                passed += 1
                let size = query.limit ?? .max
                if kept.count < size {
                    kept.append(item)
                } else if size > 0, case let place = Int.random(in: 0..<passed), place < size {
                    kept[place] = item
                }
                return true
            }
            if ranking != nil {
                if try !ranking!.considerNow(item) { try await ranking!.consider(item) }
                return true
            }
            kept.append(item)
            return query.sort.isEmpty ? kept.count < (query.limit ?? .max) : true
        }

        /// The answer: the items kept, sorted and limited.
        public mutating func finish() async throws -> [Value] {
            if let ranking { return ranking.items }
            if query.shuffled { return kept.shuffled() }
            return try await query.sortAndLimit(kept)
        }
    }

    /// The deferred properties the query reads, fetched for all the entities among `items` in
    /// one call where their type can (`EntityProperty.deferred(_:many:)`), within a run.
    private static func prefetch(_ properties: [String], of items: [Value]) async throws {
        guard FetchedProperties.current != nil, !properties.isEmpty else { return }
        // Which readers of each type fetch many at once, decided once a type; most fetch none.
        let names = Set(properties)
        var batched: [ObjectIdentifier: [PropertyReader]] = [:]
        var entitiesByType: [ObjectIdentifier: [EntityValue]] = [:]
        // Items come in runs of one type: the last type's answer is kept, not looked up an item.
        var last: (type: ObjectIdentifier, fetches: Bool)?
        for case .entity(let entity) in items {
            let type = ObjectIdentifier(entity.descriptor)
            if last?.type != type {
                let readers = batched[type] ?? names.compactMap { entity.descriptor.reader(for: $0) }.filter(\.fetchesMany)
                batched[type] = readers
                last = (type, !readers.isEmpty)
            }
            if last?.fetches == true { entitiesByType[type, default: []].append(entity) }
        }
        for (type, entities) in entitiesByType {
            for reader in batched[type] ?? [] { try await reader.prefetch(entities) }
        }
    }

    /// Whether `item` satisfies the conditions: synchronously when no deferred property is read,
    /// as most filters need.
    private func passes(_ item: Value, readers: inout PropertyReaders) async throws -> Bool {
        if conditions.isEmpty { return true }
        if let now = try satisfiesNow(item, readers: &readers) { return now }
        return try await satisfies(item, readers: &readers)
    }

    /// Whether `item` satisfies the conditions, or nil when that needs a deferred property fetched.
    private func satisfiesNow(_ item: Value, readers: inout PropertyReaders) throws -> Bool? {
        for index in conditions.indices {
            guard !conditions[index].isPattern, let value = try readers.readNow(index, of: item) else { return nil }
            let holds = try conditions[index].holds(for: value)
            if holds != matchAll { return holds }
        }
        return matchAll || conditions.isEmpty
    }

    /// Whether `item` satisfies the conditions under the match mode.
    public func satisfies(_ item: Value) async throws -> Bool {
        var readers = PropertyReaders(conditions.map(\.property))
        return try await satisfies(item, readers: &readers)
    }

    private func satisfies(_ item: Value, readers: inout PropertyReaders) async throws -> Bool {
        for index in conditions.indices {
            let value: Value
            if let now = try readers.readNow(index, of: item) { value = now } else { value = try await readers.read(index, of: item) }
            let holds = try await conditions[index].holdsWaiting(for: value)
            if holds != matchAll { return holds }
        }
        return matchAll || conditions.isEmpty
    }

    /// Sorts by the sort keys (if any), then keeps the first `limit`. With a limit smaller than
    /// the list, only the best `limit` items are kept in order while reading, not the whole list sorted.
    public func sortAndLimit(_ items: [Value]) async throws -> [Value] {
        if shuffled { return Array(items.shuffled().prefix(limit ?? .max)) }
        guard !sort.isEmpty else {
            guard let limit, items.count > limit else { return items }
            return Array(items.prefix(limit))
        }
        if let limit, limit < items.count {
            var ranking = TopRanking(sort: sort, limit: limit)
            for item in items where try !ranking.considerNow(item) { try await ranking.consider(item) }
            return ranking.items
        }
        var ranking = TopRanking(sort: sort, limit: items.count)
        return try await ranking.sorted(items)
    }

    /// The value of `property` for `item`: the item itself for `item`, an entity's property
    /// (fetching a deferred one), else the value's property or dictionary key.
    public static func read(_ property: String, of item: Value) async throws -> Value {
        var readers = PropertyReaders([property])
        return try await readers.read(0, of: item)
    }
}

/// Reads the properties a filter or sort names from many items, looking each up once per entity
/// type rather than once per item.
struct PropertyReaders {
    private let names: [String]
    /// Per property: whether it is the pseudo property `item`, the item itself.
    private let isItem: [Bool]
    /// Per property: the entity type it was last read from, and its reader for that type.
    private var types: [ObjectIdentifier?]
    private var readers: [PropertyReader?]
    /// Per property: its cases, in their declared order, when the type last read declares it an enum.
    private var cases: [[String]?]

    init(_ names: [String]) {
        self.names = names
        isItem = names.map { $0 == "item" }
        types = Array(repeating: nil, count: names.count)
        readers = Array(repeating: nil, count: names.count)
        cases = Array(repeating: nil, count: names.count)
    }

    /// `value`, read as the `index`th property of `item`, as a key to sort by: an enum property's
    /// case is its place among the cases, so that it sorts in their declared order, as the type's
    /// own query sorts it (Docs/Packages.md, "The package, its intents and entities").
    func sortKey(_ value: Value, _ index: Int, of item: Value) -> Value {
        guard case .entity = item, case .text(let text) = value, let cases = cases[index], let place = cases.firstIndex(of: text) else { return value }
        return .number(Double(place))
    }

    /// The value of the `index`th property for `item`, fetching a deferred one.
    mutating func read(_ index: Int, of item: Value) async throws -> Value {
        if let value = try readNow(index, of: item) { return value }
        guard case .entity(let entity) = item else {
            do {
                return try await item.resolvedProperty(names[index])
            } catch let error as ValueAccessError {
                throw FilterError(error.message, property: names[index])
            }
        }
        return try await reader(index, for: entity).value(of: entity)
    }

    /// The value of the `index`th property for `item` if it needs no fetching; nil for a deferred
    /// one, or a file's property its package's host reads.
    mutating func readNow(_ index: Int, of item: Value) throws(FilterError) -> Value? {
        if isItem[index] { return item }
        do throws(ValueAccessError) {
            guard case .entity(let entity) = item else { return item.mayFetch(names[index]) ? nil : try item.property(names[index]) }
            return try reader(index, for: entity).now(entity)
        } catch {
            throw FilterError(error.message, property: names[index])
        }
    }

    private mutating func reader(_ index: Int, for entity: EntityValue) throws(ValueAccessError) -> PropertyReader {
        if types[index] == ObjectIdentifier(entity.descriptor), let known = readers[index] { return known }
        let reader = try entity.reader(for: names[index])
        types[index] = ObjectIdentifier(entity.descriptor)
        readers[index] = reader
        cases[index] = entity.descriptor.properties.first { $0.name == names[index] }?.cases
        return reader
    }
}
