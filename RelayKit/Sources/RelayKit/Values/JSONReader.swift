import Foundation

/// A JSON text that could not be read: what was wrong and where (Docs/Language.md, "Reading JSON").
public struct JSONReadError: Error, Sendable, CustomStringConvertible {
    /// What was wrong, e.g. "expected ',' or ']' after an element, found '}'".
    public let message: String
    /// The offset, in bytes from the start of the text, where reading stopped.
    public let offset: Int
    /// The line and column (both from 1; the column counts characters) of `offset`, when the text
    /// has more than one line.
    public let line: Int?
    public let column: Int?
    /// The text around `offset`, at most some thirty characters, with control characters escaped.
    public let excerpt: String

    public var description: String {
        let place = line.map { "line \($0), column \(column ?? 1) (offset \(offset))" } ?? "offset \(offset)"
        return excerpt.isEmpty ? "\(message) at \(place)" : "\(message) at \(place), near \(excerpt)"
    }
}

/// Reads JSON (RFC 8259) into values, keeping the order of object keys, which Foundation's
/// readers do not. The rules it follows, and what it does where the RFC leaves a choice, are in
/// Docs/Language.md, "Reading JSON".
public struct JSONReader {
    /// The text, valid while it is read.
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0
    /// How many values it has read, held to `Limits.readValues`.
    private var count = 0
    /// The elements and member values of the arrays and objects being read, innermost last: each
    /// is copied out whole when it closes, so that it takes no more room than it needs (an array
    /// grown by appending has room for up to twice its elements).
    private var pending = ContiguousArray<Value>()
    private var pendingKeys = ContiguousArray<String>()
    /// The key lists of objects read so far, each with a dictionary of them: objects with the same
    /// keys in the same order (the records of a list) become copies of that one, which share its
    /// keys (and the table that finds them) and have values of their own.
    private var shapes: [ContiguousArray<String>: ValueDictionary] = [:]
    /// How many key lists `shapes` keeps; objects of other shapes have their own.
    private static let shapeLimit = 1_024
    /// How deeply arrays and objects may nest.
    public static let maximumDepth = 512

