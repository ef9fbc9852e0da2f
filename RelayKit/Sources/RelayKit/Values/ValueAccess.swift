import Foundation

/// A property or index that a value does not have.
public struct ValueAccessError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension Value {
    /// A URL's parts, as properties: `${link.host}`. `query` is decoded, `rawQuery` as written;
    /// `port` is a number. A part the URL lacks reads as nothing.
    public static let urlParts = ["scheme", "user", "password", "host", "port", "path", "query", "rawQuery", "fragment"]

    /// The property names each kind of value has (dictionaries have their keys too).
    public var propertyNames: [String] {
        switch self {
        case .text: ["count", "lines", "words", "size"]
        case .list: ["count", "first", "last"]
        case .dictionary(let entries): Array(entries.keys) + ["count", "keys", "values"]
        case .date: ["year", "month", "day", "hour", "minute", "second", "weekday"]
        case .url: Value.urlParts
        case .file(let file):
            FileReference.propertyNames
                + (file.contentType.conforms(to: .image) ? ["width", "height"] : [])
                + FilePropertyReaders.names(for: file.contentType)
        case .richText: ["text", "count"]
        case .entity(let entity): entity.propertyNames
        case .number, .boolean, .nothing: []
        }
    }

    /// Reads a property (Docs/Language.md, "Variables and expressions": `${list.count}`, `${date.year}`, `${dict.key}`). A dictionary's
    /// keys come first; a key it lacks reads as nothing.
    public func property(_ name: String) throws(ValueAccessError) -> Value {
        switch self {
        case .dictionary(let entries):
            if let value = entries[name] { return value }
            switch name {
            case "count": return .number(Double(entries.count))
            case "keys": return .list(entries.keys.map { .text($0) })
            case "values": return .list(Array(entries.values))
            default: return .nothing
            }
        case .list(let items):
            switch name {
            case "count": return .number(Double(items.count))
            case "first": return items.first ?? .nothing
            case "last": return items.last ?? .nothing
            default: return try Self.eachItem(of: items) { item throws(ValueAccessError) in try item.property(name) }
            }
        case .text(let text):
            switch name {
            case "count": return .number(Double(text.count))
            case "lines": return .list(TextSplitting.lines(text).map { .text($0) })
            case "words": return .list(TextSplitting.words(text).map { .text($0) })
            // As the file it would be saved as: its bytes in UTF-8 (Shortcuts' File Size of a text).
            case "size": return .number(Double(text.utf8.count))
            default: break
            }
        case .date(let date):
            let calendar = Calendar.current
            let component: Calendar.Component? =
                switch name {
                case "year": .year
                case "month": .month
                case "day": .day
                case "hour": .hour
                case "minute": .minute
                case "second": .second
                case "weekday": .weekday
                default: nil
                }
            if let component { return .number(Double(calendar.component(component, from: date))) }
        case .url(let url):
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            switch name {
            case "scheme": return url.scheme.map { .text($0) } ?? .nothing
            case "host": return components?.host.map { .text($0) } ?? .nothing
            case "path": return .text(components?.path ?? "")
            case "query": return components?.query.map { .text($0) } ?? .nothing
            case "fragment": return components?.fragment.map { .text($0) } ?? .nothing
            case "user": return components?.user.map { .text($0) } ?? .nothing
            case "password": return components?.password.map { .text($0) } ?? .nothing
            case "port": return components?.port.map { .number(Double($0)) } ?? .nothing
            case "rawQuery": return components?.percentEncodedQuery.map { .text($0) } ?? .nothing
            default: break
            }
        case .file(let file):
            if let value = try file.property(name) { return value }
        case .richText(let richText):
            switch name {
            case "text": return .text(richText.plainText)
            case "count": return .number(Double(richText.plainText.count))
            default: break
            }
        case .entity(let entity) where Self.listProperties.contains(name) && !entity.propertyNames.contains(name):
            return try Value.list([self]).property(name)
        case .entity(let entity):
            guard let value = try entity.propertyNow(name) else {
                throw ValueAccessError("the \(entity.typeName) property '\(name)' is fetched when read; read it in a step, as in '${\(entity.typeName).\(name)}'")
            }
            return value
        case .number, .boolean, .nothing: break
        }
        // A single value is a list of one where a list's own property is read, and nothing is a
        // list of none (Docs/Language.md, "Lists where one value is wanted"): `${found.count}` is
        // 1 for one file found.
        if Self.listProperties.contains(name) { return try Value.list(isNothing ? [] : [self]).property(name) }
        let available = propertyNames
        let list = available.isEmpty ? "it has no properties" : "it has \(available.joined(separator: ", "))"
        throw ValueAccessError("\(type.withArticle) has no property '\(name)'; \(list)")
    }

