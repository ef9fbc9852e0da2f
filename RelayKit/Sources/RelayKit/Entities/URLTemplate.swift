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
        case placeholder(String, URLPosition)
    }

    public let template: String
    private let parts: [Part]

    /// Parses `template`; placeholders are `{name}` with `name` a property name or `id`.
    public init(_ template: String) throws(Problem) {
        var parts: [Part] = []
        var literal = ""
        var position = URLPosition.path
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
            position = position.after(character)
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
                text += position.encode(found.textValue)
            }
        }
        guard let url = URL(string: text), url.scheme != nil else {
            throw Problem(message: "the URL template '\(template)' made '\(text)', which is not a URL")
        }
        return url
    }
}

/// Where a character of a URL's text stands — host, path, query or fragment — which decides what
/// a value placed there must have percent-encoded so that it cannot change the URL's shape: a `/`
/// in a path value, a `&` or `#` in a query value. Used by URL templates and by `${…}` in URL text.
public enum URLPosition: Hashable, Sendable {
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

    /// The position after `character`, written where this one stands.
    func after(_ character: Character) -> URLPosition {
        switch character {
        case "/" where self == .host: .path
        case "?" where self == .host || self == .path: .query
        case "#" where self != .fragment: .fragment
        default: self
        }
    }

    /// `value` percent-encoded for this position.
    public func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

/// URL text written from literal parts and values (`https://api.example.com/search?q=${term}`):
/// each value is percent-encoded for where it stands (`URLPosition`). Values before the text has
/// a `://` go in as they are: they give the scheme and host (`${base}/trails`). In a `file://` URL
/// a value in the path keeps its `/`s: it is a file's path.
public struct URLText: Sendable {
    public private(set) var text = ""
    /// Nil until a `://` is written.
    private var position: URLPosition?

    public init() {}

    public mutating func appendLiteral(_ literal: String) {
        for character in literal { append(character) }
    }

    public mutating func appendValue(_ value: String) {
        guard let position else {
            appendLiteral(value)
            return
        }
        // A file URL's path is a file's path: its `/`s are the path's own (`file://${f.path}`).
        if isFileURL, position == .path {
            text += value.addingPercentEncoding(withAllowedCharacters: position.allowed.union(CharacterSet(charactersIn: "/"))) ?? ""
            return
        }
        text += position.encode(value)
    }

    /// Whether the text is a `file://` URL, whose host is empty and whose path follows at once.
    private var isFileURL = false

    private mutating func append(_ character: Character) {
        text.append(character)
        if let current = position {
            position = current.after(character)
        } else if text.hasSuffix("://") {
            isFileURL = text.lowercased() == "file://"
            position = isFileURL ? .path : .host
        }
    }
}
