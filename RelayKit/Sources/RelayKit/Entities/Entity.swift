import Foundation

/// The singular and plural names of an entity type: `photo` and `photos`. Workflows write either
/// (`find: photos`); values and types are named by the singular.
public struct EntityTypeName: Sendable, Hashable {
    public let singular: String
    public let plural: String

    /// `plural` defaults to the singular with an `s`.
    public init(_ singular: String, plural: String? = nil) {
        self.singular = singular
        self.plural = plural ?? singular + "s"
    }
}

/// How an entity shows itself (App Intents' `DisplayRepresentation`): a title, and optionally a
/// subtitle and an image.
public struct DisplayRepresentation: Sendable, Hashable {
    public var title: String
    public var subtitle: String?
    /// An image file that stands for the entity, such as a photo's own file.
    public var image: FileReference?

    public init(title: String, subtitle: String? = nil, image: FileReference? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
    }
}

/// `"In Progress"`: a display representation with a title only.
extension DisplayRepresentation: ExpressibleByStringLiteral {
    public init(stringLiteral title: String) { self.init(title: title) }
}

/// A thing a package exposes to workflows — a photo, a note, a trail — in the manner of App
/// Intents' `AppEntity`:
///
/// ```swift
/// struct Trail: Entity {
///     static let typeName = EntityTypeName("trail")
///     static let properties: [EntityProperty<Trail>] = [
///         .stored("name", \.name), .stored("distance", \.distance),
///         .deferred("conditions") { trail in try await Weather.conditions(at: trail.region) },
///     ]
///     static let defaultQuery: any EntityQuery<Trail> = TrailQuery()
///     let id: String
///     let name: String
///     let distance: Double
///     var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: name) }
/// }
/// ```
public protocol Entity: ParameterValue {
    /// The type's names in workflows.
    static var typeName: EntityTypeName { get }
    /// The declared properties: stored, computed or deferred.
    static var properties: [EntityProperty<Self>] { get }
    /// How Relay finds entities of this type: by id, by title, suggested, by property.
    static var defaultQuery: any EntityQuery<Self> { get }
    /// The URL an entity converts to (Docs/Language.md, "Opening URLs"), if the type has one.
    static var urlTemplate: URLTemplate? { get }
    /// How entities of this type go into the full-text index for `search`, if they do.
    static var indexing: EntityIndexing<Self>? { get }
    /// How values of other kinds become entities of this type (a file of its format, a
    /// dictionary, a URL), tried before a text is looked up by title. None by default.
    static var valueQueries: [EntityValueQuery<Self>] { get }
    /// The folder whose files the type's query reads (a library such as `~/Pictures`), if any:
    /// finding entities of the type asks the run's gate to read it (Docs/Security.md).
    static var folder: String? { get }

    /// Identifies the entity within its type; stable across runs.
    var id: String { get }
    /// The title (and subtitle and image) people see.
    var displayRepresentation: DisplayRepresentation { get }
    /// The forms the entity can be handed over in, highest fidelity first (Docs/Language.md, "Conversions between formats").
    var transferRepresentations: [TransferRepresentation] { get }
}

extension Entity {
    public static var urlTemplate: URLTemplate? { nil }
    public static var indexing: EntityIndexing<Self>? { nil }
    public static var folder: String? { nil }
    public static var valueQueries: [EntityValueQuery<Self>] { [] }
    public var transferRepresentations: [TransferRepresentation] {
        [.proxy(.plainText) { .text(displayRepresentation.title) }]
    }

    public static var valueType: ValueType { .entity(typeName.singular) }
    /// Entities have no empty value: a parameter of an entity type is set before `perform` runs.
    public static var emptyValue: Self? { nil }

    public init(parameterValue: Value) throws(CoercionError) {
        guard case .entity(let entity) = parameterValue, let base = entity.entity(as: Self.self) else {
            throw CoercionError(value: parameterValue, target: Self.valueType)
        }
        self = base
    }

    public var parameterValue: Value { .entity(EntityValue(self)) }
}

/// How an entity type is indexed for `search`: the texts to index besides the title, and a
/// priority that lifts its entities in the ranking.
public struct EntityIndexing<E: Entity>: Sendable {
    /// Words the entity should be found by that its texts may not contain.
    public let keywords: @Sendable (E) -> [String]
    /// The text of custom indexed properties (a note's body, a trail's region).
    public let content: @Sendable (E) async throws -> String
    /// When the entity last changed, so the index re-reads only what changed; nil re-reads always.
    public let modified: @Sendable (E) -> Date?
    /// How much an entity of this type counts in the ranking, 0 (least) to 1 (most); default 0.5.
    public let priority: Double

    public init(
        priority: Double = 0.5, keywords: @escaping @Sendable (E) -> [String] = { _ in [] },
        modified: @escaping @Sendable (E) -> Date? = { _ in nil },
        content: @escaping @Sendable (E) async throws -> String
    ) {
        self.priority = min(max(priority, 0), 1)
        self.keywords = keywords
        self.modified = modified
        self.content = content
    }
}
