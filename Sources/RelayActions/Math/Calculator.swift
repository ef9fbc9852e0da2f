import Foundation
import RelayKit

/// Evaluates `calculate`'s arithmetic:
///
///     sum     := product (('+' | '-') product)*
///     product := power (('*' | '/' | '%') power)*
///     power   := unary ('^' power)?            (right-associative)
///     unary   := ('-' | '+') unary | primary
///     primary := NUMBER | NAME '(' (sum (',' sum)*)? ')' | 'pi' | 'e' | '(' sum ')'
///
/// Numbers may be written as `-12`, `3.5`, `1e3`, `1,234.5` is not (the comma separates arguments).
struct Calculator {
    private let text: String
    private let bytes: [UInt8]
    private var position = 0
    /// How many parentheses, powers and signs deep the reading is: bounded, so that no formula
    /// can exhaust the stack.
    private var nesting = 0

    static func evaluate(_ text: String) throws -> Double {
        var calculator = Calculator(text: text)
        calculator.skipSpaces()
        guard !calculator.atEnd else { throw IntentError("the expression is empty") }
        let value = try calculator.sum()
        calculator.skipSpaces()
        guard calculator.atEnd else { throw calculator.unexpected() }
        guard value.isFinite else { throw IntentError("'\(text)' has no finite result") }
        return value
    }

    /// What is wrong with `text` as a formula, or nil: the checker's view of a literal formula.
    @Sendable static func problem(_ text: String) -> String? { IntentError.problem { _ = try evaluate(text) } }

    /// The functions a formula may call, and the names that are numbers.
    static let unaryFunctions: [String: @Sendable (Double) -> Double] = [
        "sqrt": { $0.squareRoot() }, "abs": { Swift.abs($0) }, "round": { $0.rounded(.toNearestOrAwayFromZero) },
        "floor": { $0.rounded(.down) }, "ceil": { $0.rounded(.up) }, "ln": { Foundation.log($0) }, "log": { Foundation.log10($0) },
        "exp": { Foundation.exp($0) }, "cbrt": { Foundation.cbrt($0) },
        // Angles in radians, as in every programming language and in Shortcuts' Calculate.
        "sin": { Foundation.sin($0) }, "cos": { Foundation.cos($0) }, "tan": { Foundation.tan($0) },
        "asin": { Foundation.asin($0) }, "acos": { Foundation.acos($0) }, "atan": { Foundation.atan($0) },
        // A product, exact as far as a number holds one; past 170 it has no finite result.
        "factorial": { $0 > 170 ? .infinity : $0 < 2 ? 1 : (2...Int($0)).reduce(1.0) { $0 * Double($1) } },
    ]
    static let functionNames = Array(unaryFunctions.keys).sorted() + ["min", "max", "random"]
    static let constantNames = ["pi", "e"]

