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
        var references: [(name: String, range: SourceRange)] = []
        visit { expression in
            if case .variable(let name) = expression.kind { references.append((name, expression.range)) }
            return true
        }
        return references
    }

    /// Every `${secrets.NAME}` the expression reads: each NAME, with where (Docs/Runs.md, "Secrets").
    public var secretReferences: [(name: String, range: SourceRange)] {
        var references: [(name: String, range: SourceRange)] = []
        visit { expression in
            guard case .property(let base, let name) = expression.kind, case .variable("secrets") = base.kind else { return true }
            references.append((name, expression.range))
            return false
        }
        return references
    }

    /// Where the expression reads `secrets` other than as `${secrets.NAME}` — whole, or by an
    /// index — which would read every secret at once.
    public var wholeSecretsReads: [SourceRange] {
        var ranges: [SourceRange] = []
        visit { expression in
            if case .property(let base, _) = expression.kind, case .variable("secrets") = base.kind { return false }
            if case .variable("secrets") = expression.kind { ranges.append(expression.range) }
            return true
        }
        return ranges
    }

    /// Every property read, `${base.name}`, outermost first, with where it is written (the
    /// checker types them: Docs/Language.md, "Variables and expressions").
    var propertyReads: [(base: ValueExpression, name: String, range: SourceRange)] {
        var reads: [(base: ValueExpression, name: String, range: SourceRange)] = []
        visit { expression in
            if case .property(let base, let name) = expression.kind { reads.append((base, name, expression.range)) }
            return true
        }
        return reads
    }

    /// Walks the tree, each node before the nodes inside it; `body` says whether to look inside.
    private func visit(_ body: (ValueExpression) -> Bool) {
        guard body(self) else { return }
        switch kind {
        case .literal, .variable: break
        case .property(let base, _): base.visit(body)
        case .index(let base, let index):
            base.visit(body)
            index.visit(body)
        case .unary(_, let operand): operand.visit(body)
        case .binary(_, let left, let right):
            left.visit(body)
            right.visit(body)
        case .list(let items):
            for item in items { item.visit(body) }
        }
    }
}

public enum UnaryOperator: String, Sendable {
    case negate = "-"
    case not
}

public enum BinaryOperator: String, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
    /// `==` and `!=` compare texts ignoring case; `===` and `!==` exactly (Docs/Language.md, "Comparing texts").
    case equal = "==", notEqual = "!=", exactlyEqual = "===", notExactlyEqual = "!==", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case and, or, contains, matches
    /// `item in list`: `list contains item`, written the other way round.
    case isIn = "in"
}
