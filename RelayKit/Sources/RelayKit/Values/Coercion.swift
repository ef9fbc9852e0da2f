import Foundation

/// A value that could not be converted to the type something asked for.
public struct CoercionError: Error, Sendable, CustomStringConvertible {
    /// The value that was given.
    public let value: Value
    /// The type that was asked for.
    public let target: ValueType
    /// Why, when there is more to say than the two types.
    public let reason: String?

    public init(value: Value, target: ValueType, reason: String? = nil) {
        self.value = value
        self.target = target
        self.reason = reason
    }

    public var description: String {
        // A number that is not the number wanted says what was wanted, not "to a number".
        if case .number = value.oneValue, target == .number, let reason { return "\(value.briefDescription) is not \(reason)" }
        var message = "cannot convert \(value.briefDescription) to \(target.withArticle)"
        if let reason { message += ": \(reason)" }
        return message
    }
}

extension Value {
    /// Docs/Language.md, "Lists where one value is wanted": a list of exactly one item is that item
    /// wherever one value is wanted; any other value is itself.
    @inlinable
    public var oneValue: Value { onlyItem ?? self }

    /// `transform` of the value, or of each item of a list (Docs/Language.md, "Lists where one
    /// value is wanted"): a list of one gives its item's result, a longer list the list of results.
    public func eachItem(_ transform: (Value) async throws -> Value) async rethrows -> Value {
        guard case .list(let items) = self else { return try await transform(self) }
        if items.count == 1 { return try await transform(items[0]) }
        var results: [Value] = []
        results.reserveCapacity(items.count)
        for item in items { results.append(try await transform(item)) }
        return .list(results)
    }

    /// The item of a list of exactly one, else nil.
    @inlinable
    public var onlyItem: Value? {
        if case .list(let items) = self, items.count == 1 { return items[0] }
        return nil
    }

    /// The value as text (Docs/Language.md, "Types and conversion"): numbers without `.0`, dates as ISO 8601, lists one item a line,
    /// dictionaries as JSON, nothing as empty text.
    public var textValue: String {
        switch self {
        case .nothing: ""
        case .text(let text): text
        case .number(let number): NumberFormatting.text(number)
        case .boolean(let flag): flag ? "true" : "false"
        case .date(let date): DateFormatting.iso8601(date)
        case .url(let url): url.absoluteString
        case .file(let file): file.path
        case .richText(let richText): richText.plainText
        case .list(let items): items.map(\.textValue).joined(separator: "\n")
        case .dictionary: JSONWriter.string(for: self, pretty: true)
        case .entity(let entity): entity.title
        }
    }

    /// A short description for messages: `text 'abc'`, `number 5`, `a list of 3 items`.
    public var briefDescription: String {
        switch self {
        case .nothing: return "nothing"
        case .text(let text):
            let shown = text.count > 40 ? String(text.prefix(37)) + "..." : text
            return "text '\(shown)'"
        case .list(let items): return "a list of \(items.count) item\(items.count == 1 ? "" : "s")"
        case .dictionary(let entries): return "a dictionary of \(entries.count) key\(entries.count == 1 ? "" : "s")"
        case .entity(let entity): return "\(entity.typeName) '\(Excerpt.start(of: entity.title))'"
        default: return "\(type.name) \(Excerpt.start(of: textValue))"
        }
    }

    /// Whether the value counts as true in a condition (Docs/Language.md, "Steps"): `false`, `0`, nothing, empty text,
    /// an empty list and the texts `false` / `no` are false; everything else is true.
    public var isTruthy: Bool {
        switch self {
        case .nothing: return false
        case .boolean(let flag): return flag
        case .number(let number): return number != 0
        case .text(let text):
            let lowered = text.lowercased()
            return !(text.isEmpty || lowered == "false" || lowered == "no")
        case .list(let items): return !items.isEmpty
        case .dictionary(let entries): return !entries.isEmpty
        case .date, .url, .file, .entity: return true
        case .richText(let richText): return !richText.blocks.isEmpty
        }
    }

