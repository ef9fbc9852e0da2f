import Foundation

/// A declared property of an entity type (Docs/Language.md, "Entities").
///
/// The factories are inlinable so that their getters are specialized for the entity type in the
/// package that declares it: reading a property of many entities then costs no generic lookups.
public struct EntityProperty<E: Entity>: Sendable {
    public let name: String
    public let type: ValueType
    public let kind: PropertyKind
    /// The only texts the value may be (an `AppEnum`'s cases), else nil.
    public let cases: [String]?
    /// The name people see for each case that has one apart from its raw value.
    public let caseTitles: [String: String]
    /// The value without fetching, for an entity of type `E`; nil for a deferred property.
    let readNow: @Sendable (EntityValue) -> Value?
    /// Fetches a deferred property's value.
    let fetch: (@Sendable (EntityValue) async throws -> Value)?
    /// Fetches a deferred property of many entities in one call, when the type can.
    let fetchMany: (@Sendable ([EntityValue]) async throws -> [Value])?

    @usableFromInline
    init(name: String, type: ValueType, kind: PropertyKind, cases: [String]? = nil, caseTitles: [String: String] = [:], readNow: @escaping @Sendable (EntityValue) -> Value?,
        fetch: (@Sendable (EntityValue) async throws -> Value)?, fetchMany: (@Sendable ([EntityValue]) async throws -> [Value])? = nil) {
        self.name = name
        self.cases = cases
        self.caseTitles = caseTitles
        self.type = type
        self.kind = kind
        self.readNow = readNow
        self.fetch = fetch
        self.fetchMany = fetchMany
    }

    /// A property the entity holds, read through a key path.
    @inlinable
    public static func stored<T: ParameterValue>(_ name: String, _ keyPath: KeyPath<E, T> & Sendable) -> Self {
        Self(name: name, type: T.valueType, kind: .stored, cases: T.cases, caseTitles: T.caseTitles, readNow: { $0.entity(as: E.self)?[keyPath: keyPath].parameterValue }, fetch: nil)
    }

    /// A property derived from the entity when read.
    @inlinable
    public static func computed<T: ParameterValue>(_ name: String, _ derive: @escaping @Sendable (E) -> T) -> Self {
        Self(name: name, type: T.valueType, kind: .computed, cases: T.cases, caseTitles: T.caseTitles, readNow: { $0.entity(as: E.self).map { derive($0).parameterValue } }, fetch: nil)
    }

    /// A property fetched only when read or filtered on.
    @inlinable
    public static func deferred<T: ParameterValue>(_ name: String, _ fetch: @escaping @Sendable (E) async throws -> T) -> Self {
        Self(
            name: name, type: T.valueType, kind: .deferred, cases: T.cases, caseTitles: T.caseTitles, readNow: { _ in nil },
            fetch: { base in
                guard let entity = base.entity(as: E.self) else { return .nothing }
                return try await fetch(entity).parameterValue
            })
    }
}

extension EntityProperty {
    /// A property fetched only when read or filtered on, for many entities in one call when
    /// `find`, `filter` or `sort` needs it of many (one request to a service, not one per entity).
    /// `fetch` answers one value per entity, in order.
    @inlinable
    public static func deferred<T: ParameterValue>(_ name: String, many fetch: @escaping @Sendable ([E]) async throws -> [T]) -> Self {
        let fetchMany: @Sendable ([EntityValue]) async throws -> [Value] = { bases in
            let entities = bases.compactMap { $0.entity(as: E.self) }
            guard entities.count == bases.count else { return bases.map { _ in .nothing } }
            let values = try await fetch(entities)
            guard values.count == entities.count else {
                throw IntentError("'\(name)' of \(entities.count) \(E.typeName.plural) gave \(values.count) values")
            }
            return values.map(\.parameterValue)
        }
        return Self(
            name: name, type: T.valueType, kind: .deferred, cases: T.cases, caseTitles: T.caseTitles, readNow: { _ in nil },
            fetch: { base in try await fetchMany([base]).first ?? .nothing }, fetchMany: fetchMany)
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
