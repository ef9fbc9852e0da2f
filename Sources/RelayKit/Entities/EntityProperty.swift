import Foundation

/// A declared property of an entity type (SPEC §5).
public struct EntityProperty<E: Entity>: Sendable {
    public let name: String
    public let type: ValueType
    public let kind: PropertyKind
    let readNow: (@Sendable (E) -> Value)?
    let fetch: (@Sendable (E) async throws -> Value)?

    /// A property the entity holds, read through a key path.
    public static func stored<T: ParameterValue>(_ name: String, _ keyPath: KeyPath<E, T> & Sendable) -> Self {
        Self(name: name, type: T.valueType, kind: .stored, readNow: { $0[keyPath: keyPath].parameterValue }, fetch: nil)
    }

    /// A property derived from the entity when read.
    public static func computed<T: ParameterValue>(_ name: String, _ derive: @escaping @Sendable (E) -> T) -> Self {
        Self(name: name, type: T.valueType, kind: .computed, readNow: { derive($0).parameterValue }, fetch: nil)
    }

    /// A property fetched only when read or filtered on.
    public static func deferred<T: ParameterValue>(_ name: String, _ fetch: @escaping @Sendable (E) async throws -> T) -> Self {
        Self(name: name, type: T.valueType, kind: .deferred, readNow: nil, fetch: { try await fetch($0).parameterValue })
    }

    /// The property's value for `entity`, fetching a deferred one.
    func value(of entity: E) async throws -> Value {
        if let readNow { return readNow(entity) }
        guard let fetch else { return .nothing }
        return try await fetch(entity)
    }
}

/// When an entity property's value is worked out.
public enum PropertyKind: String, Sendable {
    /// Held by the entity.
    case stored
    /// Derived from the entity each time it is read.
    case computed
    /// Fetched by an async getter only when a workflow reads it or filters on it — never when
    /// the entity is made, listed or passed along.
    case deferred
}