    /// Whether reading the property `name` may fetch: of an entity, or of the items of a list
    /// holding one (a list's own `count`, `first` and `last` never fetch, nor scan its items).
    public func mayFetch(_ name: String) -> Bool {
        switch self {
        case .entity: true
        // The file's type (which opens it) is looked at only when a waiting reader has that name.
        case .file(let file):
            FilePropertyReaders.all.contains { $0.name == name && $0.waits }
                && (FilePropertyReaders.reader(for: file.contentType, named: name)?.waits ?? false)
        case .list(let items) where !Self.listProperties.contains(name):
            items.contains { item in
                switch item {
                case .entity: true
                case .file: item.mayFetch(name)
                default: false
                }
            }
        default: false
        }
    }

    /// The properties of a list itself, not of its items.
    private static let listProperties: Set<String> = ["count", "first", "last"]

    /// Reads a property as `property(_:)` does, fetching an entity's deferred property.
    public func resolvedProperty(_ name: String) async throws -> Value {
        switch self {
        // A list's own property of an entity without one of that name: the entity as a list of one.
        case .entity(let entity) where Self.listProperties.contains(name) && !entity.propertyNames.contains(name): return try property(name)
        case .entity(let entity): return try await entity.property(name)
        case .file(let file): if let fetched = try await file.fetchedProperty(name) { return fetched } else { return try property(name) }
        case .list(let items) where mayFetch(name):
            if let item = onlyItem { return try await item.resolvedProperty(name) }
            var values: [Value] = []
            values.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                do {
                    values.append(try await item.resolvedProperty(name))
                } catch let error as ValueAccessError {
                    throw Self.itemLacks(name, index: index, of: items, error)
                }
            }
            return .list(values)
        default: return try property(name)
        }
    }

    /// Docs/Language.md, "Lists where one value is wanted": a property of a list of one is its
    /// item's; of a longer list, the list of its items' (`${photos.width}` is every width).
    private static func eachItem(of items: [Value], _ read: (Value) throws(ValueAccessError) -> Value) throws(ValueAccessError) -> Value {
        if items.count == 1 { return try read(items[0]) }
        var values: [Value] = []
        values.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            do throws(ValueAccessError) {
                values.append(try read(item))
            } catch {
                throw itemLacks(nil, index: index, of: items, error)
            }
        }
        return .list(values)
    }

    /// Item `index` of `items` has no such property: says which item, and what it is.
    private static func itemLacks(_ name: String?, index: Int, of items: [Value], _ error: ValueAccessError) -> ValueAccessError {
        ValueAccessError("item \(index + 1) of \(Value.list(items).briefDescription) (\(items[index].briefDescription)): \(error.message)")
    }

    /// Reads `value[index]`: lists and texts by 1-based position (negative counts from the end),
    /// dictionaries by key (a missing key reads as nothing).
    public func element(at index: Value) throws(ValueAccessError) -> Value {
        switch self {
        case .dictionary(let entries):
            return entries[index.textValue] ?? .nothing
        case .list(let items):
            return items[try position(index, count: items.count)]
        case .text(let text):
            let characters = Array(text)
            return .text(String(characters[try position(index, count: characters.count)]))
        default:
            throw ValueAccessError("\(type.withArticle) cannot be indexed; only lists, texts and dictionaries can")
        }
    }

    /// The 0-based offset for a 1-based `index` (negative from the end) into `count` elements.
    private func position(_ index: Value, count: Int) throws(ValueAccessError) -> Int {
        guard case .number(let number) = (try? index.coerced(to: .number)) ?? .nothing, let whole = Int(exactly: number) else {
            throw ValueAccessError("an index is a whole number, not \(index.briefDescription)")
        }
        let offset = whole > 0 ? whole - 1 : count + whole
        guard whole != 0, offset >= 0, offset < count else {
            let what = whole == 0 ? "index 0 is not a position: indexes start at 1 (and -1 is the last)" : "index \(whole) is out of range"
            throw ValueAccessError("\(what) for \(briefDescription)")
        }
        return offset
    }
}

