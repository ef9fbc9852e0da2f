import Foundation

/// An entity whose type lives in another process (a package host): its id, how it shows itself,
/// and the property values that came with it. Its type's `EntityDescriptor` (made with
/// `init(hosted:)`) fetches the rest from the host.
public struct HostedEntity: Entity {
    public static let typeName = EntityTypeName("hosted-entity")
    public static let properties: [EntityProperty<HostedEntity>] = []
    public static var defaultQuery: any EntityQuery<HostedEntity> { NoQuery() }

    public let id: String
    public let displayRepresentation: DisplayRepresentation
    /// The values of the properties that need no fetching.
    public let values: ValueDictionary
    /// When it last changed, for the search index; nil when the host does not say.
    public let modified: Date?
    /// The forms the host can hand it over in, highest fidelity first.
    public let representations: [HostedRepresentation]

    public init(
        id: String, displayRepresentation: DisplayRepresentation, values: ValueDictionary, modified: Date? = nil,
        representations: [HostedRepresentation] = []
    ) {
        self.id = id
        self.displayRepresentation = displayRepresentation
        self.values = values
        self.modified = modified
        self.representations = representations
    }

    /// Hosted entities are found through their type's descriptor, not this query.
    struct NoQuery: EntityQuery {
        func entities(for ids: [String]) async throws -> [HostedEntity] { [] }
        func allEntities() async throws -> [HostedEntity] { [] }
    }
}

/// One form a hosted entity can be handed over in: bytes of a content type, or a stand-in value.
public struct HostedRepresentation: Sendable, Hashable {
    /// How the host hands it over (`TransferRepresentation.Export`).
    public enum Kind: String, Sendable, Hashable {
        case data, value, file
    }

    public var contentType: ContentType
    public var kind: Kind
    public var suggestedFileName: String?

    public init(contentType: ContentType, kind: Kind, suggestedFileName: String? = nil) {
        self.contentType = contentType
        self.kind = kind
        self.suggestedFileName = suggestedFileName
    }
}

/// What a hosted entity type's query is asked.
public enum HostedQuery: Sendable {
    case ids([String])
    case all
    case suggested
    case title(String)
    case request(QueryRequest)
}

/// An entity type that lives in a package host, as its manifest describes it, with the calls
/// that reach the host.
public struct HostedEntityType: Sendable {
    public var name: EntityTypeName
    public var properties: [EntityDescriptor.PropertyInfo]
    public var urlTemplate: URLTemplate?
    public var indexPriority: Double?
    public var capabilities: QueryCapabilities
    /// Runs the type's query in the host.
    public var query: @Sendable (HostedQuery) async throws -> [HostedEntity]
    /// Fetches a deferred property.
    public var fetch: @Sendable (HostedEntity, String) async throws -> Value
    /// Fetches a deferred property of many entities in one call, in their order.
    public var fetchMany: @Sendable ([HostedEntity], String) async throws -> [Value] = { entities, _ in
        throw IntentError("fetching for \(entities.count) entities at once is not offered")
    }
    /// The entity's transfer representations, each fetching its content from the host.
    public var transfer: @Sendable (HostedEntity) -> [TransferRepresentation]
    /// The texts to index, for an indexed type.
    public var indexRecord: (@Sendable (HostedEntity) async throws -> EntityDescriptor.IndexRecord)?
    /// How values of other kinds become entities of the type.
    public var valueQueries = EntityValueQueries([])

    public init(
        name: EntityTypeName, properties: [EntityDescriptor.PropertyInfo], urlTemplate: URLTemplate?, indexPriority: Double?,
        capabilities: QueryCapabilities, query: @escaping @Sendable (HostedQuery) async throws -> [HostedEntity],
        fetch: @escaping @Sendable (HostedEntity, String) async throws -> Value,
        transfer: @escaping @Sendable (HostedEntity) -> [TransferRepresentation],
        indexRecord: (@Sendable (HostedEntity) async throws -> EntityDescriptor.IndexRecord)?
    ) {
        self.name = name
        self.properties = properties
        self.urlTemplate = urlTemplate
        self.indexPriority = indexPriority
        self.capabilities = capabilities
        self.query = query
        self.fetch = fetch
        self.transfer = transfer
        self.indexRecord = indexRecord
    }
}
