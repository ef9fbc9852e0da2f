/// A JSON text that could not be read, with the byte offset where reading stopped.
public struct JSONReadError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public let offset: Int
    public var description: String { "\(message) at offset \(offset)" }
}

/// Reads JSON into values, keeping the order of object keys (Foundation's readers do not).
public struct JSONReader {
    private var bytes: [UInt8]
    private var position = 0
    private var depth = 0
    private static let maximumDepth = 512

    /// Reads the JSON text `text` as one value.
    public static func value(from text: String) throws(JSONReadError) -> Value {
        var reader = JSONReader(bytes: Array(text.utf8))
        reader.skipWhitespace()
        let value = try reader.readValue()
        reader.skipWhitespace()
        guard reader.position == reader.bytes.count else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> JSONReadError { JSONReadError(message: message, offset: position) }

    private mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[position]) { position += 1 }
    }

    private mutating func expect(_ literal: String) throws(JSONReadError) {
        for byte in literal.utf8 {
            guard position < bytes.count, bytes[position] == byte else { throw error("expected '\(literal)'") }
            position += 1
        }
    }

    private mutating func readValue() throws(JSONReadError) -> Value {
        guard position < bytes.count else { throw error("unexpected end of JSON") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return .text(try readString())
        case UInt8(ascii: "t"): try expect("true"); return .boolean(true)
        case UInt8(ascii: "f"): try expect("false"); return .boolean(false)
        case UInt8(ascii: "n"): try expect("null"); return .nothing
        default: return .number(try readNumber())
        }
    }

    private mutating func enter() throws(JSONReadError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("JSON nested too deeply") }
        position += 1
        skipWhitespace()
    }

    private mutating func readObject() throws(JSONReadError) -> Value {
        var dictionary = ValueDictionary()
        try readElements(closedBy: "}") { reader throws(JSONReadError) in
            guard reader.position < reader.bytes.count, reader.bytes[reader.position] == UInt8(ascii: "\"") else {
                throw reader.error("expected a key")
            }
            let key = try reader.readString()
            reader.skipWhitespace()
            try reader.expect(":")
            reader.skipWhitespace()
            dictionary[key] = try reader.readValue()
        }
        return .dictionary(dictionary)
    }

    private mutating func readArray() throws(JSONReadError) -> Value {
        var items: [Value] = []
        try readElements(closedBy: "]") { reader throws(JSONReadError) in items.append(try reader.readValue()) }
        return .list(items)
    }

    /// Reads the comma-separated elements of an object or array, from its opening bracket through `close`.
    private mutating func readElements(
        closedBy close: Unicode.Scalar, _ readElement: (inout JSONReader) throws(JSONReadError) -> Void
    ) throws(JSONReadError) {
        try enter()
        defer { depth -= 1 }
        if position < bytes.count, bytes[position] == UInt8(ascii: close) {
            position += 1
            return
        }
        while true {
            try readElement(&self)
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of JSON") }
            guard bytes[position] == UInt8(ascii: ",") else { break }
            position += 1
            skipWhitespace()
        }
        try expect(String(close))
    }

    private mutating func readNumber() throws(JSONReadError) -> Double {
        let start = position
        while position < bytes.count, "+-0123456789.eE".utf8.contains(bytes[position]) { position += 1 }
        guard position > start, let number = Double(String(decoding: bytes[start..<position], as: UTF8.self)) else {
            position = start
            throw error("unexpected character")
        }
        return number
    }

    private mutating func readString() throws(JSONReadError) -> String {
        position += 1
        var scalars = String.UnicodeScalarView()
        var runStart = position
        while true {
            guard position < bytes.count else { throw error("unterminated string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let run = String(decoding: bytes[runStart..<position], as: UTF8.self)
                position += 1
                // A string with no escapes (most) is its bytes.
                if scalars.isEmpty { return run }
                scalars.append(contentsOf: run.unicodeScalars)
                return String(scalars)
            }
            guard byte == UInt8(ascii: "\\") else {
                position += 1
                continue
            }
            scalars.append(contentsOf: String(decoding: bytes[runStart..<position], as: UTF8.self).unicodeScalars)
            position += 1
            guard position < bytes.count else { throw error("unterminated string") }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "u"): scalars.append(try readUnicodeEscape())
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                scalars.append(Unicode.Scalar(escape))
            default: throw error("unknown escape")
            }
            runStart = position
        }
    }

    private mutating func readHex4() throws(JSONReadError) -> UInt32 {
        guard position + 4 <= bytes.count,
            let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
        else { throw error("bad \\u escape") }
        position += 4
        return code
    }

    private mutating func readUnicodeEscape() throws(JSONReadError) -> Unicode.Scalar {
        let high = try readHex4()
        if (0xD800..<0xDC00).contains(high), position + 1 < bytes.count,
            bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
        {
            position += 2
            let low = try readHex4()
            if let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) { return scalar }
        }
        return Unicode.Scalar(high) ?? "\u{FFFD}"
    }
}
