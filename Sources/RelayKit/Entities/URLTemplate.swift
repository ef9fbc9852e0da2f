import Foundation

/// A URL with placeholders, such as `https://trails.example.com/trail/{id}` (Docs/Language.md, "Opening URLs"). Each value
/// is percent-encoded for its position: a `/` in a path value, or a `&` in a query value, cannot
/// change the URL's shape.
public struct URLTemplate: Sendable, Hashable {
    /// A template that cannot be used, or a URL it cannot make.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    private enum Part: Hashable {
        case literal(String)
        case placeholder(String, Position)
    }

    /// Where a placeholder stands, which decides what must be encoded.
    private enum Position: Hashable {
        case host, path, query, fragment

        var allowed: CharacterSet {
            let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
            switch self {
            case .host: return unreserved.union(CharacterSet(charactersIn: "!$'()*,;"))
            case .path: return unreserved.union(CharacterSet(charactersIn: "!$'()*,;:@"))
            case .query: return unreserved.union(CharacterSet(charactersIn: "!$'()*,;:@/?"))
            case .fragment: return unreserved.union(CharacterSet(charactersIn: "!$&'()*+,;=:@/?"))
            }
        }
    }

    public let template: String
    private let parts: [Part]

    /// Parses `template`; placeholders are `{name}` with `name` a property name or `id`.
    public init(_ template: String) throws(Problem) {
        var parts: [Part] = []
        var literal = ""
        var position = Position.path
        let schemeEnd = template.range(of: "://")?.upperBound
        var index = template.startIndex
        if let schemeEnd {
            position = .host
            literal = String(template[..<schemeEnd])
            index = schemeEnd
        }
        while index < template.endIndex {
            let character = template[index]
            if character == "{" {
                guard let close = template[index...].firstIndex(of: "}") else {
                    throw Problem(message: "the URL template '\(template)' has a '{' without '}'")
                }
                let name = String(template[template.index(after: index)..<close])
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                    throw Problem(message: "'{\(name)}' in the URL template '\(template)' is not a placeholder name")
                }
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.placeholder(name, position))
                index = template.index(after: close)
                continue
            }
            if character == "}" { throw Problem(message: "the URL template '\(template)' has a '}' without '{'") }
            switch character {
            case "/" where position == .host: position = .path
            case "?" where position == .host || position == .path: position = .query
            case "#" where position != .fragment: position = .fragment
            default: break
            }
            literal.append(character)
            index = template.index(after: index)
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        self.template = template
        self.parts = parts
    }

    /// The placeholder names, in order.
    public var placeholders: [String] {
        parts.compactMap { if case .placeholder(let name, _) = $0 { name } else { nil } }
    }

    /// The URL with each placeholder replaced by `value(name)`, encoded for its position. A
    /// placeholder with no value (nil, nothing or empty text) is an error naming it.
    public func url(_ value: (String) throws -> Value?) throws -> URL {
        var text = ""
        for part in parts {
            switch part {
            case .literal(let literal): text += literal
            case .placeholder(let name, let position):
                guard let found = try value(name), !found.isNothing, !found.textValue.isEmpty else {
                    throw Problem(message: "the URL template '\(template)' needs '\(name)', which has no value")
                }
                text += found.textValue.addingPercentEncoding(withAllowedCharacters: position.allowed) ?? ""
            }
        }
        guard let url = URL(string: text), url.scheme != nil else {
            throw Problem(message: "the URL template '\(template)' made '\(text)', which is not a URL")
        }
        return url
    }
}
