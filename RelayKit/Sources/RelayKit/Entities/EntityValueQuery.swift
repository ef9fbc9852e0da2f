/// How a value of another kind becomes an entity of a type (App Intents' `IntentValueQuery`): a file
/// of a content type, a dictionary, a URL or a text. Where an entity of the type is wanted — a
/// parameter, `convert: TYPE` — a value these accept becomes one before its title is looked up.
///
/// ```swift
/// static var valueQueries: [EntityValueQuery<Trail>] {
///     [.file(Trail.codableType) { file in try JSONDecoder().decode(Trail.self, from: Data(contentsOf: file.url)) }]
/// }
/// ```
public struct EntityValueQuery<E: Entity>: Sendable {
    /// What the query takes: a file of a content type, or a value of a type.
    public let from: Representation
    /// The entity the value is, or nil when it is none of this type.
    public let entity: @Sendable (Value) async throws -> E?

    public init(from: Representation, entity: @escaping @Sendable (Value) async throws -> E?) {
        self.from = from
        self.entity = entity
    }

    /// A file whose type conforms to `type` becomes an entity, or nil.
    public static func file(_ type: ContentType, _ entity: @escaping @Sendable (FileReference) async throws -> E?) -> Self {
        Self(from: .file(type)) { value in
            guard case .file(let file) = value else { return nil }
            return try await entity(file)
        }
    }

    /// A value of `type` (a dictionary, a URL, a text) becomes an entity, or nil.
    public static func value(_ type: ValueType, _ entity: @escaping @Sendable (Value) async throws -> E?) -> Self {
        Self(from: .value(type), entity: entity)
    }
}

/// An entity type's value queries without its Swift type. Each is asked with the step's context,
/// which a package's host needs to be let at the value.
public struct EntityValueQueries: Sendable {
    public typealias Query = @Sendable (Value, EntityDescriptor, any IntentContext) async throws -> EntityValue?
    public let queries: [(from: Representation, entity: Query)]

    public init(_ queries: [(from: Representation, entity: Query)]) {
        self.queries = queries
    }

    init<E: Entity>(_ typed: [EntityValueQuery<E>]) {
        queries = typed.map { query in
            (query.from, { value, descriptor, _ in try await query.entity(value).map { EntityValue($0, descriptor: descriptor) } })
        }
    }
}
