import RelayKit

/// An expression inside `${ }` (Docs/Language.md, "Variables and expressions"), with its place in the file.
public struct ValueExpression: Sendable {
    public indirect enum Kind: Sendable {
        case literal(Value)
        case variable(String)
        case property(ValueExpression, String)
        case index(ValueExpression, ValueExpression)
        case unary(UnaryOperator, ValueExpression)
        case binary(BinaryOperator, ValueExpression, ValueExpression)
        /// `[a, b, c]`: a list of the items' values.
        case list([ValueExpression])
    }

    public var kind: Kind
    public var range: SourceRange
    /// How many levels the tree has (a literal or a variable is 1); the parser keeps it within
    /// `Limits.expressionDepth`, so that walking the tree cannot exhaust the stack.
    public let depth: Int

    public init(_ kind: Kind, range: SourceRange) {
        self.kind = kind
        self.range = range
        switch kind {
        case .literal, .variable: depth = 1
        case .property(let base, _): depth = base.depth + 1
        case .unary(_, let operand): depth = operand.depth + 1
        case .index(let left, let right), .binary(_, let left, let right): depth = max(left.depth, right.depth) + 1
        case .list(let items): depth = (items.map(\.depth).max() ?? 0) + 1
        }
    }

    /// Every variable the expression reads, with where it is read.
    public var variableReferences: [(name: String, range: SourceRange)] {
        var references: [(String, SourceRange)] = []
        collectVariables(into: &references)
        return references
    }

    /// Every `${secrets.NAME}` the expression reads: each NAME, with where (Docs/Runs.md, "Secrets").
    public var secretReferences: [(name: String, range: SourceRange)] {
        var references: [(String, SourceRange)] = []
        collectSecrets(into: &references)
        return references
    }

    private func collectSecrets(into references: inout [(String, SourceRange)]) {
        switch kind {
        case .literal, .variable: break
        case .property(let base, let name):
            if case .variable("secrets") = base.kind { references.append((name, range)) } else { base.collectSecrets(into: &references) }
        case .index(let base, let index):
            base.collectSecrets(into: &references)
            index.collectSecrets(into: &references)
        case .unary(_, let operand): operand.collectSecrets(into: &references)
        case .binary(_, let left, let right):
            left.collectSecrets(into: &references)
            right.collectSecrets(into: &references)
        case .list(let items):
            for item in items { item.collectSecrets(into: &references) }
        }
    }

    private func collectVariables(into references: inout [(String, SourceRange)]) {
        switch kind {
        case .literal: break
        case .variable(let name): references.append((name, range))
        case .property(let base, _): base.collectVariables(into: &references)
        case .index(let base, let index):
            base.collectVariables(into: &references)
            index.collectVariables(into: &references)
        case .unary(_, let operand): operand.collectVariables(into: &references)
        case .binary(_, let left, let right):
            left.collectVariables(into: &references)
            right.collectVariables(into: &references)
        case .list(let items):
            for item in items { item.collectVariables(into: &references) }
        }
    }
}

public enum UnaryOperator: String, Sendable {
    case negate = "-"
    case not
}

public enum BinaryOperator: String, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case and, or, contains, matches
    /// `item in list`: `list contains item`, written the other way round.
    case isIn = "in"
}
