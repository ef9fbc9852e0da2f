import Foundation
import RelayKit
import RelayLanguage

/// Evaluates templates and `${…}` expressions against the run's variables (Docs/Language.md, "Variables and expressions").
package enum Evaluator {
    /// `template`'s value. With `asURL` (a parameter that takes a URL), each `${…}` in URL text
    /// is percent-encoded for where it stands (`URLText`): a value cannot change the URL's shape.
    static func evaluate(_ template: Template, _ variables: Variables, asURL: Bool = false) async throws(RuntimeError) -> Value {
        switch template.kind {
        case .literal(let value): return value
        case .expression(let expression): return try await evaluate(expression, variables)
        case .interpolation(let parts) where asURL:
            var url = URLText()
            for part in parts {
                switch part {
                case .text(let literal): url.appendLiteral(literal)
                case .expression(let expression): url.appendValue(try await evaluate(expression, variables).textValue)
                }
            }
            return .text(url.text)
        case .interpolation(let parts):
            var text = ""
            for part in parts {
                let piece: String
                switch part {
                case .text(let literal): piece = literal
                case .expression(let expression): piece = try await evaluate(expression, variables).textValue
                }
                if let problem = Value.textSizeProblem(text.utf8.count + piece.utf8.count) { throw RuntimeError(problem, at: template.range) }
                text += piece
            }
            return .text(text)
        case .list(let items):
            var values: [Value] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try await evaluate(item, variables)) }
            return try bounded(.list(values), at: template.range)
        case .dictionary(let entries):
            var dictionary = ValueDictionary(minimumCapacity: entries.count)
            for entry in entries { dictionary[entry.key] = try await evaluate(entry.value, variables) }
            return try bounded(.dictionary(dictionary), at: template.range)
        }
    }

    /// `value`, or an error when it nests past `Limits.valueDepth`.
    static func bounded(_ value: Value, at range: SourceRange) throws(RuntimeError) -> Value {
        if let problem = value.nestingProblem { throw RuntimeError(problem, at: range) }
        return value
    }

    package static func evaluate(_ expression: ValueExpression, _ variables: Variables) async throws(RuntimeError) -> Value {
        switch expression.kind {
        case .literal(let value): return value
        case .variable(let name):
            guard let value = variables[name] else {
                throw RuntimeError("variable '\(name)' has no value yet", at: expression.range)
            }
            return value
        case .property(let base, let name):
            let value = try await evaluate(base, variables)
            if value.mayFetch(name) {
                do {
                    return try await value.resolvedProperty(name)
                } catch {
                    throw RuntimeError(Interpreter.message(for: error), at: expression.range)
                }
            }
            do throws(ValueAccessError) {
                return try value.property(name)
            } catch {
                throw RuntimeError(error.message, at: expression.range)
            }
        case .index(let base, let index):
            let container = try await evaluate(base, variables)
            let key = try await evaluate(index, variables)
            do throws(ValueAccessError) {
                return try container.element(at: key)
            } catch {
                throw RuntimeError(error.message, at: expression.range)
            }
        case .unary(.not, let operand):
            return .boolean(!(try await evaluate(operand, variables).isTruthy))
        case .unary(.negate, let operand):
            return .number(-(try number(await evaluate(operand, variables), in: operand)))
        case .binary(.and, let left, let right):
            guard try await evaluate(left, variables).isTruthy else { return .boolean(false) }
            return .boolean(try await evaluate(right, variables).isTruthy)
        case .binary(.or, let left, let right):
            if try await evaluate(left, variables).isTruthy { return .boolean(true) }
            return .boolean(try await evaluate(right, variables).isTruthy)
        case .binary(.matches, let left, let right):
            return try await matches(try await evaluate(left, variables), try await evaluate(right, variables), expression)
        case .binary(.isIn, let left, let right):
            return try apply(.contains, try await evaluate(right, variables), try await evaluate(left, variables), expression)
        case .binary(let op, let left, let right):
            return try apply(op, try await evaluate(left, variables), try await evaluate(right, variables), expression)
        case .list(let items):
            var values: [Value] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try await evaluate(item, variables)) }
            return try bounded(.list(values), at: expression.range)
        }
    }

    /// `a` then `b`, when the text is within `Limits.textBytes`.
    private static func joined(_ a: String, _ b: String, _ expression: ValueExpression) throws(RuntimeError) -> Value {
        if let problem = Value.textSizeProblem(a.utf8.count + b.utf8.count) { throw RuntimeError(problem, at: expression.range) }
        return .text(a + b)
    }

    /// `list`, made only when its `count` items are within `Limits.collectionItems`.
    private static func sized(_ count: Int, _ list: @autoclosure () -> Value, _ expression: ValueExpression) throws(RuntimeError) -> Value {
        if let problem = Value.itemsProblem(count, of: "a list") { throw RuntimeError(problem, at: expression.range) }
        return list()
    }

    private static func apply(_ op: BinaryOperator, _ lhs: Value, _ rhs: Value, _ expression: ValueExpression) throws(RuntimeError) -> Value {
        switch op {
        case .add:
            switch (lhs, rhs) {
            case (.list(let a), .list(let b)): return try sized(a.count + b.count, .list(a + b), expression)
            case (.list(let a), _): return try sized(a.count + 1, .list(a + [rhs]), expression)
            case (.text(let a), .text(let b)): return try joined(a, b, expression)
            case (.text(let a), _) where !isNumeric(lhs) || !isNumeric(rhs): return try joined(a, rhs.textValue, expression)
            case (_, .text(let b)) where !isNumeric(lhs) || !isNumeric(rhs): return try joined(lhs.textValue, b, expression)
            default: break
            }
            return .number(try arithmetic(lhs, rhs, expression) { $0 + $1 })
        case .subtract: return .number(try arithmetic(lhs, rhs, expression) { $0 - $1 })
        case .multiply: return .number(try arithmetic(lhs, rhs, expression) { $0 * $1 })
        case .divide, .remainder:
            let (a, b) = (try number(lhs, in: expression), try number(rhs, in: expression))
            guard b != 0 else { throw RuntimeError("division by zero", at: expression.range) }
            return .number(op == .divide ? a / b : a.truncatingRemainder(dividingBy: b))
        // Texts compare ignoring case, as `where:` and `match` do; `===` counts case (Docs/Language.md, "Comparing texts").
        case .equal: return .boolean(ValueComparison.equal(lhs, rhs, ignoringCase: true))
        case .notEqual: return .boolean(!ValueComparison.equal(lhs, rhs, ignoringCase: true))
        case .exactlyEqual: return .boolean(ValueComparison.equal(lhs, rhs))
        case .notExactlyEqual: return .boolean(!ValueComparison.equal(lhs, rhs))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = ValueComparison.order(lhs, rhs) else {
                throw RuntimeError("cannot compare \(lhs.briefDescription) with \(rhs.briefDescription)", at: expression.range)
            }
            switch op {
            case .less: return .boolean(order == .orderedAscending)
            case .lessOrEqual: return .boolean(order != .orderedDescending)
            case .greater: return .boolean(order == .orderedDescending)
            default: return .boolean(order != .orderedAscending)
            }
        case .isIn:
            return try apply(.contains, rhs, lhs, expression)
        case .contains:
            switch lhs {
            case .list(let items): return .boolean(items.contains { ValueComparison.equal($0, rhs, ignoringCase: true) })
            case .dictionary(let entries): return .boolean(entries[rhs.textValue] != nil)
            default: return .boolean(ValueComparison.contains(lhs.textValue, rhs.textValue, ignoringCase: true))
            }
        case .matches:
            return try matchesNow(lhs, rhs, expression)
        case .and, .or:
            return .boolean(op == .and ? lhs.isTruthy && rhs.isTruthy : lhs.isTruthy || rhs.isTruthy)
        }
    }

    /// `lhs matches rhs`: a search that takes long moves off Swift's cooperative threads, so a
    /// step's `timeout:` can stop it (see `RegularExpressions`).
    private static func matches(_ lhs: Value, _ rhs: Value, _ expression: ValueExpression) async throws(RuntimeError) -> Value {
        let regex = try pattern(rhs, expression)
        do {
            return .boolean(try await RegularExpressions.hasMatch(regex, in: lhs.textValue))
        } catch {
            throw RuntimeError("stopped while matching '\(rhs.textValue)'", at: expression.range)
        }
    }

    private static func matchesNow(_ lhs: Value, _ rhs: Value, _ expression: ValueExpression) throws(RuntimeError) -> Value {
        let regex = try pattern(rhs, expression)
        do throws(CancellationError) {
            return .boolean(try RegularExpressions.hasMatchNow(regex, in: lhs.textValue))
        } catch {
            throw RuntimeError("stopped while matching '\(rhs.textValue)'", at: expression.range)
        }
    }

    private static func pattern(_ rhs: Value, _ expression: ValueExpression) throws(RuntimeError) -> NSRegularExpression {
        do throws(IntentError) {
            return try RegularExpressions.make(rhs.textValue)
        } catch {
            throw RuntimeError(error.message, at: expression.range)
        }
    }

    private static func isNumeric(_ value: Value) -> Bool {
        switch value {
        case .number: true
        case .text(let text): NumberParsing.number(from: text) != nil
        default: false
        }
    }

    private static func arithmetic(
        _ lhs: Value, _ rhs: Value, _ expression: ValueExpression, _ operation: (Double, Double) -> Double
    ) throws(RuntimeError) -> Double {
        operation(try number(lhs, in: expression), try number(rhs, in: expression))
    }

    private static func number(_ value: Value, in expression: ValueExpression) throws(RuntimeError) -> Double {
        do throws(CoercionError) {
            return try value.numberValue()
        } catch {
            throw RuntimeError(error.description, at: expression.range)
        }
    }
}
