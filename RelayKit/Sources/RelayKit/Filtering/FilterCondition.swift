import Foundation

/// One condition of a `where` clause: a property, a comparator and its operand (Docs/Language.md, "Entities"). Parsing
/// checks the operand's shape once, so testing an item does no parsing.
public struct FilterCondition: Sendable {
    public var property: String { parts.property }
    public var comparator: Comparator { parts.comparator }
    public var operand: Value { parts.operand }
    /// Whether text comparisons heed case (`case-sensitive: true`); they ignore it by default.
    public var caseSensitive: Bool { parts.caseSensitive }
    private var test: Test { parts.test }
    /// Everything, in one object: a filter copies its conditions for each item it judges, and a
    /// copy is then one reference counted, not one for each part (8% of a find over a million).
    private let parts: Parts

    private final class Parts: Sendable {
        let property: String
        let comparator: Comparator
        let operand: Value
        let caseSensitive: Bool
        let test: Test

        init(property: String, comparator: Comparator, operand: Value, caseSensitive: Bool, test: Test) {
            self.property = property
            self.comparator = comparator
            self.operand = operand
            self.caseSensitive = caseSensitive
            self.test = test
        }
    }

    /// What is compared, worked out from the operand once.
    private enum Test: Sendable {
        case equal(Value, Bool)
        case text(String, TextTest)
        case pattern(NSRegularExpression)
        case order(Value, AcceptedOrders)
        /// An order against a number operand: compared directly when the value is a number too.
        case orderNumber(Double, AcceptedOrders)
        case between(Value, Value)
        case today(Bool)
        case range(Date, Date)
        case anyOf([Value])
        case present(Bool)
    }

    private enum TextTest: Sendable { case contains, lacks, begins, ends }

    /// The orders of value against operand that satisfy an order comparator (`at-least`: after or same).
    private struct AcceptedOrders: Sendable, ExpressibleByArrayLiteral {
        var ascending = false, same = false, descending = false

        init(arrayLiteral orders: ComparisonResult...) {
            for order in orders {
                switch order {
                case .orderedAscending: ascending = true
                case .orderedSame: same = true
                case .orderedDescending: descending = true
                }
            }
        }

        func contains(_ order: ComparisonResult) -> Bool {
            switch order {
            case .orderedAscending: ascending
            case .orderedSame: same
            case .orderedDescending: descending
            }
        }
    }

    /// A condition; an operand of the wrong shape (`between: 5`, `in-last: soon`) is an error.
    public init(property: String, comparator: Comparator, operand: Value, caseSensitive: Bool = false, now: Date = Date())
        throws(FilterError)
    {
        let test: Test
        let fold: (String) -> String = { caseSensitive ? $0 : $0.lowercased() }
        func fail(_ message: String) -> FilterError { FilterError("'\(property)': \(message)", property: property) }
        switch comparator {
        case .is: test = .equal(operand, true)
        case .isNot: test = .equal(operand, false)
        case .contains: test = .text(fold(operand.textValue), .contains)
        case .doesNotContain: test = .text(fold(operand.textValue), .lacks)
        case .beginsWith: test = .text(fold(operand.textValue), .begins)
        case .endsWith: test = .text(fold(operand.textValue), .ends)
        case .matches:
            do {
                test = .pattern(try RegularExpressions.make(operand.textValue, caseSensitive: caseSensitive))
            } catch {
                throw fail(error.message)
            }
        case .greaterThan, .isAfter: test = Self.orderTest(operand, [.orderedDescending])
        case .atLeast: test = Self.orderTest(operand, [.orderedDescending, .orderedSame])
        case .lessThan, .isBefore: test = Self.orderTest(operand, [.orderedAscending])
        case .atMost: test = Self.orderTest(operand, [.orderedAscending, .orderedSame])
        case .between:
            guard case .list(let bounds) = operand, bounds.count == 2 else {
                throw fail("'between' takes [low, high], not \(operand.briefDescription)")
            }
            test = .between(bounds[0], bounds[1])
        case .isToday, .hasAnyValue:
            let flag: Bool
            do { flag = try operand.isNothing ? true : operand.booleanValue() } catch { throw fail("'\(comparator.name)' takes true or false, not \(operand.briefDescription)") }
            test = comparator == .isToday ? .today(flag) : .present(flag)
        case .inLast, .inNext:
            let components: DateComponents
            do { components = try DurationText.parse(operand.textValue) } catch { throw fail(error.message) }
            let calendar = Calendar.current
            if comparator == .inLast {
                test = .range(calendar.date(byAdding: components.negated, to: now) ?? now, now)
            } else {
                test = .range(now, calendar.date(byAdding: components, to: now) ?? now)
            }
        case .isAnyOf:
            guard case .list(let options) = operand else {
                throw fail("'is-any-of' takes a list, not \(operand.briefDescription)")
            }
            test = .anyOf(options)
        }
        parts = Parts(property: property, comparator: comparator, operand: operand, caseSensitive: caseSensitive, test: test)
    }