    /// Reads the JSON text `text` as one value.
    public static func value(from text: String) throws(JSONReadError) -> Value {
        // Read where the text is: a copy of a file's worth of JSON is a file's worth of memory.
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(JSONReadError) in try value(in: bytes) } }.get()
    }

    /// Reads the UTF-8 bytes `bytes` as one JSON value. A byte order mark at the start is skipped;
    /// bytes that are not UTF-8 are an error.
    public static func value(from bytes: [UInt8]) throws(JSONReadError) -> Value {
        try bytes.withUnsafeBufferPointer { bytes in Result { () throws(JSONReadError) in try value(in: bytes) } }.get()
    }

    /// Reads `data`, UTF-8 bytes, as one JSON value, as `value(from:)` reads bytes.
    public static func value(from data: Data) throws(JSONReadError) -> Value {
        try data.withUnsafeBytes { raw in Result { () throws(JSONReadError) in try value(in: raw.bindMemory(to: UInt8.self)) } }.get()
    }

    /// Reads `bytes`, UTF-8, as one JSON value, as `value(from:)` reads an array of them.
    public static func value(in bytes: UnsafeBufferPointer<UInt8>) throws(JSONReadError) -> Value {
        var reader = JSONReader(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.position = 3 }
        reader.skipWhitespace()
        guard reader.position < bytes.count else { throw reader.error("expected a JSON value, found nothing") }
        let value = try reader.readValue()
        reader.skipWhitespace()
        guard reader.position == bytes.count else {
            throw reader.error("expected the end of the text after the JSON value, found \(reader.found)")
        }
        return value
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    // MARK: Values

    private mutating func readValue() throws(JSONReadError) -> Value {
        guard position < bytes.count else { throw error("expected a value, found the end of the text") }
        count += 1
        guard count <= Limits.readValues else {
            throw error("a JSON text may hold at most \(Limits.readValues) values; this one holds more (split it, or filter it with a program such as jq first)")
        }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .text(try readString())
        case UInt8(ascii: "t"): try readLiteral("true"); return .boolean(true)
        case UInt8(ascii: "f"): try readLiteral("false"); return .boolean(false)
        case UInt8(ascii: "n"): try readLiteral("null"); return .nothing
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        default: throw error("expected a value, found \(found)")
        }
    }

    private mutating func readLiteral(_ literal: StaticString) throws(JSONReadError) {
        let start = position
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard position < bytes.count, bytes[position] == byte else {
                position = start
                throw error("expected '\(literal)', found \(found)")
            }
            position += 1
        }
    }

    private mutating func readObject() throws(JSONReadError) -> Value {
        // The object's values are pending from `first` on, its keys from `firstKey` (the elements
        // of arrays around it are pending too, with no key).
        let first = pending.count, firstKey = pendingKeys.count
        // Keys seen in this object, once it has more than a few (finding one in a list is quicker
        // until then); a key given twice keeps its first place and its last value.
        var seen: [String: Int]?
        try readElements(closedBy: UInt8(ascii: "}"), of: "a member") { reader throws(JSONReadError) in
            guard reader.position < reader.bytes.count, reader.bytes[reader.position] == UInt8(ascii: "\"") else {
                throw reader.error("expected a key in double quotes, found \(reader.found)")
            }
            let key = try reader.readString()
            reader.skipWhitespace()
            guard reader.position < reader.bytes.count, reader.bytes[reader.position] == UInt8(ascii: ":") else {
                throw reader.error("expected ':' after the key \"\(key)\", found \(reader.found)")
            }
            reader.position += 1
            reader.skipWhitespace()
            let value = try reader.readValue()
            if let earlier = reader.place(of: key, from: firstKey, seen: &seen) {
                reader.pending[first + earlier] = value
            } else {
                reader.pendingKeys.append(key)
                reader.pending.append(value)
            }
        }
        let keys = ContiguousArray(pendingKeys[firstKey...])
        var dictionary: ValueDictionary
        if var shaped = shapes[keys] ?? newShape(keys) {
            for index in keys.indices { shaped.values[index] = pending[first + index] }
            dictionary = shaped
        } else {
            dictionary = ValueDictionary(uncheckedUniqueKeys: keys, values: pending[first...])
        }
        pendingKeys.removeSubrange(firstKey...)
        pending.removeSubrange(first...)
        return .dictionary(dictionary)
    }

    /// A dictionary of `keys` for objects of that shape to be copies of, kept while there are
    /// fewer than `shapeLimit`; else nil.
    private mutating func newShape(_ keys: ContiguousArray<String>) -> ValueDictionary? {
        guard shapes.count < Self.shapeLimit, !keys.isEmpty else { return nil }
        let shaped = ValueDictionary(uncheckedUniqueKeys: keys, values: repeatElement(Value.nothing, count: keys.count))
        shapes[keys] = shaped
        return shaped
    }

    /// Where `key` is among the keys of the object whose first key is pending at `first`,
    /// counted from that one; nil the first time it is seen.
    private func place(of key: String, from first: Int, seen: inout [String: Int]?) -> Int? {
        if pendingKeys.count - first < 16 {
            for index in first..<pendingKeys.count where pendingKeys[index] == key { return index - first }
            return nil
        }
        if seen == nil {
            seen = [:]
            for index in first..<pendingKeys.count { seen?[pendingKeys[index]] = index - first }
        }
        if let earlier = seen?[key] { return earlier }
        seen?[key] = pendingKeys.count - first
        return nil
    }

    private mutating func readArray() throws(JSONReadError) -> Value {
        let first = pending.count
        try readElements(closedBy: UInt8(ascii: "]"), of: "an element") { reader throws(JSONReadError) in
            let value = try reader.readValue()
            reader.pending.append(value)
        }
        // Alone among the pending values (the outermost array, or one such as {"items": [...]}),
        // its elements are taken as they are, not copied: a copy of a big list would hold two.
        if first == 0 {
            defer { pending = [] }
            return .list(Array(pending))
        }
        let items = Array(pending[first...])
        pending.removeSubrange(first...)
        return .list(items)
    }

    /// Reads the comma-separated elements of an object or array, from its opening bracket through `close`.
    private mutating func readElements(
        closedBy close: UInt8, of element: String, _ readElement: (inout JSONReader) throws(JSONReadError) -> Void
    ) throws(JSONReadError) {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw error("arrays and objects nest more than \(Self.maximumDepth) deep")
        }
        position += 1
        skipWhitespace()
        if position < bytes.count, bytes[position] == close {
            position += 1
            return
        }
        while true {
            try readElement(&self)
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ",") else { break }
            position += 1
            skipWhitespace()
            if position < bytes.count, bytes[position] == close {
                throw error("expected \(element) after ',', found '\(Unicode.Scalar(close))' (JSON has no trailing commas)")
            }
        }
        guard position < bytes.count, bytes[position] == close else {
            throw error("expected ',' or '\(Unicode.Scalar(close))' after \(element), found \(found)")
        }
        position += 1
    }

    // MARK: Numbers

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, and finite as a double.
    private mutating func readNumber() throws(JSONReadError) -> Double {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard isDigit(at: position) else { throw error("expected a digit after '-', found \(found)") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if isDigit(at: position) { throw error("a number does not start with 0 unless it is 0 (found \(found) after it)") }
        } else {
            skipDigits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard isDigit(at: position) else { throw error("expected a digit after '.', found \(found)") }
            skipDigits()
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard isDigit(at: position) else { throw error("expected a digit in the exponent, found \(found)") }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let number = Double(text), number.isFinite else {
            position = start
            throw error("the number \(text.prefix(40)) is too large (the largest is about 1.8e308)")
        }
        return number
    }

    private func isDigit(at index: Int) -> Bool {
        index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
    }

    private mutating func skipDigits() {
        while isDigit(at: position) { position += 1 }
    }

    // MARK: Strings

    private mutating func readString() throws(JSONReadError) -> String {
        let opening = position
        position += 1
        var text = ""
        var runStart = position
        while true {
            guard position < bytes.count else {
                position = opening
                throw error("this string has no closing '\"'")
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                try appendRun(from: runStart, to: &text)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") {
                try appendRun(from: runStart, to: &text)
                position += 1
                text.unicodeScalars.append(try readEscape())
                runStart = position
                continue
            }
            guard byte >= 0x20 else {
                let named = Self.escapeNames[byte].map { "; write it as \($0)" } ?? "; write it as \\u00\(Self.hex(byte))"
                throw error("a control character (U+00\(Self.hex(byte))) inside a string\(named)")
            }
            position += 1
        }
    }

    private static let escapeNames: [UInt8: String] = [0x0A: "\\n", 0x09: "\\t", 0x0D: "\\r", 0x08: "\\b", 0x0C: "\\f"]

    /// Appends the bytes from `start` to the current position, which must be UTF-8.
    private mutating func appendRun(from start: Int, to text: inout String) throws(JSONReadError) {
        guard start < position else { return }
        let run = bytes[start..<position]
        guard let decoded = String(validating: run, as: UTF8.self) else {
            position = start + (UTF8Validation.firstInvalidByte(in: Array(run)) ?? 0)
            throw error("the byte 0x\(Self.hex(bytes[position])) is not UTF-8 (a JSON text is UTF-8)")
        }
        if text.isEmpty { text = decoded } else { text += decoded }
    }

    /// The character an escape stands for, from the byte after the backslash.
    private mutating func readEscape() throws(JSONReadError) -> Unicode.Scalar {
        guard position < bytes.count else { throw error("expected an escape after '\\', found the end of the text") }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(escape)
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "u"): return try readUnicodeEscape()
        default:
            position -= 1
            throw error("'\\\(Self.shown(escape))' is not an escape; JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX")
        }
    }

    /// `\uXXXX`, after the `u`. A surrogate pair is one character; a surrogate without its other
    /// half is U+FFFD, the replacement character, since no text can hold it.
    private mutating func readUnicodeEscape() throws(JSONReadError) -> Unicode.Scalar {
        guard let code = hex4(at: position) else {
            throw error("expected four hexadecimal digits after '\\u', found \(found)")
        }
        position += 4
        switch code {
        case 0xD800..<0xDC00:
            guard position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u"),
                let low = hex4(at: position + 2), (0xDC00..<0xE000).contains(low)
            else { return "\u{FFFD}" }
            position += 6
            return Unicode.Scalar(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
        case 0xDC00..<0xE000: return "\u{FFFD}"
        default: return Unicode.Scalar(code) ?? "\u{FFFD}"
        }
    }

    /// The four hexadecimal digits at `index`, or nil.
    private func hex4(at index: Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var code: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            code = code << 4 | UInt32(digit)
        }
        return code
    }

    // MARK: Whitespace and errors

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// The byte at the current position, as a message shows it.
    private var found: String {
        guard position < bytes.count else { return "the end of the text" }
        return "'\(Self.shown(bytes[position]))'"
    }

    private static func shown(_ byte: UInt8) -> String {
        switch byte {
        case 0x20..<0x7F: String(Unicode.Scalar(byte))
        case 0x0A: "\\n"
        case 0x09: "\\t"
        case 0x0D: "\\r"
        default: "\\x" + hex(byte)
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
    }

    private func error(_ message: String) -> JSONReadError {
        let offset = min(position, bytes.count)
        var line: Int?
        var column: Int?
        if bytes.contains(UInt8(ascii: "\n")) {
            let before = bytes[..<offset]
            let lineStart = (before.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
            line = before.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        }
        return JSONReadError(message: message, offset: offset, line: line, column: column, excerpt: excerpt(at: offset))
    }

    /// Some fifteen bytes either side of `offset` on its line, shown with escapes, in backquotes;
    /// `…` where the line goes on.
    private func excerpt(at offset: Int) -> String {
        guard !bytes.isEmpty else { return "" }
        let lineStart = bytes[..<offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let lineEnd = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        var start = max(lineStart, offset - 15)
        var end = min(lineEnd, offset + 15)
        // Not in the middle of a character.
        while start > lineStart, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        while end < lineEnd, bytes[end] & 0xC0 == 0x80 { end += 1 }
        var shown = ""
        for scalar in String(decoding: bytes[start..<end], as: UTF8.self).unicodeScalars {
            switch scalar.value {
            case 0x20..<0x7F, 0xA0...: shown.unicodeScalars.append(scalar)
            default: shown += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return "`" + (start > lineStart ? "…" : "") + shown + (end < lineEnd ? "…" : "") + "`"
    }
}
