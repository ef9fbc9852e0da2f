/// Writes rich text as an HTML fragment (or a whole document).
public enum HTMLWriter {
    /// The HTML for `richText`; with `document`, wrapped in `<!DOCTYPE html>…<body>`.
    public static func html(for richText: RichText, document: Bool = false, title: String = "") -> String {
        let body = richText.blocks.map(html(for:)).joined()
        guard document else { return body }
        return "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>\(escape(title))</title>\n</head>\n<body>\n\(body)</body>\n</html>\n"
    }

    static func html(for block: RichText.Block) -> String {
        switch block {
        case .heading(let level, let inlines):
            let tag = "h\(min(max(level, 1), 6))"
            return "<\(tag)>\(html(for: inlines))</\(tag)>\n"
        case .paragraph(let inlines): return "<p>\(html(for: inlines))</p>\n"
        case .quote(let blocks): return "<blockquote>\n\(blocks.map(html(for:)).joined())</blockquote>\n"
        case .code(let language, let text):
            let attribute = language.map { " class=\"language-\(escape($0))\"" } ?? ""
            return "<pre><code\(attribute)>\(escape(text))</code></pre>\n"
        case .rule: return "<hr />\n"
        case .list(let ordered, let listStart, let items):
            let start = RichText.itemNumber(start: listStart, index: 0)
            let open = ordered ? (start == 1 ? "<ol>" : "<ol start=\"\(start)\">") : "<ul>"
            let body = items.map { item -> String in
                let box = item.checked.map { "<input type=\"checkbox\" disabled=\"\"\($0 ? " checked=\"\"" : "") /> " } ?? ""
                // A single paragraph in an item is written without <p>, as tight lists are.
                if item.blocks.count == 1, case .paragraph(let inlines) = item.blocks[0] {
                    return "<li>\(box)\(html(for: inlines))</li>\n"
                }
                return "<li>\(box)\n\(item.blocks.map(html(for:)).joined())</li>\n"
            }.joined()
            return "\(open)\n\(body)\(ordered ? "</ol>" : "</ul>")\n"
        case .table(let table):
            var output = "<table>\n"
            for (rowIndex, row) in table.rows.enumerated() {
                let cell = rowIndex == 0 ? "th" : "td"
                if rowIndex == 0 { output += "<thead>\n" } else if rowIndex == 1 { output += "<tbody>\n" }
                output += "<tr>\n"
                for (column, content) in row.enumerated() {
                    let alignment = column < table.alignments.count ? table.alignments[column] : .none
                    let style = alignment == .none ? "" : " align=\"\(alignment)\""
                    output += "<\(cell)\(style)>\(html(for: content))</\(cell)>\n"
                }
                output += "</tr>\n"
                if rowIndex == 0 { output += "</thead>\n" }
            }
            if table.rows.count > 1 { output += "</tbody>\n" }
            return output + "</table>\n"
        }
    }

    static func html(for inlines: [RichText.Inline]) -> String {
        inlines.map { inline -> String in
            switch inline {
            case .text(let text): escape(text)
            case .italic(let inner): "<em>\(html(for: inner))</em>"
            case .bold(let inner): "<strong>\(html(for: inner))</strong>"
            case .strikethrough(let inner): "<del>\(html(for: inner))</del>"
            case .code(let code): "<code>\(escape(code))</code>"
            case .link(let url, let inner): "<a href=\"\(escape(url))\">\(html(for: inner))</a>"
            case .lineBreak: "<br />\n"
            case .softBreak: "\n"
            }
        }.joined()
    }

    /// `&`, `<`, `>` and `"` as entities (also right for pango markup and XML text).
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
