internal import CLibYAML

/// Parses YAML text into one `YAMLNode` tree with libyaml, keeping every node's place.
/// Anchors and aliases are resolved; errors carry the line and column libyaml reports.
public enum YAMLParser {
    /// The most nodes a document may expand to through aliases (guards against "billion laughs").
    static let maximumNodeCount = 2_000_000
    /// The deepest nesting accepted.
    static let maximumDepth = 500

    /// Parses the single document in `file`. Throws a `Diagnostic` for malformed YAML,
    /// an empty file, or more than one document.
    public static func parse(_ file: SourceFile) throws(Diagnostic) -> YAMLNode {
        var builder = TreeBuilder(file: file)
        let bytes = Array(file.text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer throws(Diagnostic) -> YAMLNode in
            try builder.build(buffer)
        }
    }
}

/// Turns libyaml's event stream into nodes.
private struct TreeBuilder {
    let file: SourceFile
    /// Where the last column was counted (places come in order; see `SourceFile.column`).
    private let columns = ColumnCounting()
    private var anchors: [String: YAMLNode] = [:]
    private var nodeCount = 0

    init(file: SourceFile) { self.file = file }

    /// A collection being read: its items so far (keys and values alternate in a mapping).
    private struct Frame {
        var isMapping: Bool
        var start: yaml_mark_t
        var tag: String?
        var anchor: String?
        var items: [YAMLNode] = []
    }

