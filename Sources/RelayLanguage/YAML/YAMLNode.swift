/// How a scalar was written: quoting decides whether `5` is a number or text.
public enum ScalarStyle: Sendable {
    case plain
    case singleQuoted
    case doubleQuoted
    case literal
    case folded

    /// Whether the scalar was quoted or a block scalar, and so is always text.
    public var isQuotedOrBlock: Bool { self != .plain }
}

/// A YAML node with its place in the file. Scalars keep their raw text and style;
/// type resolution is done apart (`ScalarResolver`).
public struct YAMLNode: Sendable {
    public enum Kind: Sendable {
        case scalar(String, ScalarStyle)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    public var kind: Kind
    public var tag: String?
    public var range: SourceRange

    /// The scalar's text, if this is a scalar.
    public var scalarText: String? {
        if case .scalar(let text, _) = kind { return text }
        return nil
    }

    /// Whether this is a plain empty scalar or `null` / `~`: YAML's null.
    public var isNull: Bool {
        if case .scalar = kind, case .null = ScalarResolver.resolve(self) { return true }
        return false
    }

    /// Whether this is a mapping.
    public var isMapping: Bool {
        if case .mapping = kind { return true }
        return false
    }

    /// A word for the node's shape, for messages: `a mapping`, `a list`, `a scalar`.
    public var shapeDescription: String {
        switch kind {
        case .scalar: "a scalar"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}

/// One key and value of a mapping.
public struct YAMLPair: Sendable {
    public var key: YAMLNode
    public var value: YAMLNode
}
