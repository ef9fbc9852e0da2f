import CCMarkGFM
import Foundation
import RelayKit

/// Reads Markdown (CommonMark with GitHub's tables, strikethrough, task lists and autolinks)
/// into rich text, through cmark-gfm's syntax tree.
package enum MarkdownReader {
    /// cmark-gfm's extensions must be registered once per process before use.
    private static let extensionsRegistered: Bool = {
        cmark_gfm_core_extensions_ensure_registered()
        return true
    }()

    package static func richText(from markdown: String) throws -> RichText {
        try LazyLibraries.openMarkdown()
        guard extensionsRegistered, let parser = cmark_parser_new(CMARK_OPT_DEFAULT) else {
            throw IntentError("cannot start the Markdown parser")
        }
        defer { cmark_parser_free(parser) }
        for name in ["table", "strikethrough", "tasklist", "autolink"] {
            if let syntax = cmark_find_syntax_extension(name) { cmark_parser_attach_syntax_extension(parser, syntax) }
        }
        var markdown = markdown
        markdown.withUTF8 { buffer in
            buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: buffer.count) { cmark_parser_feed(parser, $0, buffer.count) }
        }
        guard let document = cmark_parser_finish(parser) else { throw IntentError("cannot parse the Markdown") }
        defer { cmark_node_free(document) }
        return RichText(blocks: RichText.pruned(try blocks(under: document, depth: 0)))
    }

    /// One level deeper than `depth`, or an error past `Limits.documentDepth`: quotes, lists and
    /// emphasis nested without end must not exhaust the stack of whatever reads the rich text.
    private static func deeper(_ depth: Int) throws -> Int {
        guard depth < Limits.documentDepth else {
            throw IntentError("the Markdown nests quotes, lists or emphasis more than \(Limits.documentDepth) levels deep")
        }
        return depth + 1
    }

    /// The children of a node, first to last, read as they are walked (no list made a node).
    private struct Children: Sequence, IteratorProtocol {
        private var upcoming: OpaquePointer?

        init(of node: OpaquePointer) { upcoming = cmark_node_first_child(node) }

        mutating func next() -> OpaquePointer? {
            guard let current = upcoming else { return nil }
            upcoming = cmark_node_next(current)
            return current
        }
    }

    private static func typeName(_ node: OpaquePointer) -> String {
        cmark_node_get_type_string(node).map { String(cString: $0) } ?? ""
    }

    private static func url(_ node: OpaquePointer) -> String {
        cmark_node_get_url(node).map { String(cString: $0) } ?? ""
    }

    /// A link's or image's title; nil when it has none.
    private static func title(_ node: OpaquePointer) -> String? {
        guard let title = cmark_node_get_title(node).map({ String(cString: $0) }), !title.isEmpty else { return nil }
        return title
    }

    private static func literal(_ node: OpaquePointer) -> String {
        cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
    }

    private static func blocks(under node: OpaquePointer, depth: Int) throws -> [RichText.Block] {
        let depth = try deeper(depth)
        return try Children(of: node).compactMap { try block($0, depth: depth) }
    }

    /// A block: cmark's own kinds told by number, an extension's (a table) by name.
    private static func block(_ node: OpaquePointer, depth: Int) throws -> RichText.Block? {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_HEADING: return .heading(level: Int(cmark_node_get_heading_level(node)), try inlines(under: node, depth: depth))
        case CMARK_NODE_PARAGRAPH: return .paragraph(try inlines(under: node, depth: depth))
        case CMARK_NODE_BLOCK_QUOTE: return .quote(try blocks(under: node, depth: depth))
        case CMARK_NODE_CODE_BLOCK:
            // The language is the first word of the info string (``` ruby startline=3).
            let info = cmark_node_get_fence_info(node).map { String(cString: $0) } ?? ""
            let language = info.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
            return .code(language: language, text: literal(node))
        case CMARK_NODE_THEMATIC_BREAK: return .rule
        case CMARK_NODE_HTML_BLOCK: return .html(literal(node))
        case CMARK_NODE_LIST:
            let items = try Children(of: node).map { item in
                let checked: Bool? = typeName(item) == "tasklist" ? cmark_gfm_extensions_get_tasklist_item_checked(item) : nil
                return RichText.ListItem(checked: checked, blocks: try blocks(under: item, depth: depth))
            }
            let ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST
            // cmark reports 0 as the start of a bullet list; a start means nothing there.
            return .list(
                ordered: ordered, start: ordered ? Int(cmark_node_get_list_start(node)) : 1, items: items,
                tight: cmark_node_get_list_tight(node) != 0)
        default:
            guard typeName(node) == "table" else { return nil }
            let columns = Int(cmark_gfm_extensions_get_table_columns(node))
            let alignmentCodes = cmark_gfm_extensions_get_table_alignments(node)
            let alignments: [RichText.Table.Alignment] = (0..<columns).map { index in
                switch alignmentCodes?[index] {
                case UInt8(ascii: "l"): .left
                case UInt8(ascii: "c"): .center
                case UInt8(ascii: "r"): .right
                default: .none
                }
            }
            let rows = try Children(of: node).map { row in try Children(of: row).map { try inlines(under: $0, depth: depth) } }
            return .table(RichText.Table(alignments: alignments, rows: rows))
        }
    }

    /// The inline runs under `node`, adjacent plain texts merged (cmark splits them at escapes).
    private static func inlines(under node: OpaquePointer, depth: Int) throws -> [RichText.Inline] {
        let depth = try deeper(depth)
        var result: [RichText.Inline] = []
        for child in Children(of: node) {
            guard let run = try inline(child, depth: depth) else { continue }
            if case .text(let next) = run, case .text(let previous)? = result.last {
                result[result.count - 1] = .text(previous + next)
            } else {
                result.append(run)
            }
        }
        return result
    }

    /// An inline run: cmark's own kinds told by number, an extension's (strikethrough) by name.
    private static func inline(_ node: OpaquePointer, depth: Int) throws -> RichText.Inline? {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_TEXT: return .text(literal(node))
        case CMARK_NODE_SOFTBREAK: return .softBreak
        case CMARK_NODE_LINEBREAK: return .lineBreak
        case CMARK_NODE_CODE: return .code(literal(node))
        case CMARK_NODE_EMPH: return .italic(try inlines(under: node, depth: depth))
        case CMARK_NODE_STRONG: return .bold(try inlines(under: node, depth: depth))
        case CMARK_NODE_LINK: return .link(url: url(node), title: title(node), try inlines(under: node, depth: depth))
        case CMARK_NODE_IMAGE: return .image(source: url(node), title: title(node), alt: try inlines(under: node, depth: depth))
        case CMARK_NODE_HTML_INLINE: return .html(literal(node))
        default: return typeName(node) == "strikethrough" ? .strikethrough(try inlines(under: node, depth: depth)) : nil
        }
    }
}
