import RelayKit

/// Turns YAML nodes into templates: resolves scalars, finds `${…}` and parses the expressions.
public enum TemplateParser {
    /// The template for `node`. Mapping keys must be scalars and unique.
    public static func template(from node: YAMLNode) throws(Diagnostic) -> Template {
        switch node.kind {
        case .scalar(let text, _):
            switch ScalarResolver.resolve(node) {
            case .null: return Template(.literal(.nothing), range: node.range)
            case .boolean(let flag): return Template(.literal(.boolean(flag)), range: node.range)
            case .number(let number): return Template(.literal(.number(number)), range: node.range)
            case .text: return try interpolated(text, in: node)
            }
        case .sequence(let items):
            var templates: [Template] = []
            templates.reserveCapacity(items.count)
            for item in items { templates.append(try template(from: item)) }
            if let values = allLiteral(templates) {
                var template = Template(.literal(.list(values)), range: node.range)
                template.itemRanges = templates.map(\.range)
                return template
            }
            return Template(.list(templates), range: node.range)
        case .mapping(let pairs):
            var entries: [TemplateEntry] = []
            var seen = Set<String>()
            for pair in pairs {
                let key = try scalarKey(pair.key)
                guard seen.insert(key).inserted else {
                    throw Diagnostic.error("duplicate key '\(key)'", at: pair.key.range)
                }
                entries.append(TemplateEntry(key: key, keyRange: pair.key.range, value: try template(from: pair.value)))
            }
            if let values = allLiteral(entries.map(\.value)) {
                var dictionary = ValueDictionary(minimumCapacity: values.count)
                var keyRanges: [String: SourceRange] = [:]
                for (entry, value) in zip(entries, values) {
                    dictionary[entry.key] = value
                    keyRanges[entry.key] = entry.keyRange
                }
                var template = Template(.literal(.dictionary(dictionary)), range: node.range)
                template.keyRanges = keyRanges
                return template
            }
            return Template(.dictionary(entries), range: node.range)
        }
    }

    /// The text of a mapping key, which must be a scalar.
    public static func scalarKey(_ node: YAMLNode) throws(Diagnostic) -> String {
        guard let text = node.scalarText else {
            throw Diagnostic.error("a mapping key must be a name, not \(node.shapeDescription)", at: node.range)
        }
        return text
    }

    private static func allLiteral(_ templates: [Template]) -> [Value]? {
        var values: [Value] = []
        values.reserveCapacity(templates.count)
        for template in templates {
            guard let value = template.literalValue else { return nil }
            values.append(value)
        }
        return values
    }

    /// Splits text into literal pieces and `${…}` expressions; `$${` is a literal `${`.
    static func interpolated(_ text: String, in node: YAMLNode) throws(Diagnostic) -> Template {
        guard text.contains("${") else { return Template(.literal(.text(text)), range: node.range) }
        let locator = ScalarLocator(node: node)
        let characters = Array(text)
        var parts: [InterpolationPart] = []
        var literal = ""
        var index = 0
        while index < characters.count {
            if characters[index] == "$", index + 2 < characters.count, characters[index + 1] == "$",
                characters[index + 2] == "{"
            {
                literal += "${"
                index += 3
                continue
            }
            guard characters[index] == "$", index + 1 < characters.count, characters[index + 1] == "{" else {
                literal.append(characters[index])
                index += 1
                continue
            }
            let open = index
            guard let close = closingBrace(in: characters, from: index + 2) else {
                throw Diagnostic.error(
                    "unterminated '${' in \(node.range.start.line == node.range.end.line ? "'\(text)'" : "text")",
                    at: locator.range(offset: open, length: 2),
                    notes: ["help: close it with '}', or write '$${' for a literal '${'"])
            }
            let source = String(characters[(open + 2)..<close])
            let expression = try ExpressionParser.parse(source) { offset, length in
                locator.range(offset: open + 2 + offset, length: length)
            }
            if !literal.isEmpty {
                parts.append(.text(literal))
                literal = ""
            }
            parts.append(.expression(expression))
            index = close + 1
        }
        if !literal.isEmpty { parts.append(.text(literal)) }
        if parts.count == 1, case .expression(let expression) = parts[0] {
            return Template(.expression(expression), range: node.range)
        }
        if parts.allSatisfy({ if case .text = $0 { true } else { false } }) {
            return Template(.literal(.text(parts.map { if case .text(let t) = $0 { t } else { "" } }.joined())), range: node.range)
        }
        return Template(.interpolation(parts), range: node.range)
    }

    /// The index of the `}` closing an expression that starts at `start`, skipping quoted text.
    private static func closingBrace(in characters: [Character], from start: Int) -> Int? {
        var quote: Character?
        var index = start
        while index < characters.count {
            let character = characters[index]
            if let open = quote {
                if character == "\\" { index += 1 } else if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "}" {
                return index
            }
            index += 1
        }
        return nil
    }
}

/// Maps a character offset in a scalar's value to its place in the file. Exact for a scalar
/// on one line whose source spells the value verbatim (plain, or quoted without escapes);
/// otherwise the scalar's start.
struct ScalarLocator {
    let node: YAMLNode
    /// Where the value's first character is in the file, when offsets map exactly; worked out
    /// once, since a scalar's length is counted in time that grows with it.
    private let first: SourcePosition?

    init(node: YAMLNode) {
        self.node = node
        guard case .scalar(let text, let style) = node.kind, node.range.start.line == node.range.end.line else {
            first = nil
            return
        }
        let quote = (style == .singleQuoted || style == .doubleQuoted) ? 1 : 0
        let sourceWidth = node.range.end.column - node.range.start.column
        guard style == .plain || quote == 1, sourceWidth == text.count + 2 * quote else {
            first = nil
            return
        }
        first = SourcePosition(line: node.range.start.line, column: node.range.start.column + quote)
    }

    func range(offset: Int, length: Int) -> SourceRange {
        guard let first else { return node.range }
        let start = SourcePosition(line: first.line, column: first.column + offset)
        return SourceRange(file: node.range.file, start: start, length: max(1, length))
    }
}
