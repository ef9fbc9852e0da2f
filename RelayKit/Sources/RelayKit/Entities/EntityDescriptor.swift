import Foundation

/// What Relay knows of an entity type without its Swift type: its names, properties, query, URL
/// template and indexing. One per type, made on first use and shared.
public final class EntityDescriptor: Sendable {
    /// A declared property, without its getter.
    public struct PropertyInfo: Sendable {
        public let name: String
        public let type: ValueType
        public let kind: PropertyKind
        /// For a deferred property: whether it is fetched for many entities in one call.
        public let fetchesMany: Bool
        /// The only texts the value may be (an `AppEnum`'s cases), else nil.
        public let cases: [String]?
        /// The name people see for each case that has one apart from its raw value.
        public let caseTitles: [String: String]

        public init(
            name: String, type: ValueType, kind: PropertyKind, fetchesMany: Bool = false, cases: [String]? = nil, caseTitles: [String: String] = [:]
        ) {
            self.name = name
            self.type = type
            self.kind = kind
            self.fetchesMany = fetchesMany
            self.cases = cases
            self.caseTitles = caseTitles
        }
    }

    /// The texts that go into the full-text index for one entity.
    public struct IndexRecord: Sendable {
        public let id: String
        public let title: String
        public let keywords: [String]
        public let content: String
        public let modified: Date?

        public init(id: String, title: String, keywords: [String], content: String, modified: Date?) {
            self.id = id
            self.title = title
            self.keywords = keywords
            self.content = content
            self.modified = modified
        }
    }

    public let name: EntityTypeName
    public let properties: [PropertyInfo]
    public let urlTemplate: URLTemplate?
    /// The folder the type's query reads, evaluated when asked (see `Entity.folder`).
    public let folder: @Sendable () -> String?
    /// The ranking priority when indexed, nil when not indexed.
    public let indexPriority: Double?
    /// How values of other kinds become entities of the type.
    public let valueQueries: EntityValueQueries

    private let readers: [String: PropertyReader]
    private let query: QueryFunctions
    private let transfer: @Sendable (any Entity) -> [TransferRepresentation]
    private let indexModified: @Sendable (any Entity) -> Date?
    private let indexRecord: @Sendable (any Entity) async throws -> IndexRecord?

    /// The query's operations, each returning the entities with this descriptor.
    private struct QueryFunctions: Sendable {
        let byIds: @Sendable ([String], EntityDescriptor) async throws -> [EntityValue]
        let all: @Sendable (EntityDescriptor) async throws -> [EntityValue]
        let suggested: @Sendable (EntityDescriptor) async throws -> [EntityValue]
        let byTitle: @Sendable (String, EntityDescriptor) async throws -> [EntityValue]
        let byRequest: @Sendable (QueryRequest, EntityDescriptor) async throws -> [Value]
        let capabilities: QueryCapabilities
    }

    private init<E: Entity>(_ type: E.Type) {
        let declared = E.properties
        name = E.typeName
        properties = declared.map { PropertyInfo(name: $0.name, type: $0.type, kind: $0.kind, fetchesMany: $0.fetchMany != nil, cases: $0.cases, caseTitles: $0.caseTitles) }
        urlTemplate = E.urlTemplate
        folder = { E.folder }
        indexPriority = E.indexing?.priority
        valueQueries = EntityValueQueries(E.valueQueries)
        var readers = Self.builtInReaders
        // A type's own `title` or `subtitle` is the one a workflow reads and filters on; `id` is
        // always the entity's identity.
        for property in declared where property.name != "id" {
            readers[property.name] = PropertyReader(name: property.name, property.readNow, fetch: property.fetch, fetchMany: property.fetchMany)
        }
        self.readers = readers
        let query = E.defaultQuery
        let wrap: @Sendable ([E], EntityDescriptor) -> [EntityValue] = { EntityValue.values($0, descriptor: $1) }
        self.query = QueryFunctions(
            byIds: { wrap(try await query.entities(for: $0), $1) },
            all: { wrap(try await query.allEntities(), $0) },
            suggested: { wrap(try await query.suggestedEntities(), $0) },
            byTitle: { wrap(try await query.entities(matching: $0), $1) },
            byRequest: { request, descriptor in
                EntityValue.listed(try await query.entities(matching: request), descriptor: descriptor)
            },
            capabilities: query.capabilities)
        transfer = { ($0 as? E)?.transferRepresentations ?? [] }
        let indexing = E.indexing
        indexModified = { base in (base as? E).flatMap { indexing?.modified($0) } }
        indexRecord = { base in
            guard let indexing, let entity = base as? E else { return nil }
            return IndexRecord(
                id: entity.id, title: entity.displayRepresentation.title, keywords: indexing.keywords(entity),
                content: try await indexing.content(entity), modified: indexing.modified(entity))
        }
    }