    /// What is surely wrong with a formula written with `${…}` inside, whatever the values: a name
    /// that is neither a function nor a constant, written whole between the values. A name
    /// touching a value (`${f}(2)`, `sq${x}`) may be completed by it and is left alone.
    @Sendable static func patternProblem(_ pattern: TextPattern) -> String? {
        for (index, piece) in pattern.pieces.enumerated() {
            guard case .text(let text) = piece else { continue }
            let bytes = Array(text.utf8)
            let valueBefore = index > 0, valueAfter = index < pattern.pieces.count - 1
            var position = 0
            while position < bytes.count {
                let byte = bytes[position]
                if isDigit(byte) || byte == UInt8(ascii: ".") {
                    // A number, with its exponent: `2e3` names nothing.
                    while position < bytes.count, isDigit(bytes[position]) || bytes[position] == UInt8(ascii: ".") { position += 1 }
                    if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                        position += 1
                        if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
                    }
                    continue
                }
                guard isNameByte(byte) else {
                    position += 1
                    continue
                }
                let start = position
                while position < bytes.count, isNameByte(bytes[position]) || isDigit(bytes[position]) { position += 1 }
                if (start == 0 && valueBefore) || (position == bytes.count && valueAfter) { continue }
                let name = String(decoding: bytes[start..<position], as: UTF8.self)
                var next = position
                while next < bytes.count, bytes[next] == 32 || bytes[next] == 9 { next += 1 }
                let calls = next < bytes.count && bytes[next] == UInt8(ascii: "(")
                if calls, !functionNames.contains(name.lowercased()) {
                    return "unknown function '\(name)'\(Suggestions.didYouMean(name, in: functionNames))"
                }
                if !calls, !constantNames.contains(name.lowercased()) {
                    return "cannot read '\(name)' as a number\(Suggestions.didYouMean(name, in: constantNames + functionNames))"
                }
            }
        }
        return nil
    }

    private init(text: String) {
        self.text = text
        self.bytes = Array(text.utf8)
    }

    private var atEnd: Bool { position >= bytes.count }
    private var current: UInt8? { atEnd ? nil : bytes[position] }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
    /// Letters of names: ASCII letters, `_`, and any byte of a non-ASCII character.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95 || byte >= 128
    }

    private mutating func skipSpaces() {
        while let byte = current, byte == 32 || byte == 9 || byte == 10 || byte == 13 { position += 1 }
    }

    private mutating func take(_ character: Unicode.Scalar) -> Bool {
        skipSpaces()
        guard current == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    private func unexpected() -> IntentError {
        guard !atEnd else { return IntentError("the expression ends too early") }
        let rest = String(decoding: bytes[position...], as: UTF8.self)
        let hint = rest.hasPrefix("!") ? "; a factorial is written factorial(N)" : ""
        return IntentError("unexpected '\(rest.prefix(1))' at '\(rest.prefix(12))' in '\(text)'\(hint)")
    }

    private mutating func sum() throws -> Double {
        var value = try product()
        while true {
            if take("+") { value += try product() } else if take("-") { value -= try product() } else { return value }
        }
    }

    private mutating func product() throws -> Double {
        var value = try power()
        while true {
            if take("*") {
                value *= try power()
            } else if take("/") {
                let divisor = try power()
                guard divisor != 0 else { throw IntentError("division by zero") }
                value /= divisor
            } else if take("%") {
                let divisor = try power()
                guard divisor != 0 else { throw IntentError("division by zero") }
                value = value.truncatingRemainder(dividingBy: divisor)
            } else {
                return value
            }
        }
    }

    /// `body` one level deeper, or an error past `Limits.expressionDepth`.
    private mutating func nested(_ body: (inout Calculator) throws -> Double) throws -> Double {
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= Limits.expressionDepth else { throw IntentError(Limits.expressionDepthMessage) }
        return try body(&self)
    }

    private mutating func power() throws -> Double {
        let base = try unary()
        guard take("^") else { return base }
        return pow(base, try nested { try $0.power() })
    }

    private mutating func unary() throws -> Double {
        if take("-") { return -(try nested { try $0.unary() }) }
        if take("+") { return try nested { try $0.unary() } }
        return try primary()
    }

    private mutating func primary() throws -> Double {
        skipSpaces()
        guard let character = current else { throw unexpected() }
        if take("(") {
            let value = try nested { try $0.sum() }
            guard take(")") else { throw IntentError("missing ')' in '\(text)'") }
            return value
        }
        if Self.isDigit(character) || character == UInt8(ascii: ".") { return try number() }
        guard Self.isNameByte(character) else { throw unexpected() }
        let start = position
        while let next = current, Self.isNameByte(next) || Self.isDigit(next) { position += 1 }
        let name = String(decoding: bytes[start..<position], as: UTF8.self)
        switch name.lowercased() {
        case "pi": return Double.pi
        case "e": return M_E
        default: break
        }
        guard take("(") else {
            throw IntentError("cannot read '\(name)' as a number in '\(text)'")
        }
        skipSpaces()
        if take(")") { return try apply(name, []) }
        var arguments = [try nested { try $0.sum() }]
        while take(",") { arguments.append(try nested { try $0.sum() }) }
        guard take(")") else { throw IntentError("missing ')' after the arguments of \(name)") }
        return try apply(name, arguments)
    }

    private mutating func number() throws -> Double {
        let start = position
        while let byte = current, Self.isDigit(byte) || byte == UInt8(ascii: ".") { position += 1 }
        if let byte = current, byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            let save = position
            position += 1
            if let sign = current, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            if let digit = current, Self.isDigit(digit) {
                while let digit = current, Self.isDigit(digit) { position += 1 }
            } else {
                position = save
            }
        }
        // Whole numbers of up to 15 digits (a loop's index, say) are exact as a Double: read
        // without making text.
        if position - start <= 15, bytes[start..<position].allSatisfy(Self.isDigit) {
            return Double(bytes[start..<position].reduce(0) { $0 * 10 + Int($1 - 48) })
        }
        let literal = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(literal) else { throw IntentError("cannot read '\(literal)' as a number") }
        return value
    }

    private func apply(_ name: String, _ arguments: [Double]) throws -> Double {
        let lowered = name.lowercased()
        if let function = Self.unaryFunctions[lowered] {
            guard arguments.count == 1 else { throw IntentError("\(lowered) takes one number, not \(arguments.count)") }
            if lowered == "sqrt", arguments[0] < 0 { throw IntentError("sqrt of a negative number") }
            if lowered == "ln" || lowered == "log", arguments[0] <= 0 { throw IntentError("\(lowered) of a number that is not above 0") }
            if lowered == "asin" || lowered == "acos", Swift.abs(arguments[0]) > 1 {
                throw IntentError("\(lowered) of a number outside -1 to 1")
            }
            if lowered == "factorial", arguments[0] < 0 || arguments[0] != arguments[0].rounded() {
                throw IntentError("factorial of a number that is not a whole number of 0 or more")
            }
            return function(arguments[0])
        }
        switch lowered {
        case "min", "max":
            guard !arguments.isEmpty else { throw IntentError("\(lowered) takes one number or more") }
            return (lowered == "min" ? arguments.min() : arguments.max()) ?? 0
        case "random":
            // random() is from 0 up to 1; random(A, B) as random-number draws it.
            switch arguments.count {
            case 0: return Double.random(in: 0..<1)
            case 2: return try RandomNumbers.number(from: arguments[0], to: arguments[1])
            default: throw IntentError("random takes no number (0 up to 1) or two (the ends), not \(arguments.count)")
            }
        default: throw IntentError("unknown function '\(name)'\(Suggestions.didYouMean(name, in: Self.functionNames))")
        }
    }
}
