/// A cursor over ASCII bytes, for the small hand-written parsers (dates, YAML numbers).
public struct ByteScanner {
    public let bytes: [UInt8]
    public var position = 0

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public var atEnd: Bool { position >= bytes.count }
    public var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Moves past `character` if it is next.
    public mutating func skip(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, peek == ascii else { return false }
        position += 1
        return true
    }

    /// Reads exactly `count` decimal digits.
    public mutating func digits(_ count: Int) -> Int? {
        guard position + count <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<count {
            let byte = bytes[position + offset]
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        position += count
        return value
    }

    /// Moves past any decimal digits; returns how many.
    public mutating func skipDigits() -> Int {
        let start = position
        while let byte = peek, byte >= 48, byte <= 57 { position += 1 }
        return position - start
    }
}