    /// The readers of the properties every entity has, whatever its type.
    private static let builtInReaders: [String: PropertyReader] = [
        "id": PropertyReader { .text($0.id) },
        "title": PropertyReader { .text($0.title) },
        "subtitle": PropertyReader { entity in entity.display.subtitle.map { .text($0) } ?? .nothing },
    ]

    /// The descriptor of an entity type that lives in another process (a package host), whose
    /// entities are `HostedEntity` values.
    public init(hosted type: HostedEntityType) {
        // A package's entities live in its own data folder, which is free; the host is confined apart.
        folder = { nil }
        name = type.name
        properties = type.properties
        urlTemplate = type.urlTemplate
        indexPriority = type.indexPriority
        valueQueries = type.valueQueries
        var readers = Self.builtInReaders
        let fetch = type.fetch, fetchMany = type.fetchMany
        for property in type.properties where property.name != "id" {
            let name = property.name
            var many: (@Sendable ([EntityValue]) async throws -> [Value])?
            if property.fetchesMany {
                many = { entities in try await fetchMany(entities.compactMap { $0.entity(as: HostedEntity.self) }, name) }
            }
            readers[name] = PropertyReader(
                name: name,
                { $0.entity(as: HostedEntity.self)?.values[name] },
                fetch: { entity in
                    guard let hosted = entity.entity(as: HostedEntity.self) else { return .nothing }
                    return try await fetch(hosted, name)
                }, fetchMany: many)
        }
        self.readers = readers
        let query = type.query
        let wrap: @Sendable ([HostedEntity], EntityDescriptor) -> [EntityValue] = { entities, descriptor in
            entities.map { EntityValue($0, descriptor: descriptor) }
        }
        self.query = QueryFunctions(
            byIds: { wrap(try await query(.ids($0)), $1) },
            all: { wrap(try await query(.all), $0) },
            suggested: { wrap(try await query(.suggested), $0) },
            byTitle: { wrap(try await query(.title($0)), $1) },
            byRequest: { request, descriptor in wrap(try await query(.request(request)), descriptor).map(Value.entity) },
            capabilities: type.capabilities)
        let transfer = type.transfer
        self.transfer = { ($0 as? HostedEntity).map(transfer) ?? [] }
        indexModified = { ($0 as? HostedEntity)?.modified }
        let indexRecord = type.indexRecord
        self.indexRecord = { base in
            guard let indexRecord, let entity = base as? HostedEntity else { return nil }
            return try await indexRecord(entity)
        }
    }

    /// An entity of this hosted type as a workflow value.
    public func value(of entity: HostedEntity) -> EntityValue { EntityValue(entity, descriptor: self) }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var descriptors: [ObjectIdentifier: EntityDescriptor] = [:]

    /// The descriptor of `type`, made on first use.
    public static func of<E: Entity>(_ type: E.Type) -> EntityDescriptor {
        lock.lock()
        defer { lock.unlock() }
        if let known = descriptors[ObjectIdentifier(type)] { return known }
        let made = EntityDescriptor(type)
        descriptors[ObjectIdentifier(type)] = made
        return made
    }

    /// The declared property called `name`.
    public func property(named name: String) -> PropertyInfo? { properties.first { $0.name == name } }

    /// The type of a property a `where` or `sort` may name: `id`, `title`, `subtitle` or a declared one.
    public func propertyType(_ name: String) -> ValueType? {
        if name != "id", let declared = property(named: name) { return declared.type }
        return ["id", "title", "subtitle"].contains(name) ? .text : nil
    }

