import Foundation
import RelayKit

/// One condition of a `where` clause: a property, a comparator and its operand.
struct ItemCondition {
    enum Comparator: String, CaseIterable {
        case `is`, isNot = "is-not", contains, doesNotContain = "does-not-contain", beginsWith = "begins-with"
        case endsWith = "ends-with", matches, greaterThan = "greater-than", atLeast = "at-least", lessThan = "less-than"
        case atMost = "at-most", between, isBefore = "is-before", isAfter = "is-after", isToday = "is-today"
        case inLast = "in-last", inNext = "in-next", isAnyOf = "is-any-of", hasAnyValue = "has-any-value"
    }

    let property: String
    let comparator: Comparator
    let operand: Value
    let caseSensitive: Bool

    /// `PROPERTY: VALUE` (meaning `is`) or `PROPERTY: {COMPARATOR: VALUE, …, case-sensitive: BOOL}`.
    static func parse(property: String, _ specification: Value) throws -> [ItemCondition] {
        guard case .dictionary(let entries) = specification else {
            return [ItemCondition(property: property, comparator: .is, operand: specification, caseSensitive: false)]
        }
        let caseSensitive = try entries["case-sensitive"].map { try $0.booleanValue() } ?? false
        var conditions: [ItemCondition] = []
        for (name, operand) in entries where name != "case-sensitive" {
            guard let comparator = Comparator(rawValue: name) else {
                let names = Comparator.allCases.map(\.rawValue)
                throw IntentError(
                    "unknown comparator '\(name)' for '\(property)'\(Suggestions.didYouMean(name, in: names)) (comparators: \(names.joined(separator: ", ")))")
            }
            conditions.append(ItemCondition(property: property, comparator: comparator, operand: operand, caseSensitive: caseSensitive))
        }
        guard !conditions.isEmpty else { throw IntentError("'\(property)' has no comparator") }
        return conditions
    }

    func holds(for item: Value) throws -> Bool {
        let value = try ItemQuery.read(property, of: item)
        switch comparator {
        case .is: return try isEqual(value, operand)
        case .isNot: return try !isEqual(value, operand)
        case .contains: return contains(value, operand)
        case .doesNotContain: return !contains(value, operand)
        case .beginsWith: return fold(value.textValue).hasPrefix(fold(operand.textValue))
        case .endsWith: return fold(value.textValue).hasSuffix(fold(operand.textValue))
        case .matches:
            let expression = try RegularExpressions.make(operand.textValue, caseSensitive: caseSensitive)
            let text = value.textValue
            return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        case .greaterThan, .isAfter: return try order(value, operand) == .orderedDescending
        case .atLeast: return try order(value, operand) != .orderedAscending
        case .lessThan, .isBefore: return try order(value, operand) == .orderedAscending
        case .atMost: return try order(value, operand) != .orderedDescending
        case .between:
            guard case .list(let bounds) = operand, bounds.count == 2 else {
                throw IntentError("'between' takes [low, high]")
            }
            return try order(value, bounds[0]) != .orderedAscending && order(value, bounds[1]) != .orderedDescending
        case .isToday:
            guard let date = try? value.dateValue() else { return false }
            return Calendar.current.isDateInToday(date) == (try operand.booleanValue())
        case .inLast, .inNext:
            guard let date = try? value.dateValue() else { return false }
            let components = try DurationText.parse(operand.textValue)
            let now = Date()
            let calendar = Calendar.current
            if comparator == .inLast {
                guard let start = calendar.date(byAdding: components.negated, to: now) else { return false }
                return date >= start && date <= now
            }
            guard let end = calendar.date(byAdding: components, to: now) else { return false }
            return date >= now && date <= end
        case .isAnyOf:
            return try operand.asList.contains { try isEqual(value, $0) }
        case .hasAnyValue:
            let present = !(value.isNothing || value.textValue.isEmpty)
            return present == (try operand.booleanValue())
        }
    }

    private func fold(_ text: String) -> String { caseSensitive ? text : text.lowercased() }

    private func isEqual(_ value: Value, _ operand: Value) throws -> Bool {
        if case .date(let date) = value, case .text(let text) = operand, !text.contains(":"),
            let day = DateFormatting.parse(text)
        {
            return Calendar.current.isDate(date, inSameDayAs: day)
        }
        return ValueComparison.equal(value, operand, ignoringCase: !caseSensitive)
    }

    private func contains(_ value: Value, _ operand: Value) -> Bool {
        if case .list(let items) = value {
            return items.contains { ValueComparison.equal($0, operand, ignoringCase: !caseSensitive) }
        }
        return fold(value.textValue).contains(fold(operand.textValue))
    }

    private func order(_ value: Value, _ operand: Value) throws -> ComparisonResult {
        guard let order = ValueComparison.order(value, operand) else {
            throw IntentError("'\(comparator.rawValue)' cannot compare \(value.briefDescription) with \(operand.briefDescription)")
        }
        return order
    }
}
