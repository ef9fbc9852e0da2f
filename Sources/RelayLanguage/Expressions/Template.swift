import RelayKit

/// A value written in a workflow, which may read variables: a literal, exactly one `${…}`
/// (which keeps the value's type), text with `${…}` inside (interpolated into text), or a
/// list or mapping of templates.
public struct Template: Sendable {
    public indirect enum Kind: Sendable {
        case literal(Value)
        case expression(ValueExpression)
        case interpolation([InterpolationPart])
        case list([Template])
        case dictionary([TemplateEntry])
    }

    public var kind: Kind
    public var range: SourceRange
    /// For a literal mapping, where each key was written, so that checks can point at one.
    public var keyRanges: [String: SourceRange] = [:]
    /// For a literal list, where each item was written.
    public var itemRanges: [SourceRange] = []

    public init(_ kind: Kind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }

    /// The value, if the template reads no variables.
    public var literalValue: Value? {
        if case .literal(let value) = kind { return value }
        return nil
    }

    /// Every variable the template reads, with where.
    public var variableReferences: [(name: String, range: SourceRange)] { expressions.flatMap(\.variableReferences) }

    /// Every `${secrets.NAME}` the template reads: each NAME, with where.
    public var secretReferences: [(name: String, range: SourceRange)] { expressions.flatMap(\.secretReferences) }
    /// Where it reads `secrets` whole or by an index (`${secrets}`, `${secrets['NAME']}`).
    public var wholeSecretsReads: [SourceRange] { expressions.flatMap(\.wholeSecretsReads) }

    /// The `${…}` expressions written in the template, in order.
    var expressions: [ValueExpression] {
        switch kind {
        case .literal: []
        case .expression(let expression): [expression]
        case .interpolation(let parts):
            parts.compactMap { part in
                if case .expression(let expression) = part { return expression }
                return nil
            }
        case .list(let items): items.flatMap(\.expressions)
        case .dictionary(let entries): entries.flatMap(\.value.expressions)
        }
    }
}

/// One key and value of a mapping template.
public struct TemplateEntry: Sendable {
    public var key: String
    public var keyRange: SourceRange
    public var value: Template
}

/// A piece of interpolated text.
public enum InterpolationPart: Sendable {
    case text(String)
    case expression(ValueExpression)
}