    /// Every name a `where` or `sort` may use.
    /// Each once: a type may declare a `title` of its own.
    public var filterablePropertyNames: [String] {
        var names = ["id", "title", "subtitle"]
        for property in properties where !names.contains(property.name) { names.append(property.name) }
        return names
    }

    /// The reader of `id`, `title`, `subtitle` or a declared property; nil for other names.
    public func reader(for name: String) -> PropertyReader? { readers[name] }

    /// What the query does natively.
    public var capabilities: QueryCapabilities { query.capabilities }
    public func entities(for ids: [String]) async throws -> [EntityValue] { try await query.byIds(ids, self) }
    public func allEntities() async throws -> [EntityValue] { try await query.all(self) }
    public func suggestedEntities() async throws -> [EntityValue] { try await query.suggested(self) }
    public func entities(matchingTitle title: String) async throws -> [EntityValue] { try await query.byTitle(title, self) }
    /// The entities the query finds for `request`, as workflow values (ready to be filtered further).
    public func values(matching request: QueryRequest) async throws -> [Value] { try await query.byRequest(request, self) }

    /// The entity's transfer representations, highest fidelity first.
    public func transferRepresentations(of entity: EntityValue) -> [TransferRepresentation] { transfer(entity.base) }

    /// When the entity last changed, as its indexing says.
    public func indexModified(of entity: EntityValue) -> Date? { indexModified(entity.base) }

    /// The texts to index for the entity; nil when the type is not indexed.
    public func indexRecord(of entity: EntityValue) async throws -> IndexRecord? { try await indexRecord(entity.base) }
}

/// Reads one property of entities of one type, looked up once by name so that reading it from
/// many entities (filtering, sorting) costs no lookup per entity.
/// A class: a filter takes its reader for each item it judges, and a copy is then one retain,
/// not one for each closure.
public final class PropertyReader: Sendable {
    /// The value without fetching; nil for a deferred property.
    public let now: @Sendable (EntityValue) -> Value?
    private let fetch: (@Sendable (EntityValue) async throws -> Value)?
    private let fetchMany: (@Sendable ([EntityValue]) async throws -> [Value])?
    /// The property's name, which keys what a run has fetched.
    private let name: String

    init(
        name: String = "", _ now: @escaping @Sendable (EntityValue) -> Value?, fetch: (@Sendable (EntityValue) async throws -> Value)? = nil,
        fetchMany: (@Sendable ([EntityValue]) async throws -> [Value])? = nil
    ) {
        self.name = name
        self.now = now
        self.fetch = fetch
        self.fetchMany = fetchMany
    }

    /// Whether the property is fetched for many entities in one call.
    public var fetchesMany: Bool { fetchMany != nil }

    /// Fetches the property of `entities` in one call, when the type can and a run keeps what it
    /// fetched: the reads that follow find it fetched. Entities fetched already are not asked again.
    public func prefetch(_ entities: [EntityValue]) async throws {
        guard let fetchMany, let fetched = FetchedProperties.current, entities.count > 1 else { return }
        let keyed = entities.map { (key: FetchedProperties.Key(type: $0.typeName, id: $0.id, property: name), entity: $0) }
        var wanted = fetched.missing(keyed.map(\.key))
        guard wanted.count > 1 else { return }
        // Each entity once, in order: `remove` is true only the first time a key is met.
        let chosen = keyed.filter { wanted.remove($0.key) != nil }
        let values = try await fetchMany(chosen.map(\.entity))
        fetched.store(zip(chosen, values).map { ($0.key, $1) })
    }

    /// The values for `entities`, in their order: fetched in one call when the type can (a
    /// package's host answering for many entities at once).
    public func values(of entities: [EntityValue]) async throws -> [Value] {
        if let fetchMany, entities.contains(where: { now($0) == nil }) { return try await fetchMany(entities) }
        var values: [Value] = []
        for entity in entities { values.append(try await value(of: entity)) }
        return values
    }

    /// The value, fetching a deferred property — once per entity in a run (`FetchedProperties`).
    public func value(of entity: EntityValue) async throws -> Value {
        if let value = now(entity) { return value }
        guard let fetch else { return .nothing }
        guard let fetched = FetchedProperties.current else { return try await fetch(entity) }
        return try await fetched.value(for: .init(type: entity.typeName, id: entity.id, property: name)) { try await fetch(entity) }
    }
}
