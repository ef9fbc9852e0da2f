import Foundation

/// How Relay finds entities of one type, in the manner of App Intents' `EntityQuery`,
/// `EntityStringQuery` and `EntityPropertyQuery` in one protocol. Only `entities(for:)` and
/// `allEntities()` are required; a query that can filter, sort or limit itself says so in
/// `capabilities` and receives those parts of a `find` in `entities(matching:)`.
public protocol EntityQuery<Result>: Sendable {
    associatedtype Result: Entity

    /// The entities with these ids (those that exist), for values that come back by id.
    func entities(for ids: [String]) async throws -> [Result]
    /// Every entity, for filtering in memory.
    func allEntities() async throws -> [Result]
    /// A few entities to offer when a person picks one; by default the first 20 of all.
    func suggestedEntities() async throws -> [Result]
    /// Entities whose title matches `title` (for text → entity, Docs/Language.md, "Types and conversion"); by default those among
    /// all whose title contains it, ignoring case.
    func entities(matching title: String) async throws -> [Result]

    /// What `entities(matching:)` can do natively; by default nothing.
    var capabilities: QueryCapabilities { get }
    /// The entities that satisfy `request`, which holds only what `capabilities` allows. By default
    /// all entities (a request with no conditions, sort or limit).
    func entities(matching request: QueryRequest) async throws -> [Result]
}

extension EntityQuery {
    public func suggestedEntities() async throws -> [Result] { Array(try await allEntities().prefix(20)) }

    public func entities(matching title: String) async throws -> [Result] {
        try await allEntities().filter { $0.displayRepresentation.title.localizedCaseInsensitiveContains(title) }
    }

    public var capabilities: QueryCapabilities { QueryCapabilities() }

    public func entities(matching request: QueryRequest) async throws -> [Result] { try await allEntities() }
}

/// What a query does itself: comparators per property, sorting by some properties, limits.
public struct QueryCapabilities: Sendable {
    /// For each property name, the comparators the query applies natively.
    public var comparators: [String: Set<Comparator>]
    /// The properties the query sorts by natively.
    public var sortable: Set<String>
    /// Whether the query applies a limit natively.
    public var limits: Bool

    public init(comparators: [String: Set<Comparator>] = [:], sortable: Set<String> = [], limits: Bool = false) {
        self.comparators = comparators
        self.sortable = sortable
        self.limits = limits
    }

    /// Whether the query applies `condition` itself.
    public func supports(_ condition: FilterCondition) -> Bool {
        comparators[condition.property]?.contains(condition.comparator) ?? false
    }
}

/// The part of a `find` pushed down to a query: only conditions, sort keys and a limit its
/// capabilities allow.
public struct QueryRequest: Sendable {
    public var conditions: [FilterCondition]
    /// All conditions must hold (`match: all`), or any one (`match: any`).
    public var matchAll: Bool
    public var sort: [SortKey]
    public var limit: Int?

    public init(conditions: [FilterCondition] = [], matchAll: Bool = true, sort: [SortKey] = [], limit: Int? = nil) {
        self.conditions = conditions
        self.matchAll = matchAll
        self.sort = sort
        self.limit = limit
    }
}
