/// Writes rich text as an HTML fragment (or a whole document).
public enum HTMLWriter {
    /// The HTML for `richText`; with `document`, wrapped in `<!DOCTYPE html>…<body>`.
    public static func html(for richText: RichText, document: Bool = false, title: String = "") -> String {
        let body = joined(richText.blocks)
        guard document else { return body }
        return "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>\(escape(title))</title>\n</head>\n<body>\n\(body)</body>\n</html>\n"
    }

    /// HTML as CommonMark's reference renderer writes it, so that Markdown keeps what it says:
    /// a tight list's paragraphs without `<p>`, raw HTML as written, images with their alt text
    /// and titles, link titles, destinations percent-encoded.
    static func html(for block: RichText.Block, tight: Bool = false) -> String {
        switch block {
        case .heading(let level, let inlines):
            let tag = "h\(min(max(level, 1), 6))"
            return "<\(tag)>\(html(for: inlines))</\(tag)>\n"
        case .paragraph(let inlines): return tight ? html(for: inlines) : "<p>\(html(for: inlines))</p>\n"
        case .quote(let blocks): return "<blockquote>\n\(joined(blocks))</blockquote>\n"
        case .code(let language, let text):
            let attribute = language.map { " class=\"language-\(escape($0))\"" } ?? ""
            return "<pre><code\(attribute)>\(escape(text))</code></pre>\n"
        case .rule: return "<hr />\n"
        case .html(let text): return text.hasSuffix("\n") ? text : text + "\n"
        case .list(let ordered, let listStart, let items, let isTight):
            let start = RichText.itemNumber(start: listStart, index: 0)
            let open = ordered ? (start == 1 ? "<ol>" : "<ol start=\"\(start)\">") : "<ul>"
            let body = items.map { item -> String in
                let box = item.checked.map { "<input type=\"checkbox\" disabled=\"\"\($0 ? " checked=\"\"" : "") /> " } ?? ""
                var content = ""
                for (index, block) in item.blocks.enumerated() {
                    let written = html(for: block, tight: isTight)
                    // A block starts on a line of its own, except a tight item's first paragraph.
                    if !(index == 0 && isTight && block.isParagraph), !content.hasSuffix("\n") {
                        content += "\n"
                    }
                    content += written
                }
                return "<li>\(box)\(content)</li>\n"
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

    private static func joined(_ blocks: [RichText.Block]) -> String {
        blocks.map { html(for: $0) }.joined()
    }

    static func html(for inlines: [RichText.Inline]) -> String {
        inlines.map { inline -> String in
            switch inline {
            case .text(let text): escape(text)
            case .italic(let inner): "<em>\(html(for: inner))</em>"
            case .bold(let inner): "<strong>\(html(for: inner))</strong>"
            case .strikethrough(let inner): "<del>\(html(for: inner))</del>"
            case .code(let code): "<code>\(escape(code))</code>"
            case .link(let url, let title, let inner):
                "<a href=\"\(escapeDestination(url))\"\(title.map { " title=\"\(escape($0))\"" } ?? "")>\(html(for: inner))</a>"
            case .image(let source, let title, let alt):
                "<img src=\"\(escapeDestination(source))\" alt=\"\(escape(altText(alt)))\"\(title.map { " title=\"\(escape($0))\"" } ?? "") />"
            case .lineBreak: "<br />\n"
            case .softBreak: "\n"
            case .html(let text): text
            }
        }.joined()
    }

    /// An image's description as the `alt` attribute holds it: its text, raw HTML as text, breaks as spaces.
    private static func altText(_ inlines: [RichText.Inline]) -> String {
        inlines.map { inline -> String in
            switch inline {
            case .text(let text), .code(let text), .html(let text): text
            case .italic(let inner), .bold(let inner), .strikethrough(let inner), .link(_, _, let inner): altText(inner)
            case .image(_, _, let alt): altText(alt)
            case .lineBreak, .softBreak: " "
            }
        }.joined()
    }

    /// A link's or image's destination in an attribute: characters a URL may hold as they are,
    /// `&` as `&amp;`, `'` as `&#x27;`, and every other byte percent-encoded (a `%` already there
    /// is kept, so an encoded destination is not encoded twice).
    static func escapeDestination(_ url: String) -> String {
        var result = ""
        result.reserveCapacity(url.utf8.count)
        for byte in url.utf8 {
            switch byte {
            case UInt8(ascii: "&"): result += "&amp;"
            case UInt8(ascii: "'"): result += "&#x27;"
            case _ where destinationSafe.contains(byte): result.unicodeScalars.append(Unicode.Scalar(byte))
            default: result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    /// Bytes a destination keeps as they are: letters, digits and `-_.+!*(),%#@?=;:/$~`.
    private static let destinationSafe: Set<UInt8> = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.+!*(),%#@?=;:/$~".utf8))

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

extension String {
    /// The string with `0`s before it up to `length` characters (hex digits of a byte).
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
