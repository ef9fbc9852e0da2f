import Foundation

/// What Relay knows of an entity type without its Swift type: its names, properties, query, URL
/// template and indexing. One per type, made on first use and shared.
public final class EntityDescriptor: Sendable {
    /// A declared property, without its getter.
    public struct PropertyInfo: Sendable {
        public let name: String
        public let type: ValueType
        public let kind: PropertyKind
    }

    /// The texts that go into the full-text index for one entity.
    public struct IndexRecord: Sendable {
        public let id: String
        public let title: String
        public let keywords: [String]
        public let content: String
        public let modified: Date?
    }

    public let name: EntityTypeName
    public let properties: [PropertyInfo]
    public let urlTemplate: URLTemplate?
    /// The ranking priority when indexed, nil when not indexed.
    public let indexPriority: Double?

    private let readProperty: @Sendable (String, any Entity) async throws -> Value
    private let readPropertyNow: @Sendable (String, any Entity) -> Value?
    private let query: QueryFunctions
    private let transfer: @Sendable (any Entity) -> [TransferRepresentation]
    private let indexModified: @Sendable (any Entity) -> Date?
    private let indexRecord: @Sendable (any Entity) async throws -> IndexRecord?

    /// The query's operations, each returning entity values.
    private struct QueryFunctions: Sendable {
        let byIds: @Sendable ([String]) async throws -> [EntityValue]
        let all: @Sendable () async throws -> [EntityValue]
        let suggested: @Sendable () async throws -> [EntityValue]
        let byTitle: @Sendable (String) async throws -> [EntityValue]
        let byRequest: @Sendable (QueryRequest) async throws -> [EntityValue]
        let capabilities: QueryCapabilities
    }

    private init<E: Entity>(_ type: E.Type) {
        let declared = E.properties
        let byName = Dictionary(declared.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        name = E.typeName
        properties = declared.map { PropertyInfo(name: $0.name, type: $0.type, kind: $0.kind) }
        urlTemplate = E.urlTemplate
        indexPriority = E.indexing?.priority
        readProperty = { name, base in
            guard let entity = base as? E, let property = byName[name] else { return .nothing }
            return try await property.value(of: entity)
        }
        readPropertyNow = { name, base in
            guard let entity = base as? E, let property = byName[name] else { return .nothing }
            return property.readNow?(entity)
        }
        let query = E.defaultQuery
        let wrap: @Sendable ([E]) -> [EntityValue] = { $0.map(EntityValue.init) }
        self.query = QueryFunctions(
            byIds: { wrap(try await query.entities(for: $0)) },
            all: { wrap(try await query.allEntities()) },
            suggested: { wrap(try await query.suggestedEntities()) },
            byTitle: { wrap(try await query.entities(matching: $0)) },
            byRequest: { wrap(try await query.entities(matching: $0)) },
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
        switch name {
        case "id", "title", "subtitle": .text
        default: property(named: name)?.type
        }
    }

    /// Every name a `where` or `sort` may use.
    public var filterablePropertyNames: [String] { ["id", "title", "subtitle"] + properties.map(\.name) }

    func read(_ name: String, of base: any Entity) async throws -> Value { try await readProperty(name, base) }

    func readNow(_ name: String, of base: any Entity) throws(ValueAccessError) -> Value? { readPropertyNow(name, base) }

    /// What the query does natively.
    public var capabilities: QueryCapabilities { query.capabilities }
    public func entities(for ids: [String]) async throws -> [EntityValue] { try await query.byIds(ids) }
    public func allEntities() async throws -> [EntityValue] { try await query.all() }
    public func suggestedEntities() async throws -> [EntityValue] { try await query.suggested() }
    public func entities(matchingTitle title: String) async throws -> [EntityValue] { try await query.byTitle(title) }
    public func entities(matching request: QueryRequest) async throws -> [EntityValue] { try await query.byRequest(request) }

    /// The entity's transfer representations, highest fidelity first.
    public func transferRepresentations(of entity: EntityValue) -> [TransferRepresentation] { transfer(entity.base) }

    /// When the entity last changed, as its indexing says.
    public func indexModified(of entity: EntityValue) -> Date? { indexModified(entity.base) }

    /// The texts to index for the entity; nil when the type is not indexed.
    public func indexRecord(of entity: EntityValue) async throws -> IndexRecord? { try await indexRecord(entity.base) }
}
