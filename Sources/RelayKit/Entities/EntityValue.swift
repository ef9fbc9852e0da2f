import Foundation

/// An entity as a workflow value: the package's entity, with its type's descriptor so that Relay
/// can read its properties and convert it without knowing its Swift type. Equal when type and id are.
public struct EntityValue: Sendable, Hashable {
    public let descriptor: EntityDescriptor
    public let base: any Entity

    public init<E: Entity>(_ entity: E) {
        descriptor = EntityDescriptor.of(E.self)
        base = entity
    }

    public var id: String { base.id }
    public var typeName: String { descriptor.name.singular }
    public var display: DisplayRepresentation { base.displayRepresentation }
    public var title: String { display.title }

    public static func == (lhs: EntityValue, rhs: EntityValue) -> Bool {
        lhs.descriptor === rhs.descriptor && lhs.id == rhs.id
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(typeName)
        hasher.combine(id)
    }

    /// The names of `id`, `title`, `subtitle` and the declared properties.
    public var propertyNames: [String] { ["id", "title", "subtitle"] + descriptor.properties.map(\.name) }

    /// Reads a property, fetching a deferred one (SPEC §5).
    public func property(_ name: String) async throws -> Value {
        if let value = try builtInProperty(name) { return value }
        return try await descriptor.read(name, of: base)
    }

    /// Reads a property that needs no fetching: `id`, `title`, `subtitle`, stored and computed
    /// ones. Nil for a deferred property.
    public func propertyNow(_ name: String) throws(ValueAccessError) -> Value? {
        if let value = try builtInProperty(name) { return value }
        return try descriptor.readNow(name, of: base)
    }

    private func builtInProperty(_ name: String) throws(ValueAccessError) -> Value? {
        switch name {
        case "id": return .text(id)
        case "title": return .text(title)
        case "subtitle": return display.subtitle.map { .text($0) } ?? .nothing
        default:
            guard descriptor.property(named: name) != nil else {
                throw ValueAccessError(
                    "\(Naming.indefiniteArticle(for: typeName)) \(typeName) has no property '\(name)'\(Suggestions.didYouMean(name, in: propertyNames)); it has \(propertyNames.joined(separator: ", "))")
            }
            return nil
        }
    }

    /// SPEC §4 entity → dictionary: `id`, `title`, and the declared properties; deferred ones are
    /// fetched only when `includingDeferred`.
    public func dictionary(includingDeferred: Bool) async throws -> ValueDictionary {
        var dictionary: ValueDictionary = ["id": .text(id), "title": .text(title)]
        for property in descriptor.properties where includingDeferred || property.kind != .deferred {
            dictionary[property.name] = try await descriptor.read(property.name, of: base)
        }
        return dictionary
    }

    /// The dictionary without deferred properties, for output formats that cannot wait.
    public var dictionaryNow: ValueDictionary {
        var dictionary: ValueDictionary = ["id": .text(id), "title": .text(title)]
        for property in descriptor.properties where property.kind != .deferred {
            dictionary[property.name] = (try? descriptor.readNow(property.name, of: base)) ?? .nothing
        }
        return dictionary
    }

    /// SPEC §7: the URL its type's template makes from its id and properties.
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
