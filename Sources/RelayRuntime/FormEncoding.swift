import Foundation

/// `a=1&b=x+y%21` — a URL's query, or a form's body (`application/x-www-form-urlencoded`) — as its
/// name–value pairs, in order, `+` read as a space and `%XX` as the byte it stands for. What a
/// webhook's caller sends is read with it (Docs/Automations.md, "Webhooks").
public enum FormEncoding {
    /// The pairs of `text`; nil when a `%` is not followed by two hex digits, or the bytes they
    /// stand for are not UTF-8. An empty text has none; `a` alone is `a` with an empty value.
    public static func pairs(_ text: String) -> [(String, String)]? {
        var pairs: [(String, String)] = []
        for part in text.split(separator: "&", omittingEmptySubsequences: true) {
            let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decoded(halves[0]), let value = halves.count > 1 ? decoded(halves[1]) : "" else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    /// `pairs` written as a form: every byte but letters, digits and `-._~` percent-encoded.
    public static func text(of pairs: [(String, String)]) -> String {
        pairs.map { encoded($0.0) + "=" + encoded($0.1) }.joined(separator: "&")
    }

    private static func decoded(_ piece: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(piece.utf8.count)
        var index = piece.utf8.startIndex
        while index < piece.utf8.endIndex {
            let byte = piece.utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = piece.utf8.index(after: index)
                guard first < piece.utf8.endIndex, let high = hex(piece.utf8[first]) else { return nil }
                let second = piece.utf8.index(after: first)
                guard second < piece.utf8.endIndex, let low = hex(piece.utf8[second]) else { return nil }
                bytes.append(high << 4 | low)
                index = piece.utf8.index(after: second)
                continue
            }
            bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = piece.utf8.index(after: index)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func encoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".utf8)
                result += "%" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return result
    }
}
