import Foundation
import RelayKit

/// Checks a `where` and `sort` against the properties of what is filtered, so that a property that
/// does not exist, or a comparator that does not fit a property's type, is found before running
/// (Docs/Language.md, "Entities"). The checker runs it on literal clauses; `find` runs it again on computed ones.
public struct FilterValidation: Sendable {
    /// What the filtered things are called in messages: `a photo`, `a file`.
    public let subject: String
    /// The properties that may be named, with their types.
    public let properties: [(name: String, type: ValueType)]
    /// The only texts some properties may be (an `AppEnum`'s cases), by property.
    public let cases: [String: [String]]
    /// The display names of those cases that have one, by property, then by raw value.
    public let caseTitles: [String: [String: String]]

    public init(
        subject: String, properties: [(name: String, type: ValueType)], cases: [String: [String]] = [:], caseTitles: [String: [String: String]] = [:]
    ) {
        self.subject = subject
        self.properties = properties
        self.cases = cases
        self.caseTitles = caseTitles
    }

    /// The validation for an entity type's `id`, `title`, `subtitle` and declared properties.
    public init(entityType descriptor: EntityDescriptor) {
        let name = descriptor.name.singular
        self.init(
            subject: "\(Naming.indefiniteArticle(for: name)) \(name)",
            properties: descriptor.filterablePropertyNames.compactMap { property in
                descriptor.propertyType(property).map { (property, $0) }
            },
            cases: Dictionary(descriptor.properties.compactMap { info in info.cases.map { (info.name, $0) } }, uniquingKeysWith: { first, _ in first }),
            caseTitles: Dictionary(
                descriptor.properties.compactMap { info in info.caseTitles.isEmpty ? nil : (info.name, info.caseTitles) }, uniquingKeysWith: { first, _ in first }))
    }

