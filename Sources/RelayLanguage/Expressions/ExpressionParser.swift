import RelayKit

/// Parses the text inside `${ }` into an `ValueExpression`:
///
///     or      := and ('or' and)*
///     and     := not ('and' not)*
///     not     := 'not' not | compare
///     compare := sum (('==' | '!=' | '<' | '<=' | '>' | '>=' | 'contains' | 'matches' | 'in') sum)?
///     sum     := product (('+' | '-') product)*
///     product := unary (('*' | '/' | '%') unary)*
///     unary   := '-' unary | postfix
///     postfix := primary ('.' NAME | '[' or ']')*
///     primary := NUMBER | TEXT | 'true' | 'false' | 'nothing' | NAME | '(' or ')' | list
///     list    := '[' (or (',' or)* ','?)? ']'
package struct ExpressionParser {
    /// The words that are operators in expressions.
    static let operatorWords = ["and", "or", "not", "contains", "matches", "in"]
    /// The words expressions give a meaning of their own, which no variable may be named.
    public static let reservedWords = operatorWords + ["true", "false", "nothing"]

    /// Maps a character offset and length in the expression text to a place in the file.
    package typealias Locator = (_ offset: Int, _ length: Int) -> SourceRange

    private let tokens: [ExpressionToken]
    private let locate: Locator
    private var position = 0
    /// How many parentheses, prefixes and indexes the parser is inside: bounded, so that a deeply
    /// nested expression is an error rather than a stack overflow.
    private var nesting = 0

    /// Parses `text`, or throws a diagnostic pointing at the problem.
    package static func parse(_ text: String, locate: @escaping Locator) throws(Diagnostic) -> ValueExpression {
        do throws(ExpressionSyntaxError) {
            var parser = ExpressionParser(tokens: try ExpressionLexer.tokens(text), locate: locate)
            guard parser.current.kind != .end else {
                throw ExpressionSyntaxError(message: "empty expression", offset: 0, length: 0)
            }
            let expression = try parser.parseOr()
            guard parser.current.kind == .end else {
                throw parser.unexpected("an operator or the end of the expression")
            }
            return expression
        } catch {
            let shown = text.count > 60 ? text.prefix(57) + "…" : Substring(text)
            throw Diagnostic.error(
                "invalid expression '${\(shown)}': \(error.message)", at: locate(error.offset, max(1, error.length)))
        }
    }

    private init(tokens: [ExpressionToken], locate: @escaping Locator) {
        self.tokens = tokens
        self.locate = locate
    }

    private var current: ExpressionToken { tokens[position] }

    private mutating func advance() -> ExpressionToken {
        let token = tokens[position]
        if position < tokens.count - 1 { position += 1 }
        return token
    }

    private func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }
    private func isKeyword(_ word: String) -> Bool { current.kind == .identifier(word) }

    private func unexpected(_ expected: String) -> ExpressionSyntaxError {
        let found: String
        switch current.kind {
        case .end: found = "the end"
        case .number(let number): found = "'\(NumberFormatting.text(number))'"
        case .string(let text): found = "'\(text)'"
        case .identifier(let name), .symbol(let name): found = "'\(name)'"
        }
        return ExpressionSyntaxError(message: "expected \(expected), found \(found)", offset: current.offset, length: max(1, current.length))
    }

    /// A node of the tree, refused when it would make the tree deeper than the limit.
    private func node(_ kind: ValueExpression.Kind, range: SourceRange) throws(ExpressionSyntaxError) -> ValueExpression {
        let expression = ValueExpression(kind, range: range)
        guard expression.depth <= Limits.expressionDepth else { throw tooDeep() }
        return expression
    }

    private func tooDeep() -> ExpressionSyntaxError {
        ExpressionSyntaxError(message: Limits.expressionDepthMessage, offset: current.offset, length: max(1, current.length))
    }

    /// Enters one more level of nesting, or refuses past the limit.
    private mutating func enter() throws(ExpressionSyntaxError) {
        nesting += 1
        guard nesting <= Limits.expressionDepth else { throw tooDeep() }
    }

    private func span(_ first: ValueExpression, _ last: ValueExpression) -> SourceRange {
        SourceRange(file: first.range.file, start: first.range.start, end: last.range.end)
    }

    private mutating func parseOr() throws(ExpressionSyntaxError) -> ValueExpression {
        var left = try parseAnd()
        while isKeyword("or") {
            _ = advance()
            let right = try parseAnd()
            left = try node(.binary(.or, left, right), range: span(left, right))
        }
        return left
    }

    private mutating func parseAnd() throws(ExpressionSyntaxError) -> ValueExpression {
        var left = try parseNot()
        while isKeyword("and") {
            _ = advance()
            let right = try parseNot()
            left = try node(.binary(.and, left, right), range: span(left, right))
        }
        return left
    }

    private mutating func parseNot() throws(ExpressionSyntaxError) -> ValueExpression {
        guard isKeyword("not") else { return try parseComparison() }
        let token = advance()
        try enter()
        let operand = try parseNot()
        nesting -= 1
        let range = SourceRange(file: operand.range.file, start: locate(token.offset, token.length).start, end: operand.range.end)
        return try node(.unary(.not, operand), range: range)
    }

    private static let comparisons: [ExpressionToken.Kind: BinaryOperator] = [
        .symbol("=="): .equal, .symbol("!="): .notEqual, .symbol("==="): .exactlyEqual, .symbol("!=="): .notExactlyEqual, .symbol("<"): .less, .symbol("<="): .lessOrEqual,
        .symbol(">"): .greater, .symbol(">="): .greaterOrEqual, .identifier("contains"): .contains,
        .identifier("matches"): .matches, .identifier("in"): .isIn,
    ]

    private mutating func parseComparison() throws(ExpressionSyntaxError) -> ValueExpression {
        let left = try parseSum()
        guard let op = Self.comparisons[current.kind] else { return left }
        _ = advance()
        let right = try parseSum()
        return try node(.binary(op, left, right), range: span(left, right))
    }

    private mutating func parseSum() throws(ExpressionSyntaxError) -> ValueExpression {
        var left = try parseProduct()
        while isSymbol("+") || isSymbol("-") {
            let op: BinaryOperator = advance().kind == .symbol("+") ? .add : .subtract
            let right = try parseProduct()
            left = try node(.binary(op, left, right), range: span(left, right))
        }
        return left
    }

    private mutating func parseProduct() throws(ExpressionSyntaxError) -> ValueExpression {
        var left = try parseUnary()
        while isSymbol("*") || isSymbol("/") || isSymbol("%") {
            let symbol = advance().kind
            let op: BinaryOperator = symbol == .symbol("*") ? .multiply : symbol == .symbol("/") ? .divide : .remainder
            let right = try parseUnary()
            left = try node(.binary(op, left, right), range: span(left, right))
        }
        return left
    }

    private mutating func parseUnary() throws(ExpressionSyntaxError) -> ValueExpression {
        guard isSymbol("-") else { return try parsePostfix() }
        let token = advance()
        try enter()
        let operand = try parseUnary()
        nesting -= 1
        let range = SourceRange(file: operand.range.file, start: locate(token.offset, 1).start, end: operand.range.end)
        if case .literal(.number(let number)) = operand.kind {
            return ValueExpression(.literal(.number(-number)), range: range)
        }
        return try node(.unary(.negate, operand), range: range)
    }

    private mutating func parsePostfix() throws(ExpressionSyntaxError) -> ValueExpression {
        var expression = try parsePrimary()
        while true {
            if isSymbol(".") {
                _ = advance()
                let nameToken = current
                guard case .identifier(let name) = nameToken.kind else { throw unexpected("a property name after '.'") }
                _ = advance()
                let end = locate(nameToken.offset, nameToken.length).end
                expression = try node(
                    .property(expression, name), range: SourceRange(file: expression.range.file, start: expression.range.start, end: end))
            } else if isSymbol("[") {
                _ = advance()
                try enter()
                let index = try parseOr()
                nesting -= 1
                guard isSymbol("]") else { throw unexpected("']'") }
                let close = advance()
                let end = locate(close.offset, 1).end
                expression = try node(
                    .index(expression, index), range: SourceRange(file: expression.range.file, start: expression.range.start, end: end))
            } else {
                return expression
            }
        }
    }

    /// `[1, 2, 3]`, `[]`, `["a", name,]`: a list of values, a comma after the last allowed.
    private mutating func parseList() throws(ExpressionSyntaxError) -> ValueExpression {
        let open = advance()
        try enter()
        var items: [ValueExpression] = []
        while !isSymbol("]") {
            items.append(try parseOr())
            guard isSymbol(",") else { break }
            _ = advance()
        }
        nesting -= 1
        guard isSymbol("]") else { throw unexpected(items.isEmpty ? "a value or ']'" : "',' or ']'") }
        let close = advance()
        let range = SourceRange(file: locate(open.offset, 1).file, start: locate(open.offset, 1).start, end: locate(close.offset, 1).end)
        return try node(.list(items), range: range)
    }

    private mutating func parsePrimary() throws(ExpressionSyntaxError) -> ValueExpression {
        let token = current
        let range = locate(token.offset, token.length)
        switch token.kind {
        case .number(let number):
            _ = advance()
            return ValueExpression(.literal(.number(number)), range: range)
        case .string(let text):
            _ = advance()
            return ValueExpression(.literal(.text(text)), range: range)
        case .identifier("true"), .identifier("false"):
            _ = advance()
            return ValueExpression(.literal(.boolean(token.kind == .identifier("true"))), range: range)
        case .identifier("nothing"):
            _ = advance()
            return ValueExpression(.literal(.nothing), range: range)
        case .identifier(let name) where !Self.operatorWords.contains(name):
            _ = advance()
            return ValueExpression(.variable(name), range: range)
        case .symbol("("):
            _ = advance()
            try enter()
            let inner = try parseOr()
            nesting -= 1
            guard isSymbol(")") else { throw unexpected("')'") }
            _ = advance()
            return inner
        case .symbol("["):
            return try parseList()
        default:
            throw unexpected("a value")
        }
    }
}
