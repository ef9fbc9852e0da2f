import RelayKit

/// What the checker knows of a property read, `${value.name}`, from the type of the value: the
/// mirror, for types, of `Value.property` (Docs/Language.md, "Variables and expressions" and
/// "Lists where one value is wanted").
struct PropertyTyping {
    let entityTypes: EntityCatalog

    enum Outcome: Equatable {
        /// The property's type, and its items' type when it is a list of known items.
        case known(ValueType, item: ValueType?)
        /// The value has the property, or may have it, but its type is not known before the run.
        case unknown
        /// No value of the type has the property; these are the ones it has of its own (besides
        /// `count`, `first` and `last`, which every value has as a list of one).
        case missing(own: [String])
    }

    /// The properties of a list itself, not of its items, which every value has as a list of one.
    static let listProperties = ["count", "first", "last"]

    func property(_ name: String, of type: ValueType, item: ValueType?) -> Outcome {
        switch type {
        case .list:
            switch name {
            case "count": return .known(.number, item: nil)
            case "first", "last": return item.map { .known($0, item: nil) } ?? .unknown
            default: break
            }
            guard let item else { return .unknown }
            // A property of a list is the list of its items' properties.
            switch property(name, of: item, item: nil) {
            case .known(let itemType, _): return .known(.list, item: itemType)
            case .unknown: return .known(.list, item: nil)
            case .missing(let own): return .missing(own: own)
            }
        case .any, .dictionary, .union, .nothing:
            return .unknown
        case .entity(let typeName):
            guard let descriptor = entityTypes.descriptor(named: typeName) else { return .unknown }
            if let declared = descriptor.properties.first(where: { $0.name == name }) { return .known(declared.type, item: nil) }
            if ["id", "title", "subtitle"].contains(name) { return .known(.text, item: nil) }
            return single(name, of: type, own: descriptor.filterablePropertyNames)
        case .file:
            if let declared = FileReference.properties.first(where: { $0.name == name }) { return .known(declared.type, item: nil) }
            if ["width", "height"].contains(name) { return .known(.number, item: nil) }
            if FilePropertyReaders.allNames.contains(name) { return .unknown }
            return single(name, of: type, own: FileReference.propertyNames + ["width", "height"] + FilePropertyReaders.allNames)
        case .text:
            switch name {
            case "count", "size": return .known(.number, item: nil)
            case "lines", "words": return .known(.list, item: .text)
            default: return single(name, of: type, own: ["count", "lines", "words", "size"])
            }
        case .richText:
            switch name {
            case "text": return .known(.text, item: nil)
            case "count": return .known(.number, item: nil)
            default: return single(name, of: type, own: ["text", "count"])
            }
        case .date:
            let parts = ["year", "month", "day", "hour", "minute", "second", "weekday"]
            return parts.contains(name) ? .known(.number, item: nil) : single(name, of: type, own: parts)
        case .url:
            // A part a URL lacks reads as nothing.
            return Value.urlParts.contains(name) ? .unknown : single(name, of: type, own: Value.urlParts)
        case .number, .boolean:
            return single(name, of: type, own: [])
        }
    }

    /// The properties a value of `type` has: a list's own, then its items'; a single value's own,
    /// then those it has as a list of one. None for a value whose properties are not known before
    /// the run (a dictionary, anything).
    func names(of type: ValueType, item: ValueType?) -> [String] {
        // No property is named "": what is missing lists the type's own.
        guard case .missing(let own) = property("", of: type, item: item) else { return type == .list ? Self.listProperties : [] }
        return type == .list ? Self.listProperties + own.filter { !Self.listProperties.contains($0) } : own + Self.listProperties.filter { !own.contains($0) }
    }

    /// A property of a single value that is not one of its own: a list's own property of it as a
    /// list of one, else missing.
    private func single(_ name: String, of type: ValueType, own: [String]) -> Outcome {
        switch name {
        case "count": return .known(.number, item: nil)
        case "first", "last": return .known(type, item: nil)
        default: return .missing(own: own)
        }
    }
}