/// Splits text the ways actions and properties need.
public enum TextSplitting {
    /// The lines of `text`, ended where a workflow file's lines end (`LineBreak`); a trailing line
    /// break does not make an empty last line.
    public static func lines(_ text: String) -> [String] {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: LineBreak.ends).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The words of `text`: runs of letters, digits, apostrophes and hyphens.
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text {
            if character.isLetter || character.isNumber || ((character == "'" || character == "’" || character == "-") && !current.isEmpty) {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current.trimmingCharacters(in: CharacterSet(charactersIn: "'’-")))
                current = ""
            }
        }
        if !current.isEmpty { words.append(current.trimmingCharacters(in: CharacterSet(charactersIn: "'’-"))) }
        return words
    }
}

extension Value {
    /// How deeply lists and dictionaries nest in the value (a text is 0, a list of texts 1), found
    /// without walking deeper than `limit + 1`: a value nested past `limit` gives `limit + 1`.
    public func nestingDepth(upTo limit: Int) -> Int {
        guard limit >= 0 else { return 1 }
        let items: [Value]
        switch self {
        case .list(let list): items = list
        case .dictionary(let entries): items = Array(entries.values)
        default: return 0
        }
        var deepest = 0
        for item in items {
            switch item {
            case .list, .dictionary:
                deepest = max(deepest, item.nestingDepth(upTo: limit - 1))
                if deepest >= limit { return limit + 1 }
            default: continue
            }
        }
        return deepest + 1
    }

    /// Nil when the value nests no deeper than `Limits.valueDepth`, else what to say.
    /// Why the value is larger than a run may hold (`Limits.textBytes`, `Limits.collectionItems`),
    /// looking at its own size only, which costs nothing; nil when it is within them.
    public var sizeProblem: String? {
        switch self {
        case .text(let text): Self.textSizeProblem(text.utf8.count)
        case .list(let items): Self.itemsProblem(items.count, of: "a list")
        case .dictionary(let entries): Self.itemsProblem(entries.count, of: "a dictionary")
        default: nil
        }
    }

    /// Why a text of `bytes` bytes is larger than a run may hold; nil when it is not.
    public static func textSizeProblem(_ bytes: Int) -> String? {
        guard bytes > Limits.textBytes else { return nil }
        return "a text may be at most \(ByteCount.text(Int64(Limits.textBytes), binary: true)); this one would be \(ByteCount.text(Int64(bytes), binary: true)) (does a loop keep doubling it?)"
    }

    /// Why `count` items are more than `what` may hold; nil when they are not.
    public static func itemsProblem(_ count: Int, of what: String) -> String? {
        guard count > Limits.collectionItems else { return nil }
        return "\(what) may hold at most \(Limits.collectionItems) items; this one would hold \(count)"
    }

    public var nestingProblem: String? {
        switch self {
        case .list, .dictionary:
            guard nestingDepth(upTo: Limits.valueDepth) > Limits.valueDepth else { return nil }
            return "lists and dictionaries nest more than \(Limits.valueDepth) deep in this value; does a loop put a value inside itself?"
        default: return nil
        }
    }
}
