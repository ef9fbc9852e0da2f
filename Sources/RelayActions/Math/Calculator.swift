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
    /// Where a value stands in a formula read from a pattern (`Formula.init(_:)`): one byte each.
    private let valuePlaces: Set<Int>
    private var valueCount = 0
    /// What is read, in the order it is worked out.
    private var operations: [Formula.Operation] = []

    static func evaluate(_ text: String) throws -> Double {
        try Formula(text).value(with: [])
    }

    /// `text` read into a formula; an error when it is not one.
    fileprivate static func read(_ text: String, values: Set<Int> = []) throws -> [Formula.Operation] {
        var calculator = Calculator(text: text, values: values)
        calculator.skipSpaces()
        guard !calculator.atEnd else { throw IntentError("the expression is empty") }
        do {
            try calculator.sum()
            calculator.skipSpaces()
            guard calculator.atEnd else { throw calculator.unexpected() }
        } catch {
            // What comes before the mistake is worked out as it is read: its error is the one
            // said (`1 / 0 + )` divides by zero), as a calculator that reads and works at once says.
            if values.isEmpty { try Formula.workOut(calculator.operations, values: []) }
            throw error
        }
        return calculator.operations
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

    private init(text: String, values: Set<Int> = []) {
        self.text = text
        self.bytes = Array(text.utf8)
        self.valuePlaces = values
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

    private mutating func sum() throws {
        try product()
        while true {
            if take("+") {
                try product()
                operations.append(.add)
            } else if take("-") {
                try product()
                operations.append(.subtract)
            } else {
                return
            }
        }
    }

    private mutating func product() throws {
        try power()
        while true {
            if take("*") {
                try power()
                operations.append(.multiply)
            } else if take("/") {
                try power()
                operations.append(.divide)
            } else if take("%") {
                try power()
                operations.append(.remainder)
            } else {
                return
            }
        }
    }

    /// `body` one level deeper, or an error past `Limits.expressionDepth`.
    private mutating func nested(_ body: (inout Calculator) throws -> Void) throws {
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= Limits.expressionDepth else { throw IntentError(Limits.expressionDepthMessage) }
        try body(&self)
    }

    private mutating func power() throws {
        try unary()
        guard take("^") else { return }
        try nested { try $0.power() }
        operations.append(.power)
    }

    private mutating func unary() throws {
        if take("-") {
            try nested { try $0.unary() }
            operations.append(.negate)
        } else if take("+") {
            try nested { try $0.unary() }
        } else {
            try primary()
        }
    }

    private mutating func primary() throws {
        skipSpaces()
        guard let character = current else { throw unexpected() }
        if take("(") {
            try nested { try $0.sum() }
            guard take(")") else { throw IntentError("missing ')' in '\(text)'") }
            return
        }
        if character == 0, valuePlaces.contains(position) {
            operations.append(.value(valueCount))
            valueCount += 1
            position += 1
            return
        }
        if Self.isDigit(character) || character == UInt8(ascii: ".") { return operations.append(.number(try number())) }
        guard Self.isNameByte(character) else { throw unexpected() }
        let start = position
        while let next = current, Self.isNameByte(next) || Self.isDigit(next) { position += 1 }
        let name = String(decoding: bytes[start..<position], as: UTF8.self)
        switch name.lowercased() {
        case "pi": return operations.append(.number(Double.pi))
        case "e": return operations.append(.number(M_E))
        default: break
        }
        guard take("(") else {
            throw IntentError("cannot read '\(name)' as a number in '\(text)'")
        }
        skipSpaces()
        if take(")") { return operations.append(.call(name, 0)) }
        try nested { try $0.sum() }
        var count = 1
        while take(",") {
            try nested { try $0.sum() }
            count += 1
        }
        guard take(")") else { throw IntentError("missing ')' after the arguments of \(name)") }
        operations.append(.call(name, count))
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

    fileprivate static func apply(_ name: String, _ arguments: [Double]) throws -> Double {
        let lowered = name.lowercased()
        if let function = unaryFunctions[lowered] {
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
        default: throw IntentError("unknown function '\(name)'\(Suggestions.didYouMean(name, in: functionNames))")
        }
    }
}

/// A formula read once and worked out for any values: `calculate`'s text, or a pattern of it
/// whose `${…}` each stand for a number (a step planned when its workflow is checked).
struct Formula: Sendable {
    /// One step of the working out, in postfix order: a number or a value is put on the stack, an
    /// operation takes its operands from the top.
    enum Operation: Sendable {
        case number(Double)
        case value(Int)
        case negate, add, subtract, multiply, divide, remainder, power
        /// A function, as written, with how many arguments it is given.
        case call(String, Int)
    }

    private let operations: [Operation]
    /// The pieces the formula was read from, to say which formula an error is about.
    private let pieces: [TextPattern.Piece]

    init(_ text: String) throws {
        operations = try Calculator.read(text)
        pieces = [.text(text)]
    }

    /// The formula of `pattern`, whose values each stand where a number can: nil when one does
    /// not (`${a}${b}`, `2${a}`, `sqrt${a}`), where a value's text would join what is beside it.
    init?(_ pattern: TextPattern) {
        var text = ""
        var places: Set<Int> = []
        for piece in pattern.pieces {
            switch piece {
            case .text(let written):
                // A zero byte written in the text is not a value's place (and reads as no formula).
                text += written
            case .value:
                places.insert(text.utf8.count)
                text += "\0"
            }
        }
        guard let operations = try? Calculator.read(text, values: places) else { return nil }
        self.operations = operations
        pieces = pattern.pieces
    }

    /// The formula's value when each `${…}` is the number at its place in `values`.
    func value(with values: [Double]) throws -> Double {
        let result = try Self.workOut(operations, values: values)
        guard result.isFinite else { throw IntentError("'\(text(with: values))' has no finite result") }
        return result
    }

    /// What `operations` leave on top of the stack (0 for none), working each out in turn; the
    /// first one's error that fails.
    @discardableResult
    fileprivate static func workOut(_ operations: [Operation], values: [Double]) throws -> Double {
        guard !operations.isEmpty else { return 0 }
        return try withUnsafeTemporaryAllocation(of: Double.self, capacity: operations.count) { stack in
            var top = 0
            for operation in operations {
                switch operation {
                case .number(let number):
                    stack[top] = number
                    top += 1
                case .value(let index):
                    stack[top] = values[index]
                    top += 1
                case .negate: stack[top - 1] = -stack[top - 1]
                case .call(let name, let count):
                    let arguments = Array(stack[(top - count)..<top])
                    top -= count
                    stack[top] = try Calculator.apply(name, arguments)
                    top += 1
                default:
                    let right = stack[top - 1], left = stack[top - 2]
                    top -= 1
                    stack[top - 1] = try apply(operation, left, right)
                }
            }
            return stack[top - 1]
        }
    }

    private static func apply(_ operation: Operation, _ left: Double, _ right: Double) throws -> Double {
        switch operation {
        case .add: return left + right
        case .subtract: return left - right
        case .multiply: return left * right
        case .divide:
            guard right != 0 else { throw IntentError("division by zero") }
            return left / right
        case .remainder:
            guard right != 0 else { throw IntentError("division by zero") }
            return left.truncatingRemainder(dividingBy: right)
        default: return pow(left, right)
        }
    }

    /// The formula's text with `values` written in, as `calculate` is given it otherwise.
    private func text(with values: [Double]) -> String {
        var index = 0
        return pieces.map { piece in
            switch piece {
            case .text(let text): return text
            case .value:
                defer { index += 1 }
                return index < values.count ? NumberFormatting.text(values[index]) : ""
            }
        }.joined()
    }
}
