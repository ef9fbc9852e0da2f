/// A parameter value that is one of several entity types, in the manner of App Intents'
/// `@UnionValue`: an enum with exactly one entity per case.
///
/// ```swift
/// enum Pass: UnionValue {
///     case park(Park)
///     case trail(Trail)
///     static let members: [UnionMember<Pass>] = [.member(Park.self, Pass.park), .member(Trail.self, Pass.trail)]
///     var entity: any Entity {
///         switch self {
///         case .park(let park): park
///         case .trail(let trail): trail
///         }
///     }
/// }
/// ```
///
/// A parameter of type `Pass` accepts a park or a trail. Text resolves against each member type
/// in the order of `members`: the first type with a matching title wins (Docs/Language.md, "Types and conversion").
public protocol UnionValue: ParameterValue {
    /// One member per case, in the order text is resolved against them.
    static var members: [UnionMember<Self>] { get }
    /// The entity the case holds.
    var entity: any Entity { get }
}

/// One case of a `UnionValue`: its entity type and how to wrap an entity of that type.
public struct UnionMember<Union>: Sendable {
    /// The member entity type's names.
    public let typeName: EntityTypeName
    /// Wraps an entity value in the case, if the entity is of this member's type.
    let wrap: @Sendable (EntityValue) -> Union?

    /// The case of `union` that holds an `E`, made by `wrap` (usually the case itself: `Pass.park`).
    public static func member<E: Entity>(_ type: E.Type, _ wrap: @escaping @Sendable (E) -> Union) -> UnionMember<Union> {
        UnionMember(typeName: E.typeName) { entity in entity.entity(as: E.self).map(wrap) }
    }
}

extension UnionValue {
    public static var valueType: ValueType { .union(members.map(\.typeName.singular)) }
    /// Unions, like entities, have no empty value: their parameters are set before `perform` runs.
    public static var emptyValue: Self? { nil }

    public init(parameterValue: Value) throws(CoercionError) {
        guard case .entity(let entity) = parameterValue,
            let union = Self.members.lazy.compactMap({ $0.wrap(entity) }).first
        else { throw CoercionError(value: parameterValue, target: Self.valueType) }
        self = union
    }

    public var parameterValue: Value { .entity(EntityValue(entity)) }
}
