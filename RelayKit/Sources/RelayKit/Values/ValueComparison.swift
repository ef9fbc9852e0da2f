import Foundation

/// How workflows compare values, in expressions and in filters alike.
public enum ValueComparison {
    /// Whether two values are equal: numbers numerically (a text that reads as a number counts),
    /// dates as dates, texts exactly unless `ignoringCase`, lists item by item; otherwise by text.
    public static func equal(_ lhs: Value, _ rhs: Value, ignoringCase: Bool = false) -> Bool {
        switch (lhs, rhs) {
        case (.nothing, .nothing): return true
        case (.nothing, _), (_, .nothing): return false
        case (.list(let a), .list(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, ignoringCase: ignoringCase) }
        case (.boolean(let a), .boolean(let b)): return a == b
        default: break
        }
        if let (a, b) = numbers(lhs, rhs) { return a == b }
        if let (a, b) = dates(lhs, rhs) { return a == b }
        let (a, b) = (lhs.textValue, rhs.textValue)
        return ignoringCase ? a.caseInsensitiveCompare(b) == .orderedSame : a == b
    }

    /// Whether `text` contains `needle`, ignoring case unless told not to (Docs/Language.md,
    /// "Comparing texts"): the `contains` of expressions and of `where:` alike.
    public static func contains(_ text: String, _ needle: String, ignoringCase: Bool) -> Bool {
        TextSearch.finds(ignoringCase ? needle.lowercased() : needle, in: text, .contains, caseSensitive: !ignoringCase)
    }

    /// The order of two values: numbers, dates, then texts in a case-insensitive, localized order.
    /// Nil when they cannot be ordered (a list against a number, say).
    public static func order(_ lhs: Value, _ rhs: Value) -> ComparisonResult? {
        // The common cases first, without copying either value.
        if case .number(let a) = lhs, case .number(let b) = rhs { return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame }
        if case .date(let a) = lhs, case .date(let b) = rhs { return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame }
        if let (a, b) = numbers(lhs, rhs) { return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame }
        if let (a, b) = dates(lhs, rhs) { return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame }
        switch (lhs, rhs) {
        case (.text(let a), .text(let b)): return textOrder(a, b)
        case (.boolean(let a), .boolean(let b)): return a == b ? .orderedSame : (a ? .orderedDescending : .orderedAscending)
        case (.nothing, .nothing): return .orderedSame
        case (.nothing, _): return .orderedAscending
        case (_, .nothing): return .orderedDescending
        case (.text, _), (_, .text), (.url, .url), (.file, .file): return textOrder(lhs.textValue, rhs.textValue)
        default: return nil
        }
    }

    /// The locale texts are ordered in: the user's, read once.
    private static let textLocale = Locale.current

    /// Case-insensitive, localized text order (Docs/Language.md, "Entities"), ties broken by exact order.
    public static func textOrder(_ a: String, _ b: String) -> ComparisonResult {
        // `localizedStandardCompare`, with the locale made once: it made one a comparison.
        let result = a.compare(b, options: [.caseInsensitive, .numeric, .widthInsensitive, .forcedOrdering], locale: textLocale)
        return result == .orderedSame ? (a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame) : result
    }

    /// Both as numbers, when one is a number and the other a number or a text that reads as one.
    package static func numbers(_ lhs: Value, _ rhs: Value) -> (Double, Double)? {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): return (a, b)
        case (.number(let a), .text(let text)): return number(from: text).map { (a, $0) }
        case (.text(let text), .number(let b)): return number(from: text).map { ($0, b) }
        default: return nil
        }
    }

    /// A number from text: `1,234.5`, or a size such as `2 MB` in bytes.
    private static func number(from text: String) -> Double? {
        NumberParsing.number(from: text) ?? ByteCount.bytes(from: text)
    }

    /// Both as dates, when one is a date and the other a date or a text that reads as one.
    package static func dates(_ lhs: Value, _ rhs: Value) -> (Date, Date)? {
        switch (lhs, rhs) {
        case (.date(let a), .date(let b)): return (a, b)
        case (.date(let a), .text(let text)): return DateFormatting.parse(text).map { (a, $0) }
        case (.text(let text), .date(let b)): return DateFormatting.parse(text).map { ($0, b) }
        default: return nil
        }
    }
}
