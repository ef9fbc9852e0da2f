/// The text comparators' searches (`contains`, `begins-with`, `ends-with`), fast for the common
/// case: when both texts are ASCII they are compared byte by byte (folding case on the fly, with
/// no lowercased copy); otherwise through `String`, lowercasing when case is ignored.
enum TextSearch {
    enum Kind: Sendable { case contains, begins, ends }

    /// Whether `text` has `needle` where `kind` says. `needle` is already lowercased when case is ignored.
    static func finds(_ needle: String, in text: String, _ kind: Kind, caseSensitive: Bool) -> Bool {
        if let found = asciiFinds(needle, in: text, kind, caseSensitive: caseSensitive) { return found }
        let folded = caseSensitive ? text : text.lowercased()
        switch kind {
        case .contains: return folded.contains(needle)
        case .begins: return folded.hasPrefix(needle)
        case .ends: return folded.hasSuffix(needle)
        }
    }

    /// The byte-wise answer, or nil when either text is not plain ASCII (or has a carriage return,
    /// which joins a following line feed into one character).
    private static func asciiFinds(_ needle: String, in text: String, _ kind: Kind, caseSensitive: Bool) -> Bool? {
        let answer = text.utf8.withContiguousStorageIfAvailable { haystack -> Bool? in
            needle.utf8.withContiguousStorageIfAvailable { wanted -> Bool? in
                guard haystack.allSatisfy(isPlain), wanted.allSatisfy(isPlain) else { return nil }
                let count = wanted.count
                guard count <= haystack.count else { return false }
                let starts: StrideThrough<Int> =
                    switch kind {
                    case .contains: stride(from: 0, through: haystack.count - count, by: 1)
                    case .begins: stride(from: 0, through: 0, by: 1)
                    case .ends: stride(from: haystack.count - count, through: haystack.count - count, by: 1)
                    }
                for start in starts where matches(wanted, haystack, at: start, caseSensitive: caseSensitive) { return true }
                return false
            } ?? nil
        }
        return answer ?? nil
    }

    private static func isPlain(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x0D }

    private static func matches(_ wanted: UnsafeBufferPointer<UInt8>, _ haystack: UnsafeBufferPointer<UInt8>, at start: Int, caseSensitive: Bool) -> Bool {
        for offset in 0..<wanted.count {
            var byte = haystack[start + offset]
            if !caseSensitive, byte >= 0x41, byte <= 0x5A { byte |= 0x20 }
            if byte != wanted[offset] { return false }
        }
        return true
    }
}