    mutating func build(_ buffer: UnsafeBufferPointer<UInt8>) throws(Diagnostic) -> YAMLNode {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw Diagnostic.error("could not start the YAML parser", at: nil)
        }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)

        var stack: [Frame] = []
        var root: YAMLNode?
        var documents = 0
        while true {
            var event = yaml_event_t()
            guard yaml_parser_parse(&parser, &event) == 1 else { throw parserError(parser) }
            defer { yaml_event_delete(&event) }
            var finished: YAMLNode?
            switch event.type {
            case YAML_STREAM_END_EVENT:
                guard let root else { throw Diagnostic.error("the file is empty: a workflow needs at least 'steps:'", at: range(event.start_mark, event.end_mark)) }
                return root
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    throw Diagnostic.error(
                        "a workflow file holds one YAML document; found a second", at: range(event.start_mark, event.end_mark))
                }
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                let node = YAMLNode(
                    kind: .scalar(text, style(scalar.style)), tag: string(scalar.tag),
                    range: range(event.start_mark, event.end_mark))
                try remember(node, anchor: string(scalar.anchor))
                finished = node
            case YAML_ALIAS_EVENT:
                let name = string(event.data.alias.anchor) ?? ""
                guard let target = anchors[name] else {
                    throw Diagnostic.error("unknown alias '*\(name)'", at: range(event.start_mark, event.end_mark))
                }
                nodeCount += size(of: target)
                try checkSize(event.start_mark)
                finished = target
            case YAML_SEQUENCE_START_EVENT:
                try checkDepth(stack.count, event.start_mark)
                let start = event.data.sequence_start
                stack.append(Frame(isMapping: false, start: event.start_mark, tag: string(start.tag), anchor: string(start.anchor)))
            case YAML_MAPPING_START_EVENT:
                try checkDepth(stack.count, event.start_mark)
                let start = event.data.mapping_start
                stack.append(Frame(isMapping: true, start: event.start_mark, tag: string(start.tag), anchor: string(start.anchor)))
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let frame = stack.popLast() else { break }
                finished = try close(frame, end: event.end_mark)
            default:
                break
            }
            if let node = finished {
                if stack.isEmpty {
                    root = node
                } else {
                    stack[stack.count - 1].items.append(node)
                }
            }
        }
    }

    private mutating func close(_ frame: Frame, end: yaml_mark_t) throws(Diagnostic) -> YAMLNode {
        let kind: YAMLNode.Kind
        if frame.isMapping {
            var pairs: [YAMLPair] = []
            pairs.reserveCapacity(frame.items.count / 2)
            var index = 0
            while index + 1 < frame.items.count {
                pairs.append(YAMLPair(key: frame.items[index], value: frame.items[index + 1]))
                index += 2
            }
            kind = .mapping(pairs)
        } else {
            kind = .sequence(frame.items)
        }
        let node = YAMLNode(kind: kind, tag: frame.tag, range: range(frame.start, end))
        try remember(node, anchor: frame.anchor)
        return node
    }

    private mutating func remember(_ node: YAMLNode, anchor: String?) throws(Diagnostic) {
        nodeCount += 1
        try checkSize(nil)
        if let anchor { anchors[anchor] = node }
    }

    private func checkSize(_ mark: yaml_mark_t?) throws(Diagnostic) {
        guard nodeCount > YAMLParser.maximumNodeCount else { return }
        throw Diagnostic.error(
            "the document expands to more than \(YAMLParser.maximumNodeCount) nodes (aliases nested too deeply?)",
            at: mark.map { range($0, $0) })
    }

    private func checkDepth(_ depth: Int, _ mark: yaml_mark_t) throws(Diagnostic) {
        guard depth >= YAMLParser.maximumDepth else { return }
        throw Diagnostic.error("the document is nested more than \(YAMLParser.maximumDepth) levels deep", at: range(mark, mark))
    }

    private func size(of node: YAMLNode) -> Int {
        switch node.kind {
        case .scalar: 1
        case .sequence(let items): items.reduce(1) { $0 + size(of: $1) }
        case .mapping(let pairs): pairs.reduce(1) { $0 + size(of: $1.key) + size(of: $1.value) }
        }
    }

    private func parserError(_ parser: yaml_parser_t) -> Diagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "malformed YAML"
        var message = "invalid YAML: \(problem)"
        // The reader's errors (a control character, bytes that are not UTF-8) give a byte offset.
        if parser.error == YAML_READER_ERROR {
            if parser.problem_value >= 0 { message += " (found U+\(String(UInt32(clamping: parser.problem_value), radix: 16, uppercase: true).leftPadded4))" }
            let place = file.position(utf8Offset: Int(clamping: parser.problem_offset))
            return Diagnostic.error(message, at: SourceRange(file: file, start: place, length: 1))
        }
        if let context = parser.context.map({ String(cString: $0) }) {
            message += " (\(context) at line \(parser.context_mark.line + 1), column \(parser.context_mark.column + 1))"
        }
        var notes: [String] = []
        let problemLine = Int(clamping: parser.problem_mark.line) + 1
        // libyaml counts columns in Unicode scalars.
        let problemScalar = file.line(problemLine).unicodeScalars.dropFirst(Int(clamping: parser.problem_mark.column)).first
        if problem.contains("tab") || problemScalar == "\t" {
            notes.append("help: indent with spaces; YAML does not allow tabs for indentation")
        } else if problem.contains("mapping values are not allowed") {
            let previous = file.line(problemLine - 1).trimmingCharacters(in: .whitespaces)
            if previous.hasPrefix("- "), !previous.contains(":"), !previous.dropFirst(2).contains(" ") {
                let name = previous.dropFirst(2)
                notes.append("help: to give '\(name)' modifiers or parameters, end it with a colon: '- \(name):'")
            } else {
                notes.append("help: a value containing ': ' must be quoted, e.g. \"a: b\"")
            }
        }
        // Where the problem shows only at the end of the file, the construct left open (a quote,
        // a bracket) is the better place to point.
        let atEnd = file.line(problemLine).allSatisfy(\.isWhitespace)
        let mark = (problem.contains("end of stream") || atEnd) && parser.context != nil ? parser.context_mark : parser.problem_mark
        return Diagnostic.error(message, at: range(mark, mark), notes: notes)
    }

    private func range(_ start: yaml_mark_t, _ end: yaml_mark_t) -> SourceRange {
        SourceRange(file: file, start: position(start), end: position(end))
    }

    /// `mark` as a place in the file. libyaml ends the text with a line break of its own, so a
    /// mark at the very end can be a line past the last: it is the end of the last line.
    private func position(_ mark: yaml_mark_t) -> SourcePosition {
        let line = Int(clamping: mark.line) + 1
        guard line <= file.lineCount else {
            return SourcePosition(line: file.lineCount, column: file.line(file.lineCount).count + 1)
        }
        return SourcePosition(line: line, column: file.column(line: line, scalars: Int(clamping: mark.column), cursor: &columns.cursor))
    }

    private func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    private func style(_ style: yaml_scalar_style_t) -> ScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }
}

private extension String {
    /// At least four digits, as U+ numbers are written.
    var leftPadded4: String { count >= 4 ? self : String(repeating: "0", count: 4 - count) + self }
}

private final class ColumnCounting {
    var cursor = SourceFile.ColumnCursor()
}
