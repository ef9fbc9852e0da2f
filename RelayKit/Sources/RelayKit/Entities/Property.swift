@_spi(Reflection) import Swift

/// A stored property of an entity, declared once, as App Intents' `@Property` is:
///
/// ```swift
/// struct Book: Entity {
///     @Property var author: String
///     @Property var genre: Genre
///     …
/// }
/// ```
///
/// The property's name in workflows is the field's (`author`, `isRead`); its type is the field's.
/// An entity whose properties are all `@Property` fields needs no `properties` list; one with
/// computed or deferred properties too adds them to its fields:
/// `static var properties: [EntityProperty<Book>] { propertyFields + [.computed("isRead") { … }] }`.
/// Only structs' fields are found this way; a class lists its properties with `.stored`.
@propertyWrapper
public struct Property<Wrapped: ParameterValue>: Sendable {
    public var wrappedValue: Wrapped

    public init(wrappedValue: Wrapped) { self.wrappedValue = wrappedValue }
}

/// What `EntityProperty.fields` knows of a `@Property` field from its type alone.
protocol PropertyField: SendableMetatype {
    static var valueType: ValueType { get }
    static var cases: [String]? { get }
    static var caseTitles: [String: String] { get }
    /// The field's value, read from where it lies in its entity.
    static func value(at address: UnsafeRawPointer) -> Value
}

extension Property: PropertyField {
    static var valueType: ValueType { Wrapped.valueType }
    static var cases: [String]? { Wrapped.cases }
    static var caseTitles: [String: String] { Wrapped.caseTitles }
    static func value(at address: UnsafeRawPointer) -> Value { address.load(as: Self.self).wrappedValue.parameterValue }
}

extension EntityProperty {
    /// The `@Property` fields of the entity type, in the order they are declared: each read where
    /// the Swift runtime says the field lies in the struct (no `Mirror`, so a read costs what a
    /// key path's does).
    public static var fields: [EntityProperty<E>] {
        var found: [EntityProperty<E>] = []
        _ = _forEachField(of: E.self, options: []) { name, offset, type, kind in
            guard let field = type as? any PropertyField.Type else { return true }
            let label = String(cString: name)
            // The wrapper's storage is `_author` for `author`.
            let property = label.hasPrefix("_") ? String(label.dropFirst()) : label
            found.append(
                EntityProperty(
                    name: property, type: field.valueType, kind: .stored, cases: field.cases, caseTitles: field.caseTitles,
                    readNow: { value in
                        guard let entity = value.entity(as: E.self) else { return nil }
                        return withUnsafeBytes(of: entity) { bytes in bytes.baseAddress.map { field.value(at: $0 + offset) } }
                    }, fetch: nil))
            return true
        }
        return found
    }
}

extension Entity {
    /// The type's `@Property` fields as properties (`EntityProperty.fields`).
    public static var propertyFields: [EntityProperty<Self>] { EntityProperty<Self>.fields }

    /// The `@Property` fields, when the type lists no properties of its own.
    public static var properties: [EntityProperty<Self>] { propertyFields }
}

/// A `@Property` field encodes as its value, so an entity's Codable form is the same with or without it.
extension Property: Codable where Wrapped: Codable {
    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Wrapped.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension Property: Equatable where Wrapped: Equatable {}
extension Property: Hashable where Wrapped: Hashable {}
