import Foundation
import RelayKit

/// Writes rich text as Markdown (CommonMark with GitHub's tables, strikethrough and task lists).
public enum MarkdownWriter {
    public static func markdown(for richText: RichText) -> String {
        richText.blocks.map { markdown(for: $0) }.joined(separator: "\n")
    }

    static func markdown(for block: RichText.Block, indent: String = "") -> String {
        switch block {
        case .heading(let level, let inlines):
            return String(repeating: "#", count: min(max(level, 1), 6)) + " " + markdown(for: inlines) + "\n"
        case .paragraph(let inlines):
            return indent + markdown(for: inlines).replacingOccurrences(of: "\n", with: "\n" + indent) + "\n"
        case .quote(let blocks):
            let inner = blocks.map { markdown(for: $0) }.joined(separator: "\n")
            return inner.splitAtLineFeeds().dropLast().map { "> " + $0 }.joined(separator: "\n") + "\n"
        case .code(let language, let text):
            let fence = text.contains("```") ? "~~~" : "```"
            return "\(fence)\(language ?? "")\n\(text)\(text.endsInLineFeed ? "" : "\n")\(fence)\n"
        case .rule: return "---\n"
        case .html(let text): return text.hasSuffix("\n") ? text : text + "\n"
        case .list(let ordered, let start, let items, let tight):
            // A loose list's items are apart, by a blank line.
            return items.enumerated().map { index, item -> String in
                let marker = ordered ? "\(RichText.itemNumber(start: start, index: index)). " : "- "
                let box = item.checked.map { $0 ? "[x] " : "[ ] " } ?? ""
                let continuation = String(repeating: " ", count: marker.count)
                // A tight item's blocks follow each other without a blank line, which would make
                // the list loose; two paragraphs need one, or they would be one.
                var body = ""
                for (position, block) in item.blocks.enumerated() {
                    if position > 0 {
                        if !tight || block.isParagraph && item.blocks[position - 1].isParagraph { body += "\n" }
                    }
                    body += markdown(for: block)
                }
                let lines = body.splitAtLineFeeds().dropLast()
                return lines.enumerated().map { line, text in
                    line == 0 ? marker + box + text : (text.isEmpty ? "" : continuation + text)
                }.joined(separator: "\n") + "\n"
            }.joined(separator: tight ? "" : "\n")
        case .table(let table):
            guard let header = table.rows.first else { return "" }
            let cells = { (row: [[RichText.Inline]]) in
                "| " + row.map { markdown(for: $0).replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |"
            }
            let divider = "|" + (0..<header.count).map { column -> String in
                switch column < table.alignments.count ? table.alignments[column] : .none {
                case .left: ":---|"
                case .center: ":---:|"
                case .right: "---:|"
                case .none: "---|"
                }
            }.joined()
            return ([cells(header), divider] + table.rows.dropFirst().map(cells)).joined(separator: "\n") + "\n"
        }
    }

    static func markdown(for inlines: [RichText.Inline]) -> String {
        inlines.map { inline -> String in
            switch inline {
            case .text(let text): escape(text)
            case .italic(let inner): "*\(markdown(for: inner))*"
            case .bold(let inner): "**\(markdown(for: inner))**"
            case .strikethrough(let inner): "~~\(markdown(for: inner))~~"
            case .code(let code): code.contains("`") ? "`` \(code) ``" : "`\(code)`"
            case .link(let url, let title, let inner): "[\(markdown(for: inner))](\(destination(url, title)))"
            case .image(let source, let title, let alt): "![\(markdown(for: alt))](\(destination(source, title)))"
            case .lineBreak: "\\\n"
            case .softBreak: "\n"
            case .html(let text): text
            }
        }.joined()
    }

    /// A destination and its title as Markdown writes them: in `<…>` when it has spaces or
    /// parentheses, the title in quotes with its quotes escaped.
    static func destination(_ url: String, _ title: String?) -> String {
        let written = url.contains(where: { " ()<>".contains($0) }) || url.isEmpty
            ? "<" + url.replacingOccurrences(of: "<", with: "\\<").replacingOccurrences(of: ">", with: "\\>") + ">" : url
        guard let title else { return written }
        return written + " \"" + title.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// Backslash-escapes the characters that would otherwise start Markdown syntax.
    static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\`*_[]<>~|".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