    /// `PROPERTY: VALUE` (meaning `is`) or `PROPERTY: {COMPARATOR: VALUE, …, case-sensitive: BOOL}`.
    public static func parse(property: String, _ specification: Value, now: Date = Date()) throws(FilterError) -> [FilterCondition] {
        guard case .dictionary(let entries) = specification else {
            return [try FilterCondition(property: property, comparator: .is, operand: specification, now: now)]
        }
        var caseSensitive = false
        if let flag = entries["case-sensitive"] {
            do { caseSensitive = try flag.booleanValue() } catch {
                throw FilterError("'case-sensitive' takes true or false, not \(flag.briefDescription)", property: property)
            }
        }
        var conditions: [FilterCondition] = []
        for (name, operand) in entries where name != "case-sensitive" {
            guard let comparator = Comparator(named: name) else {
                let names = Comparator.allCases.map(\.name)
                throw FilterError(
                    "unknown comparator '\(name)' for '\(property)'\(Suggestions.didYouMean(name, in: names)) (comparators: \(names.joined(separator: ", ")))",
                    property: property)
            }
            conditions.append(try FilterCondition(property: property, comparator: comparator, operand: operand, caseSensitive: caseSensitive, now: now))
        }
        guard !conditions.isEmpty else { throw FilterError("'\(property)' has no comparator", property: property) }
        return conditions
    }

    /// Whether the condition is a regular expression's, whose search may take long: judged by
    /// `holdsWaiting`, off Swift's cooperative threads, never by `holds` in a filter.
    public var isPattern: Bool {
        if case .pattern = test { return true }
        return false
    }

    /// Whether the condition holds for `value`; a regular expression's search that takes more than
    /// a moment moves to a thread of its own (`RegularExpressions.hasMatch`), where the step's
    /// cancellation stops it.
    public func holdsWaiting(for value: Value) async throws -> Bool {
        guard case .pattern(let expression) = test else { return try holds(for: value) }
        do {
            return try await RegularExpressions.hasMatch(expression, in: value.textValue)
        } catch {
            throw FilterError("stopped while matching '\(expression.pattern)'")
        }
    }

    /// Whether the condition holds for a property's `value`.
    public func holds(for value: Value) throws(FilterError) -> Bool {
        switch test {
        case .equal(let operand, let wanted): return isEqual(value, operand) == wanted
        case .text(let needle, let kind):
            if case .list(let items) = value {
                let found = items.contains { isEqual($0, operand) }
                return kind == .lacks ? !found : found
            }
            let text = value.textValue
            switch kind {
            case .contains: return TextSearch.finds(needle, in: text, .contains, caseSensitive: caseSensitive)
            case .lacks: return !TextSearch.finds(needle, in: text, .contains, caseSensitive: caseSensitive)
            case .begins: return TextSearch.finds(needle, in: text, .begins, caseSensitive: caseSensitive)
            case .ends: return TextSearch.finds(needle, in: text, .ends, caseSensitive: caseSensitive)
            }
        case .pattern(let expression):
            do throws(CancellationError) {
                return try RegularExpressions.hasMatchNow(expression, in: value.textValue)
            } catch {
                throw FilterError("stopped while matching '\(expression.pattern)'")
            }
        case .orderNumber(let number, let accepted):
            if case .number(let given) = value {
                return accepted.contains(given < number ? .orderedAscending : given > number ? .orderedDescending : .orderedSame)
            }
            guard !value.isNothing else { return false }
            return accepted.contains(try order(value, operand))
        case .order(let operand, let accepted):
            guard !value.isNothing else { return false }
            return accepted.contains(try order(value, operand))
        case .between(let low, let high):
            guard !value.isNothing else { return false }
            let aboveLow = try order(value, low) != .orderedAscending
            let belowHigh = try order(value, high) != .orderedDescending
            return aboveLow && belowHigh
        case .today(let wanted):
            guard let date = try? value.dateValue() else { return false }
            return Calendar.current.isDateInToday(date) == wanted
        case .range(let start, let end):
            guard let date = try? value.dateValue() else { return false }
            return date >= start && date <= end
        case .anyOf(let options): return options.contains { isEqual(value, $0) }
        case .present(let wanted): return !(value.isNothing || value.textValue.isEmpty) == wanted
        }
    }

    private static func orderTest(_ operand: Value, _ accepted: AcceptedOrders) -> Test {
        if case .number(let number) = operand { return .orderNumber(number, accepted) }
        return .order(operand, accepted)
    }

    private func isEqual(_ value: Value, _ operand: Value) -> Bool {
        // A content type is one its type conforms to: a PNG is `public.image` and `image`
        // (Docs/Language.md, "Conversions between formats").
        if property == "type", case .text(let identifier) = value, case .text(let name) = operand,
            ContentTypeRegistry.entry(for: ContentType(identifier)) != nil, let wanted = ContentType(name: name)
        {
            return ContentType(identifier).conforms(to: wanted)
        }
        if case .date(let date) = value, case .text(let text) = operand, !text.contains(":"),
            let day = DateFormatting.parse(text)
        {
            return Calendar.current.isDate(date, inSameDayAs: day)
        }
        if case .entity(let entity) = value, case .text(let text) = operand {
            return entity.id == text || (caseSensitive ? entity.title == text : entity.title.caseInsensitiveCompare(text) == .orderedSame)
        }
        return ValueComparison.equal(value, operand, ignoringCase: !caseSensitive)
    }

    private func order(_ value: Value, _ operand: Value) throws(FilterError) -> ComparisonResult {
        guard let order = ValueComparison.order(value, operand) else {
            throw FilterError(
                "'\(comparator.name)' cannot compare \(value.briefDescription) with \(operand.briefDescription)", property: property)
        }
        return order
    }
}
