import Foundation
import RelayKit

/// Evaluates `calculate`'s arithmetic:
///
///     sum     := product (('+' | '-') product)*
///     product := power (('*' | '/' | '%') power)*
///     power   := unary ('^' power)?            (right-associative)
///     unary   := ('-' | '+') unary | primary
///     primary := NUMBER | NAME '(' sum (',' sum)* ')' | 'pi' | 'e' | '(' sum ')'
///
/// Numbers may be written as `-12`, `3.5`, `1e3`, `1,234.5` is not (the comma separates arguments).
struct Calculator {
    private let characters: [Character]
    private var position = 0

    static func evaluate(_ text: String) throws -> Double {
        var calculator = Calculator(characters: Array(text))
        calculator.skipSpaces()
        guard !calculator.atEnd else { throw IntentError("the expression is empty") }
        let value = try calculator.sum()
        calculator.skipSpaces()
        guard calculator.atEnd else { throw calculator.unexpected() }
        guard value.isFinite else { throw IntentError("'\(text)' has no finite result") }
        return value
    }

    private init(characters: [Character]) { self.characters = characters }

    private var atEnd: Bool { position >= characters.count }
    private var current: Character? { atEnd ? nil : characters[position] }

    private mutating func skipSpaces() {
        while let character = current, character.isWhitespace { position += 1 }
    }

    private mutating func take(_ character: Character) -> Bool {
        skipSpaces()
        guard current == character else { return false }
        position += 1
        return true
    }

    private func unexpected() -> IntentError {
        guard let character = current else { return IntentError("the expression ends too early") }
        return IntentError("unexpected '\(character)' at position \(position + 1) of '\(String(characters))'")
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

    private mutating func power() throws -> Double {
        let base = try unary()
        guard take("^") else { return base }
        return pow(base, try power())
    }

    private mutating func unary() throws -> Double {
        if take("-") { return -(try unary()) }
        if take("+") { return try unary() }
        return try primary()
    }

    private mutating func primary() throws -> Double {
        skipSpaces()
        guard let character = current else { throw unexpected() }
        if take("(") {
            let value = try sum()
            guard take(")") else { throw IntentError("missing ')' in '\(String(characters))'") }
            return value
        }
        if character.isNumber || character == "." { return try number() }
        guard character.isLetter || character == "_" else { throw unexpected() }
        let start = position
        while let next = current, next.isLetter || next.isNumber || next == "_" { position += 1 }
        let name = String(characters[start..<position])
        switch name.lowercased() {
        case "pi": return Double.pi
        case "e": return M_E
        default: break
        }
        guard take("(") else {
            throw IntentError("cannot read '\(name)' as a number in '\(String(characters))'")
        }
        var arguments = [try sum()]
        while take(",") { arguments.append(try sum()) }
        guard take(")") else { throw IntentError("missing ')' after the arguments of \(name)") }
        return try apply(name, arguments)
    }

    private mutating func number() throws -> Double {
        let start = position
        while let character = current, character.isNumber || character == "." { position += 1 }
        if let character = current, character == "e" || character == "E" {
            let save = position
            position += 1
            if let sign = current, sign == "+" || sign == "-" { position += 1 }
            if let digit = current, digit.isNumber {
                while let digit = current, digit.isNumber { position += 1 }
            } else {
                position = save
            }
        }
        let text = String(characters[start..<position])
        guard let value = Double(text) else { throw IntentError("cannot read '\(text)' as a number") }
        return value
    }

    private func apply(_ name: String, _ arguments: [Double]) throws -> Double {
        let unary: [String: (Double) -> Double] = [
            "sqrt": { $0.squareRoot() }, "abs": { Swift.abs($0) }, "round": { $0.rounded(.toNearestOrAwayFromZero) },
            "floor": { $0.rounded(.down) }, "ceil": { $0.rounded(.up) },
        ]
        let lowered = name.lowercased()
        if let function = unary[lowered] {
            guard arguments.count == 1 else { throw IntentError("\(lowered) takes one number, not \(arguments.count)") }
            if lowered == "sqrt", arguments[0] < 0 { throw IntentError("sqrt of a negative number") }
            return function(arguments[0])
        }
        switch lowered {
        case "min": return arguments.min() ?? 0
        case "max": return arguments.max() ?? 0
        default:
            let names = Array(unary.keys) + ["min", "max"]
            throw IntentError("unknown function '\(name)'\(Suggestions.didYouMean(name, in: names))")
        }
    }
}
