import Foundation

/// Codable types to and from JSON-shaped values (nothing, text, number, boolean, list,
/// dictionary): how the package-host protocol's messages (`HostProtocol`) become the `params` and
/// `result` of a line and back. A `Value` field is carried as it is, so a message holds tagged
/// values (`WireValue`) without a second encoding.
public enum ValueCoding {
    /// `value` as a JSON-shaped value.
    public static func encode<T: Encodable>(_ value: T) throws(WireError) -> Value {
        // The common replies, without building a tree: a value, or a list of values.
        if T.self == Value.self, let value = value as? Value { return value }
        if T.self == [Value].self, let values = value as? [Value] { return .list(values) }
        let node = EncodingNode()
        do {
            try node.write(value, at: [])
        } catch let error as WireError {
            throw error
        } catch {
            throw WireError("cannot encode \(T.self): \(error)")
        }
        return node.value
    }

    /// A `T` read from `value`; a field of the wrong kind or missing is an error naming where it is.
    public static func decode<T: Decodable>(_ type: T.Type, from value: Value) throws(WireError) -> T {
        do {
            return try ValueDecoder(value: value, codingPath: []).decode(T.self)
        } catch let error as WireError {
            throw error
        } catch let DecodingError.keyNotFound(key, context) {
            throw WireError("\(path(context.codingPath + [key])) is missing")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context), let DecodingError.dataCorrupted(context) {
            throw WireError("\(path(context.codingPath)): \(context.debugDescription)")
        } catch {
            throw WireError("cannot decode \(T.self): \(error)")
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "the message" : "'" + codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + "'"
    }
}

/// A JSON-shaped value encodes as itself: its text, number, boolean, list or object (in order).
/// Dates, URLs, files, rich text and entities have no JSON form of their own; they cross tagged
/// (`WireValue.encode`).
extension Value: Codable {
    public func encode(to encoder: any Encoder) throws {
        if let encoder = encoder as? NodeEncoder {
            encoder.node.set(self)
            return
        }
        var container = encoder.singleValueContainer()
        switch self {
        case .nothing: try container.encodeNil()
        case .text(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .boolean(let flag): try container.encode(flag)
        case .list, .dictionary, .date, .url, .file, .richText, .entity:
            throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath, debugDescription: "only Relay's wire encoder writes this value"))
        }
    }

    public init(from decoder: any Decoder) throws {
        guard let decoder = decoder as? ValueDecoder else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "only Relay's wire decoder reads a value"))
        }
        self = decoder.value
    }
}

// MARK: - Encoding

/// What is being encoded, as a tree whose branches are filled in as containers write to them.
final class EncodingNode {
    private enum Content {
        case leaf(Value)
        case object([(String, EncodingNode)])
        case array([EncodingNode])
    }

    private var content: Content = .leaf(.nothing)

    func set(_ value: Value) { content = .leaf(value) }

    func makeObject() {
        if case .object = content { return }
        content = .object([])
    }

    func makeArray() {
        if case .array = content { return }
        content = .array([])
    }

    /// The child under `key`, replacing one written before.
    func child(_ key: String) -> EncodingNode {
        let node = EncodingNode()
        guard case .object(var fields) = content else { return node }
        if let index = fields.firstIndex(where: { $0.0 == key }) { fields[index].1 = node } else { fields.append((key, node)) }
        content = .object(fields)
        return node
    }

    func appended() -> EncodingNode {
        let node = EncodingNode()
        guard case .array(var items) = content else { return node }
        items.append(node)
        content = .array(items)
        return node
    }

    var count: Int { if case .array(let items) = content { items.count } else { 0 } }

    var value: Value {
        switch content {
        case .leaf(let value): return value
        case .array(let items): return .list(items.map(\.value))
        case .object(let fields):
            var dictionary = ValueDictionary()
            for (key, node) in fields { dictionary[key] = node.value }
            return .dictionary(dictionary)
        }
    }