    /// Converts the value to `target` by the rules of Docs/Language.md, "Types and conversion". Relative paths (text → file) resolve
    /// against `baseDirectory`, else the current directory.
    public func coerced(to target: ValueType, relativeTo baseDirectory: URL? = nil) throws(CoercionError) -> Value {
        switch target {
        case .any: return self
        case .nothing: return .nothing
        case .text:
            if case .file(let file) = oneValue { return .text(try file.text(for: oneValue)) }
            return .text(textValue)
        case .file: return .file(try fileValue(relativeTo: baseDirectory))
        case .richText: return .richText(try richTextValue(relativeTo: baseDirectory))
        case .number: return .number(try numberValue())
        case .boolean: return .boolean(try booleanValue())
        case .date: return .date(try dateValue())
        case .url: return .url(try urlValue())
        case .list: return .list(asList)
        case .dictionary: return .dictionary(try dictionaryValue())
        case .entity, .union:
            if case .entity(let entity) = oneValue, target.entityTypeNames.contains(entity.typeName) { return oneValue }
            throw CoercionError(value: self, target: target)
        }
    }

    /// The value as a number: numbers, texts that read as numbers, booleans (1/0), a list of one number.
    public func numberValue() throws(CoercionError) -> Double {
        if let item = onlyItem { return try item.numberValue() }
        switch self {
        case .number(let number): return number
        case .boolean(let flag): return flag ? 1 : 0
        case .text(let text):
            guard let number = NumberParsing.number(from: text) else {
                throw CoercionError(value: self, target: .number, reason: "'\(text)' is not a number")
            }
            return number
        default: throw CoercionError(value: self, target: .number)
        }
    }

    /// The value as a boolean parameter: booleans, numbers (0 is false), and the texts
    /// `true/false/yes/no/1/0` in any case.
    public func booleanValue() throws(CoercionError) -> Bool {
        if let item = onlyItem { return try item.booleanValue() }
        switch self {
        case .boolean(let flag): return flag
        case .number(let number): return number != 0
        case .text(let text):
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default:
                throw CoercionError(value: self, target: .boolean, reason: "use true/false, yes/no or 1/0")
            }
        default: throw CoercionError(value: self, target: .boolean)
        }
    }

    /// The value as a date: dates, and texts in the forms of `DateFormatting.parse`.
    public func dateValue() throws(CoercionError) -> Date {
        if let item = onlyItem { return try item.dateValue() }
        switch self {
        case .date(let date): return date
        case .text(let text):
            guard let date = DateFormatting.parse(text) else {
                throw CoercionError(
                    value: self, target: .date,
                    reason: "use YYYY-MM-DD, an ISO 8601 date-time, 'YYYY-MM-DD HH:MM', today, yesterday, tomorrow or now")
            }
            return date
        default: throw CoercionError(value: self, target: .date)
        }
    }

    /// The value as a URL: URLs, and texts that are absolute URLs with a scheme.
    public func urlValue() throws(CoercionError) -> URL {
        if let item = onlyItem { return try item.urlValue() }
        switch self {
        case .url(let url): return url
        case .text(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard let url = URL(string: trimmed), let scheme = url.scheme, !scheme.isEmpty,
                scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
            else {
                throw CoercionError(value: self, target: .url, reason: "a URL needs a scheme, like https://")
            }
            return url
        default: throw CoercionError(value: self, target: .url)
        }
    }

    /// The value as a file: files, and texts holding a path.
    public func fileValue(relativeTo baseDirectory: URL? = nil) throws(CoercionError) -> FileReference {
        if let item = onlyItem { return try item.fileValue(relativeTo: baseDirectory) }
        switch self {
        case .file(let file): return file
        case .text(let path) where !path.isEmpty:
            if let problem = FileReference.pathProblem(path) { throw CoercionError(value: self, target: .file, reason: problem) }
            return FileReference(path: path, relativeTo: baseDirectory)
        default: throw CoercionError(value: self, target: .file)
        }
    }

    /// The value as rich text: rich text itself, text as plain paragraphs, and plain-text files.
    public func richTextValue(relativeTo baseDirectory: URL? = nil) throws(CoercionError) -> RichText {
        if let item = onlyItem { return try item.richTextValue(relativeTo: baseDirectory) }
        switch self {
        case .richText(let richText): return richText
        case .text(let text): return RichText(plainText: text)
        case .file(let file):
            let type = file.contentType
            guard !type.conforms(to: .markdown), !type.conforms(to: .rtf), !type.conforms(to: .html) else {
                throw CoercionError(value: self, target: .richText, reason: "'\(file.name)' is \(type.identifier), not plain text")
            }
            return RichText(plainText: try file.text(for: self))
        case .nothing: return RichText(blocks: [])
        default: return RichText(plainText: textValue)
        }
    }

    /// The value as a dictionary: dictionaries, and texts holding a JSON object.
    public func dictionaryValue() throws(CoercionError) -> ValueDictionary {
        if let item = onlyItem { return try item.dictionaryValue() }
        switch self {
        case .dictionary(let entries): return entries
        case .text(let text):
            let parsed: Value
            do {
                parsed = try JSONReader.value(from: text)
            } catch {
                throw CoercionError(value: self, target: .dictionary, reason: "not JSON (\(error))")
            }
            guard case .dictionary(let entries) = parsed else {
                throw CoercionError(value: self, target: .dictionary, reason: "the JSON is not an object")
            }
            return entries
        default: throw CoercionError(value: self, target: .dictionary)
        }
    }
}