    /// `clauses` with each display name of an enum property's case written as the case's raw
    /// value, which is what the property holds and its query compares.
    public func withRawCases(_ clauses: ValueDictionary) -> ValueDictionary {
        guard !caseTitles.isEmpty else { return clauses }
        var result = clauses
        for (property, titles) in caseTitles {
            guard let specification = clauses[property] else { continue }
            let raw = Dictionary(titles.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
            func mapped(_ value: Value) -> Value {
                switch value {
                case .text(let text): raw[text].map(Value.text) ?? value
                case .list(let items): .list(items.map(mapped))
                case .dictionary(let entries): .dictionary(entries.mapValues(mapped))
                default: value
                }
            }
            result[property] = mapped(specification)
        }
        return result
    }

    /// The validation for files (Docs/Language.md, "Changing files, and undo"): the common properties, image sizes, and the extra
    /// properties packages read (such as a PDF's `pages`), whose type is not known here.
    public static var files: FilterValidation {
        let common = FileReference.properties + [("width", .number), ("height", .number)]
        return FilterValidation(subject: "a file", properties: common + FilePropertyReaders.allNames.map { ($0, .any) })
    }

    /// Every problem with `clauses` and `sort`, each naming the property it concerns.
    public func problems(where clauses: ValueDictionary, sort: Value?) -> [FilterError] {
        var problems: [FilterError] = []
        let names = properties.map(\.name)
        for (property, specification) in clauses {
            guard let type = properties.first(where: { $0.name == property })?.type else {
                problems.append(unknown(property, names: names))
                continue
            }
            let conditions: [FilterCondition]
            do {
                conditions = try FilterCondition.parse(property: property, specification)
            } catch {
                problems.append(error)
                continue
            }
            let allowed = RelayKit.Comparator.allowed(for: type)
            for condition in conditions {
                guard allowed.contains(condition.comparator) else {
                    problems.append(
                        FilterError(
                            "'\(condition.comparator.name)' does not apply to '\(property)', \(type.withArticle); use \(allowed.map(\.name).joined(separator: ", "))",
                            property: property))
                    continue
                }
                if let problem = Self.operandProblem(condition, type: type) { problems.append(problem) }
                if let cases = cases[property], let problem = Self.caseProblem(condition, cases: cases, titles: caseTitles[property] ?? [:], type: type) {
                    problems.append(problem)
                }
            }
        }
        if let sort, !SortKey.isRandom(sort) {
            do {
                for key in try SortKey.parse(sort) where !names.contains(key.property) {
                    problems.append(unknown(key.property, names: names))
                }
            } catch {
                problems.append(error)
            }
        }
        return problems
    }

    /// What is wrong with a condition's operand for a property of `type`: one that can never be of
    /// the property's type matches nothing, so it is an error that lists the forms that fit.
    static func operandProblem(_ condition: FilterCondition, type: ValueType) -> FilterError? {
        let operands: [Value]
        let wanted = type
        switch condition.comparator {
        case .is, .isNot, .greaterThan, .atLeast, .lessThan, .atMost, .isBefore, .isAfter: operands = [condition.operand]
        case .between, .isAnyOf: operands = condition.operand.asList
        // Their operands are checked when the condition is read.
        case .contains, .doesNotContain, .beginsWith, .endsWith, .matches, .inLast, .inNext, .hasAnyValue, .isToday: return nil
        }
        guard [.number, .date, .boolean].contains(wanted) else { return nil }
        for operand in operands where !Self.fits(operand, wanted) {
            let property = condition.property
            var message = "'\(property)' is \(type.withArticle), and \(operand.briefDescription) is not \(wanted.withArticle)"
            if condition.comparator != .is { message = "'\(condition.comparator.name)' of '\(property)' wants \(wanted.withArticle), not \(operand.briefDescription)" }
            let named = RelayKit.Comparator(rawValue: operand.textValue.lowercased())
            if let named, RelayKit.Comparator.allowed(for: type).contains(named) {
                message += "; did you mean '\(property): { \(named.name): \(Self.example(for: named, type: type)) }'?"
            }
            return FilterError(message, property: property, note: "\(type.withArticle) is compared with " + forms(for: type, property: property))
        }
        return nil
    }

    /// What is wrong with comparing a property that is one of `cases` with a text that is none
    /// of them: it would match nothing (or, with `is-not`, everything).
    /// A list's cases are its items': what it `contains` is one of them.
    static func caseProblem(_ condition: FilterCondition, cases: [String], titles: [String: String] = [:], type: ValueType = .text) -> FilterError? {
        let operands: [Value]
        switch condition.comparator {
        case .is, .isNot: operands = [condition.operand]
        case .isAnyOf: operands = condition.operand.asList
        case .contains, .doesNotContain where type == .list: operands = [condition.operand]
        default: return nil
        }
        let named = Set(cases).union(titles.values)
        for operand in operands where !named.contains(operand.textValue) {
            let text = operand.textValue
            let shown = cases.map { raw in titles[raw].map { "'\($0)' (\(raw))" } ?? "'\(raw)'" }
            return FilterError(
                "'\(condition.property)' \(type == .list ? "holds items of" : "is one of") \(shown.joined(separator: ", ")); '\(text)' is none of them\(Suggestions.didYouMean(text, in: cases + titles.values.sorted()))",
                property: condition.property)
        }
        return nil
    }

    /// Whether a property of `type` can ever equal or be ordered against `operand`, as
    /// `ValueComparison` compares them (a size such as `2 MB` is a number of bytes).
    private static func fits(_ operand: Value, _ type: ValueType) -> Bool {
        switch type {
        case .number: ValueComparison.numbers(.number(0), operand) != nil
        case .date: ValueComparison.dates(.date(Date(timeIntervalSince1970: 0)), operand) != nil
        case .boolean:
            if case .boolean = operand { true } else { ["true", "false"].contains(operand.textValue.lowercased()) }
        default: true
        }
    }

    /// An operand that fits `comparator` on a property of `type`, for examples in messages.
    private static func example(for comparator: RelayKit.Comparator, type: ValueType) -> String {
        switch comparator {
        case .isToday, .hasAnyValue: "true"
        case .inLast, .inNext: "7 days"
        case .between: type == .date ? "[2026-01-01, 2026-06-30]" : "[1, 10]"
        case .isAnyOf: type == .date ? "[2026-01-01, 2026-01-02]" : "[1, 2]"
        default: type == .date ? "2026-01-01" : type == .boolean ? "true" : "5"
        }
    }

    /// The ways to compare a property of `type`: `PROPERTY: VALUE` and each comparator with an example.
    private static func forms(for type: ValueType, property: String) -> String {
        let plain =
            switch type {
            case .date: "a date (YYYY-MM-DD, an ISO 8601 date-time, today, yesterday, tomorrow, now)"
            case .number: "a number"
            case .boolean: "true or false"
            default: "a value"
            }
        let comparators = RelayKit.Comparator.allowed(for: type).filter { $0 != .is }.map { "{ \($0.name): \(example(for: $0, type: type)) }" }
        return "\(plain), as in '\(property): \(example(for: .is, type: type))', or " + comparators.joined(separator: ", ")
    }

    private func unknown(_ property: String, names: [String]) -> FilterError {
        FilterError(
            "\(subject) has no property '\(property)'\(Suggestions.didYouMean(property, in: names))", property: property,
            note: "\(subject) has \(names.joined(separator: ", "))")
    }
}