    /// Writes `value` here. Integers of every width and `Float` are numbers here: the standard
    /// library's containers hand them to the generic `encode`, which would otherwise ask them to
    /// encode themselves again, without end.
    func write<T: Encodable>(_ value: T, at codingPath: [any CodingKey]) throws {
        // Comparing types is cheap; asking whether a type conforms to a protocol is not.
        if T.self == Value.self, let value = value as? Value {
            set(value)
        } else if T.self == String.self, let text = value as? String {
            set(.text(text))
        } else if T.self == Bool.self || T.self == Double.self || !(T.self is any BinaryInteger.Type || T.self == Float.self) {
            try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
        } else if let integer = value as? any BinaryInteger {
            set(try Self.number(integer, at: codingPath))
        } else if let float = value as? Float {
            set(.number(Double(float)))
        } else {
            try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
        }
    }

    static func number<T: BinaryInteger>(_ integer: T, at codingPath: [any CodingKey]) throws -> Value {
        let number = Double(integer)
        // Beyond 2^53 a Double no longer holds every whole number: refuse rather than change it.
        guard abs(number) <= 9_007_199_254_740_992, T(exactly: number) == integer else {
            throw WireError("\(ValueCoding.path(codingPath)): \(integer) is too large to cross exactly")
        }
        return .number(number)
    }
}

struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedNodeContainer(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleNodeContainer(node: node, codingPath: codingPath) }
}

struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.child(key.stringValue).set(.nothing) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { node.child(key.stringValue).set(.boolean(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { node.child(key.stringValue).set(.text(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { node.child(key.stringValue).set(.number(value)) }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        node.child(key.stringValue).set(try EncodingNode.number(value, at: codingPath + [key]))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.child(key.stringValue).write(value, at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.child("super"), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { NodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]) }
}

struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    private var nextPath: [any CodingKey] { codingPath + [IndexKey(node.count)] }

    mutating func encodeNil() throws { node.appended().set(.nothing) }
    mutating func encode(_ value: Bool) throws { node.appended().set(.boolean(value)) }
    mutating func encode(_ value: String) throws { node.appended().set(.text(value)) }
    mutating func encode(_ value: Double) throws { node.appended().set(.number(value)) }
    mutating func encode(_ value: Int) throws { node.appended().set(try EncodingNode.number(value, at: nextPath)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = nextPath
        try node.appended().write(value, at: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        return NodeEncoder(node: node.appended(), codingPath: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        return NodeEncoder(node: node.appended(), codingPath: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        return NodeEncoder(node: node.appended(), codingPath: path)
    }
}

struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.set(.nothing) }
    mutating func encode(_ value: Bool) throws { node.set(.boolean(value)) }
    mutating func encode(_ value: String) throws { node.set(.text(value)) }
    mutating func encode(_ value: Double) throws { node.set(.number(value)) }
    mutating func encode(_ value: Int) throws { node.set(try EncodingNode.number(value, at: codingPath)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.write(value, at: codingPath) }
}

struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

// MARK: - Decoding

struct ValueDecoder: Decoder {
    let value: Value
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Reads a `T`. Integers of every width and `Float` are read here from a number: the
    /// standard library's containers hand them to the generic `decode`, which would otherwise ask
    /// them to decode themselves again, without end.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Value.self, let value = value as? T { return value }
        if T.self == [Value].self, case .list(let items) = value, let items = items as? T { return items }
        if T.self == String.self { return try scalar(T.self, value, codingPath) }
        if let integer = T.self as? any FixedWidthInteger.Type {
            guard case .number(let number) = value, let made = Self.integer(integer, number) as? T else {
                throw mismatch("a whole number from \(integer.min) to \(integer.max)", codingPath)
            }
            return made
        }
        if T.self == Float.self {
            guard case .number(let number) = value, let made = Float(exactly: number) ?? (abs(number) <= Double(Float.greatestFiniteMagnitude) ? Float(number) : nil),
                let made = made as? T
            else { throw mismatch("a number", codingPath) }
            return made
        }
        return try T(from: self)
    }

    private static func integer<I: FixedWidthInteger>(_ type: I.Type, _ number: Double) -> I? { I(exactly: number) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dictionary(let fields) = value else { throw mismatch("an object", codingPath) }
        return KeyedDecodingContainer(KeyedValueContainer(fields: fields, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .list(let items) = value else { throw mismatch("a list", codingPath) }
        return UnkeyedValueContainer(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(value: value, codingPath: codingPath) }
}

private func mismatch(_ expected: String, _ codingPath: [any CodingKey]) -> WireError {
    WireError("\(ValueCoding.path(codingPath)) must be \(expected)")
}

/// The scalar `value` holds, as a `T`, or an error naming where it is and what it should be.
private func scalar<T>(_ type: T.Type, _ value: Value, _ codingPath: [any CodingKey]) throws -> T {
    switch value {
    case .boolean(let flag) where T.self == Bool.self: if let flag = flag as? T { return flag }
    case .text(let text) where T.self == String.self: if let text = text as? T { return text }
    case .number(let number) where T.self == Double.self: if let number = number as? T { return number }
    case .number(let number) where T.self == Int.self:
        if let whole = Int(exactly: number), let whole = whole as? T { return whole }
        throw mismatch("a whole number", codingPath)
    default: break
    }
    let name = T.self == Bool.self ? "true or false" : T.self == String.self ? "a string" : T.self == Int.self ? "a whole number" : "a number"
    throw mismatch(name, codingPath)
}

struct KeyedValueContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: ValueDictionary
    let codingPath: [any CodingKey]

    var allKeys: [Key] { fields.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }

    private func field(_ key: Key) throws -> Value {
        guard let value = fields[key.stringValue] else { throw WireError("\(ValueCoding.path(codingPath + [key])) is missing") }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { (fields[key.stringValue] ?? .nothing) == .nothing }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(Bool.self, try field(key), codingPath + [key]) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(String.self, try field(key), codingPath + [key]) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(Double.self, try field(key), codingPath + [key]) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(Int.self, try field(key), codingPath + [key]) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // A `Value` field may be left out: it is nothing.
        if T.self == Value.self, let value = (fields[key.stringValue] ?? .nothing) as? T { return value }
        return try ValueDecoder(value: try field(key), codingPath: codingPath + [key]).decode(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try ValueDecoder(value: try field(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: try field(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ValueDecoder(value: fields["super"] ?? .nothing, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { ValueDecoder(value: fields[key.stringValue] ?? .nothing, codingPath: codingPath + [key]) }
}

struct UnkeyedValueContainer: UnkeyedDecodingContainer {
    let items: [Value]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(items: [Value], codingPath: [any CodingKey]) {
        self.items = items
        self.codingPath = codingPath
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next() throws -> (Value, [any CodingKey]) {
        guard !isAtEnd else { throw WireError("\(ValueCoding.path(codingPath)) has too few items") }
        defer { currentIndex += 1 }
        return (items[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .nothing else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let (value, path) = try next(); return try scalar(Bool.self, value, path) }
    mutating func decode(_ type: String.Type) throws -> String { let (value, path) = try next(); return try scalar(String.self, value, path) }
    mutating func decode(_ type: Double.Type) throws -> Double { let (value, path) = try next(); return try scalar(Double.self, value, path) }
    mutating func decode(_ type: Int.Type) throws -> Int { let (value, path) = try next(); return try scalar(Int.self, value, path) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next()
        return try ValueDecoder(value: value, codingPath: path).decode(T.self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (value, path) = try next()
        return try ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try ValueDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return ValueDecoder(value: value, codingPath: path)
    }
}

struct SingleValueContainer: SingleValueDecodingContainer {
    let value: Value
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .nothing }
    func decode(_ type: Bool.Type) throws -> Bool { try scalar(Bool.self, value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try scalar(String.self, value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try scalar(Double.self, value, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try scalar(Int.self, value, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try ValueDecoder(value: value, codingPath: codingPath).decode(T.self) }
}
