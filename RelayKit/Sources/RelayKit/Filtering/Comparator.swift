/// A comparator of a `where` clause (Docs/Language.md, "Entities").
public enum Comparator: String, CaseIterable, Sendable, Hashable {
    case `is`, isNot = "is-not", contains, doesNotContain = "does-not-contain", beginsWith = "begins-with"
    case endsWith = "ends-with", matches, greaterThan = "greater-than", atLeast = "at-least", lessThan = "less-than"
    case atMost = "at-most", between, isBefore = "is-before", isAfter = "is-after", isToday = "is-today"
    case inLast = "in-last", inNext = "in-next", isAnyOf = "is-any-of", hasAnyValue = "has-any-value"

    /// The name workflows write.
    public var name: String { rawValue }

    /// The comparator a workflow names: its name, or `any-of` for `is-any-of` (`name: { any-of:
    /// [a.txt, b.txt] }`, as a Shortcuts user says it).
    public init?(named name: String) {
        if name == "any-of" {
            self = .isAnyOf
        } else {
            self.init(rawValue: name)
        }
    }

    private static let textual: [Comparator] = [
        .is, .isNot, .contains, .doesNotContain, .beginsWith, .endsWith, .matches, .isAnyOf, .hasAnyValue,
    ]

    /// The comparators that fit a property of `type`; using another is a check-time error.
    public static func allowed(for type: ValueType) -> [Comparator] {
        switch type {
        case .any, .nothing: allCases
        case .text, .url, .richText, .file: textual
        case .number: [.is, .isNot, .greaterThan, .atLeast, .lessThan, .atMost, .between, .isAnyOf, .hasAnyValue]
        case .date: [.is, .isNot, .isBefore, .isAfter, .between, .isToday, .inLast, .inNext, .hasAnyValue]
        case .boolean: [.is, .isNot, .hasAnyValue]
        case .list: [.contains, .doesNotContain, .hasAnyValue]
        case .dictionary: [.is, .isNot, .hasAnyValue]
        case .entity, .union: [.is, .isNot, .isAnyOf, .hasAnyValue]
        }
    }
}
