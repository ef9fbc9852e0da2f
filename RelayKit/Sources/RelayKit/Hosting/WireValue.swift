import Foundation

/// How values cross the package-host protocol (Docs/PackageProtocol.md): JSON with each value
/// tagged by its type, so that nothing is lost on the way — a text that looks like a number stays
/// text, a date stays a date, a dictionary keeps its key order.
public enum WireValue {
    /// An entity as it crosses: its type and id, how it shows itself, and the values of its
    /// properties that need no fetching.
    public struct Entity: Sendable {
        public var type: String
        public var id: String
        public var title: String
        public var subtitle: String?
        public var properties: ValueDictionary
        /// When it last changed, for the search index, if its type says.
        public var modified: Date?
        /// The forms it can be handed over in, highest fidelity first.
        public var representations: [HostedRepresentation]

        public init(
            type: String, id: String, title: String, subtitle: String?, properties: ValueDictionary, modified: Date? = nil,
            representations: [HostedRepresentation] = []
        ) {
            self.type = type
            self.id = id
            self.title = title
            self.subtitle = subtitle
            self.properties = properties
            self.modified = modified
            self.representations = representations
        }

        /// The entity as a dictionary of its id, title and properties: what it becomes on a side
        /// that does not know its type (one of Relay's photos given to a package action).
        public var dictionary: Value {
            var dictionary: ValueDictionary = ["id": .text(id), "title": .text(title)]
            for (name, value) in properties { dictionary[name] = value }
            return .dictionary(dictionary)
        }
    }

    /// The tagged JSON value for `value`.
    public static func encode(_ value: Value) -> Value {
        switch value {
        case .nothing: return .nothing
        case .text(let text): return ["text": .text(text)]
        // JSON has no NaN or infinities: those travel as their text (`NaN`, `Infinity`, `-Infinity`).
        case .number(let number): return ["number": number.isFinite ? .number(number) : .text(NumberFormatting.text(number))]
        case .boolean(let flag): return ["boolean": .boolean(flag)]
        case .date(let date): return ["date": .number(date.timeIntervalSince1970)]
        case .url(let url): return ["url": .text(url.absoluteString)]
        case .file(let file): return ["file": .text(file.path)]
        case .richText(let richText): return ["rich-text": RichTextWire.encode(richText)]
        case .list(let items): return ["list": .list(items.map(encode))]
        case .dictionary(let dictionary):
            return ["dictionary": .list(dictionary.elements.map { .list([.text($0.key), encode($0.value)]) })]
        case .entity(let entity):
            var properties = ValueDictionary()
            for property in entity.descriptor.properties {
                if let known = try? entity.propertyNow(property.name) { properties[property.name] = encode(known) }
            }
            var wire: ValueDictionary = ["type": .text(entity.typeName), "id": .text(entity.id), "title": .text(entity.title)]
            if let subtitle = entity.display.subtitle { wire["subtitle"] = .text(subtitle) }
            wire["properties"] = .dictionary(properties)
            if let modified = entity.descriptor.indexModified(of: entity) { wire["modified"] = .number(modified.timeIntervalSince1970) }
            wire["transfer"] = .list(entity.descriptor.transferRepresentations(of: entity).map { representation in
                let kind: String =
                    switch representation.export {
                    case .data: "data"
                    case .proxy: "value"
                    case .file: "file"
                    }
                var entry: ValueDictionary = ["type": .text(representation.contentType.identifier), "kind": .text(kind)]
                if let name = representation.suggestedFileName { entry["file-name"] = .text(name) }
                return .dictionary(entry)
            })
            return ["entity": .dictionary(wire)]
        }
    }

    /// The value a tagged JSON value stands for; `entity` makes an entity value from its wire form.
    public static func decode(_ wire: Value, entity: (Entity) async throws -> Value) async throws -> Value {
        if wire.isNothing { return .nothing }
        guard case .dictionary(let tagged) = wire, tagged.count == 1, let (tag, payload) = tagged.elements.first.map({ ($0.key, $0.value) }) else {
            throw WireError("a value must be null or an object with one key naming its type, not \(wire.briefDescription)")
        }
        switch (tag, payload) {
        case ("text", .text(let text)): return .text(text)
        case ("number", .number(let number)): return .number(number)
        case ("number", .text("NaN")): return .number(.nan)
        case ("number", .text("Infinity")): return .number(.infinity)
        case ("number", .text("-Infinity")): return .number(-.infinity)
        case ("boolean", .boolean(let flag)): return .boolean(flag)
        case ("date", .number(let seconds)): return .date(Date(timeIntervalSince1970: seconds))
        case ("url", .text(let text)):
            guard let url = URL(string: text) else { throw WireError("'\(text)' is not a URL") }
            return .url(url)
        case ("file", .text(let path)): return .file(FileReference(path: path))
        case ("rich-text", let blocks): return .richText(try RichTextWire.decode(blocks))
        case ("list", .list(let items)):
            var decoded: [Value] = []
            for item in items { decoded.append(try await decode(item, entity: entity)) }
            return .list(decoded)
        case ("dictionary", .list(let pairs)):
            var dictionary = ValueDictionary()
            for pair in pairs {
                guard case .list(let parts) = pair, parts.count == 2, case .text(let key) = parts[0] else {
                    throw WireError("a dictionary is a list of [key, value] pairs")
                }
                dictionary[key] = try await decode(parts[1], entity: entity)
            }
            return .dictionary(dictionary)
        case ("entity", .dictionary(let fields)):
            return try await entity(try decodeEntity(fields, entity: entity))
        default:
            throw WireError("unknown value '\(tag)' holding \(payload.briefDescription)")
        }
    }

    /// The value a tagged JSON value stands for, in a process whose entity types are `catalog`:
    /// entities of those types are found again by id; others become dictionaries.
    public static func decode(_ wire: Value, in catalog: EntityCatalog) async throws -> Value {
        try await decode(wire) { entity in
            if let descriptor = catalog.descriptor(named: entity.type), let found = try await descriptor.entities(for: [entity.id]).first {
                return .entity(found)
            }
            return entity.dictionary
        }
    }

    private static func decodeEntity(_ fields: ValueDictionary, entity: (Entity) async throws -> Value) async throws -> Entity {
        guard case .text(let type)? = fields["type"], case .text(let id)? = fields["id"] else {
            throw WireError("an entity needs a 'type' and an 'id'")
        }
        var properties = ValueDictionary()
        if case .dictionary(let wired)? = fields["properties"] {
            for (name, value) in wired { properties[name] = try await decode(value, entity: entity) }
        }
        let title = fields["title"].map(\.textValue) ?? id
        let subtitle = fields["subtitle"].flatMap { $0.isNothing ? nil : $0.textValue }
        let modified: Date? = if case .number(let seconds)? = fields["modified"] { Date(timeIntervalSince1970: seconds) } else { nil }
        let representations = (fields["transfer"]?.asList ?? []).compactMap { item -> HostedRepresentation? in
            guard case .dictionary(let entry) = item, case .text(let identifier)? = entry["type"] else { return nil }
            return HostedRepresentation(
                contentType: ContentType(identifier), kind: HostedRepresentation.Kind(rawValue: entry["kind"]?.textValue ?? "") ?? .value,
                suggestedFileName: entry["file-name"].flatMap { $0.isNothing ? nil : $0.textValue })
        }
        return Entity(
            type: type, id: id, title: title, subtitle: subtitle, properties: properties, modified: modified, representations: representations)
    }
}

/// A message of the package-host protocol that does not have the shape it must.
public struct WireError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
