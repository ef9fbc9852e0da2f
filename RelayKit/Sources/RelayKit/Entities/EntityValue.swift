import Foundation

/// An entity as a workflow value: the package's entity, with its type's descriptor so that Relay
/// can read its properties and convert it without knowing its Swift type. Equal when type and id are.
public struct EntityValue: Sendable, Hashable {
    public let descriptor: EntityDescriptor
    /// The entity, in a box shared by copies of the value (a value is copied often; an entity may be large).
    @usableFromInline let box: any AnyEntityBox

    public init<E: Entity>(_ entity: E) {
        descriptor = EntityDescriptor.of(E.self)
        box = EntityBox(entity)
    }

    /// An entity with its type's descriptor already at hand (a query's many results).
    init<E: Entity>(_ entity: E, descriptor: EntityDescriptor) {
        self.descriptor = descriptor
        box = EntityBox(entity)
    }

    private init(descriptor: EntityDescriptor, box: any AnyEntityBox) {
        self.descriptor = descriptor
        self.box = box
    }

    /// Values of a query's many results, with their type's descriptor: the box's generic type is
    /// looked up once, not once an entity (4% of a find over a million).
    static func values<E: Entity>(_ entities: [E], descriptor: EntityDescriptor) -> [EntityValue] {
        let boxType = EntityBox<E>.self
        var values: [EntityValue] = []
        values.reserveCapacity(entities.count)
        for entity in entities { values.append(EntityValue(descriptor: descriptor, box: boxType.init(entity))) }
        return values
    }

    /// The same as workflow values, made in one list.
    static func listed<E: Entity>(_ entities: [E], descriptor: EntityDescriptor) -> [Value] {
        let boxType = EntityBox<E>.self
        var values: [Value] = []
        values.reserveCapacity(entities.count)
        for entity in entities { values.append(.entity(EntityValue(descriptor: descriptor, box: boxType.init(entity)))) }
        return values
    }

    /// The entity as an existential, for code that does not know its type.
    public var base: any Entity { box.base }

    /// The entity, if it is an `E`.
    @inlinable
    public func entity<E: Entity>(as type: E.Type) -> E? { (box as? EntityBox<E>)?.entity }

    public var id: String { box.id }
    public var typeName: String { descriptor.name.singular }
    public var display: DisplayRepresentation { box.display }
    public var title: String { display.title }

    public static func == (lhs: EntityValue, rhs: EntityValue) -> Bool {
        lhs.descriptor === rhs.descriptor && lhs.id == rhs.id
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(typeName)
        hasher.combine(id)
    }

    /// The names of `id`, `title`, `subtitle` and the declared properties.
    public var propertyNames: [String] { descriptor.filterablePropertyNames }

    /// Reads a property, fetching a deferred one (Docs/Language.md, "Entities").
    public func property(_ name: String) async throws -> Value {
        try await reader(for: name).value(of: self)
    }

    /// Reads a property that needs no fetching: `id`, `title`, `subtitle`, stored and computed
    /// ones. Nil for a deferred property.
    public func propertyNow(_ name: String) throws(ValueAccessError) -> Value? {
        try reader(for: name).now(self)
    }

    /// The reader of `name`; an error naming the properties there are when there is no such property.
    public func reader(for name: String) throws(ValueAccessError) -> PropertyReader {
        guard let reader = descriptor.reader(for: name) else {
            throw ValueAccessError(
                "\(Naming.indefiniteArticle(for: typeName)) \(typeName) has no property '\(name)'\(Suggestions.didYouMean(name, in: propertyNames)); it has \(propertyNames.joined(separator: ", "))")
        }
        return reader
    }

    /// Docs/Language.md, "Types and conversion" entity → dictionary: `id`, `title`, and the declared properties; deferred ones are
    /// fetched only when `includingDeferred`.
    public func dictionary(includingDeferred: Bool) async throws -> ValueDictionary {
        var dictionary: ValueDictionary = ["id": .text(id), "title": .text(title)]
        for property in descriptor.properties where includingDeferred || property.kind != .deferred {
            dictionary[property.name] = try await self.property(property.name)
        }
        return dictionary
    }

    /// The dictionary without deferred properties, for output formats that cannot wait.
    public var dictionaryNow: ValueDictionary {
        var dictionary: ValueDictionary = ["id": .text(id), "title": .text(title)]
        for property in descriptor.properties where property.kind != .deferred {
            dictionary[property.name] = (try? propertyNow(property.name)) ?? .nothing
        }
        return dictionary
    }

    /// Docs/Language.md, "Opening URLs": the URL its type's template makes from its id and properties.
    public func url() async throws -> URL {
        guard let template = descriptor.urlTemplate else {
            throw IntentError("\(Naming.indefiniteArticle(for: typeName)) \(typeName) has no URL: its type declares no URL template")
        }
        var values: [String: Value] = [:]
        for name in template.placeholders where values[name] == nil {
            values[name] = try await property(name)
        }
        do {
            return try template.url { values[$0] }
        } catch {
            throw IntentError("cannot make the URL of \(typeName) '\(title)': \(error)")
        }
    }
}

/// What an entity value keeps its entity in, without its type.
@usableFromInline
protocol AnyEntityBox: AnyObject, Sendable {
    var base: any Entity { get }
    var id: String { get }
    var display: DisplayRepresentation { get }
}

/// An entity of a known type in a box, so that a property getter specialized for `E` reaches it
/// with one class cast.
@usableFromInline
final class EntityBox<E: Entity>: AnyEntityBox {
    @usableFromInline let entity: E

    init(_ entity: E) { self.entity = entity }

    @usableFromInline var base: any Entity { entity }
    @usableFromInline var id: String { entity.id }
    @usableFromInline var display: DisplayRepresentation { entity.displayRepresentation }
}