/// Reads numbers from text: `-12`, `3.5`, `1e3`, `1,234.5`.
public enum NumberParsing {
    /// The number `text` spells, or nil.
    public static func number(from text: String) -> Double? {
        var trimmed = Substring(text).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ "+-0123456789.,eE".utf8.contains($0) }),
            trimmed.utf8.contains(where: { $0 >= 48 && $0 <= 57 })
        else { return nil }
        if trimmed.contains(",") {
            guard hasValidThousandsSeparators(trimmed) else { return nil }
            trimmed.removeAll { $0 == "," }
        }
        return Double(trimmed)
    }

    /// `1,234,567.5`: groups of three digits after the first comma, before any decimal point.
    private static func hasValidThousandsSeparators(_ text: String) -> Bool {
        var integerPart = Substring(text)
        if let dot = integerPart.firstIndex(of: ".") {
            guard !integerPart[dot...].contains(",") else { return false }
            integerPart = integerPart[..<dot]
        }
        if integerPart.first == "-" || integerPart.first == "+" { integerPart = integerPart.dropFirst() }
        let groups = integerPart.split(separator: ",", omittingEmptySubsequences: false)
        guard let first = groups.first, (1...3).contains(first.count) else { return false }
        return groups.dropFirst().allSatisfy { $0.count == 3 && $0.allSatisfy(\.isNumber) }
    }
}

/// Whether values of one type convert to another by the rules of `Value.coerced(to:)`, known
/// before any value is at hand: for the checker, through `Conversions.route(from:to:)`.
public enum Coercibility: Sendable {
    /// Every value of the type converts.
    case always
    /// Some do: a text that reads as a number, a list of one.
    case sometimes
    case never

    /// The rules of `Value.coerced(to:)`, by type. Keep the two together.
    public static func of(_ from: ValueType, to target: ValueType) -> Coercibility {
        if from == target { return .always }
        switch target {
        case .any, .nothing, .list: return .always
        case .text: return from == .file ? .sometimes : .always
        default: break
        }
        switch from {
        case .any, .text, .list: return .sometimes
        default: break
        }
        switch target {
        case .richText: return from == .file ? .sometimes : .always
        case .number: return from == .boolean ? .always : .never
        case .boolean: return from == .number ? .always : .never
        // An entity's URL and dictionary are the conversions' (they may fetch), not coercion's.
        case .url, .dictionary: return .never
        case .entity, .union:
            let shared = Set(from.entityTypeNames).intersection(target.entityTypeNames)
            if shared.isEmpty { return .never }
            return shared.count == from.entityTypeNames.count ? .always : .sometimes
        default: return .never
        }
    }
}
