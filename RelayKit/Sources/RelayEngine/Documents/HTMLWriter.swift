import RelayKit
/// Writes rich text as an HTML fragment (or a whole document).
///
/// HTML as CommonMark's reference renderer writes it, so that Markdown keeps what it says: a tight
/// list's paragraphs without `<p>`, raw HTML as written, images with their alt text and titles,
/// link titles, destinations percent-encoded. Written into one buffer of UTF-8 bytes: a document's
/// text is copied once, not once for each level of blocks and inlines around it.
public enum HTMLWriter {
    /// The HTML for `richText`; with `document`, wrapped in `<!DOCTYPE html>…<body>`.
    public static func html(for richText: RichText, document: Bool = false, title: String = "") -> String {
        var output = HTMLOutput()
        if document {
            output.append("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>")
            output.escaped(title)
            output.append("</title>\n</head>\n<body>\n")
        }
        for block in richText.blocks { output.write(block) }
        if document { output.append("</body>\n</html>\n") }
        return output.text
    }

    /// `&`, `<`, `>` and `"` as entities (also right for pango markup and XML text), wherever they
    /// stand: a combining mark after one does not hide it.
    public static func escape(_ text: String) -> String {
        var output = HTMLOutput()
        output.escaped(text)
        return output.text
    }

    /// A link's or image's destination in an attribute: characters a URL may hold as they are,
    /// `&` as `&amp;`, `'` as `&#x27;`, and every other byte percent-encoded (a `%` already there
    /// is kept, so an encoded destination is not encoded twice).
    static func escapeDestination(_ url: String) -> String {
        var output = HTMLOutput()
        output.destination(url)
        return output.text
    }
}

/// HTML being written: UTF-8 bytes in one buffer. Every text written is valid UTF-8 and only
/// ASCII is added around it, so the bytes are valid UTF-8 too.
private struct HTMLOutput {
    private var bytes: [UInt8] = []

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// `text` with `&`, `<`, `>` and `"` as entities; the runs between them copied whole.
    mutating func escaped(_ text: String) {
        var text = text
        text.withUTF8 { source in
            var run = 0
            for index in source.indices {
                let entity: StaticString
                switch source[index] {
                case UInt8(ascii: "&"): entity = "&amp;"
                case UInt8(ascii: "<"): entity = "&lt;"
                case UInt8(ascii: ">"): entity = "&gt;"
                case UInt8(ascii: "\""): entity = "&quot;"
                default: continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[run..<index]))
                bytes.append(contentsOf: UnsafeBufferPointer(start: entity.utf8Start, count: entity.utf8CodeUnitCount))
                run = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[run...]))
        }
    }

    /// A destination as `HTMLWriter.escapeDestination` describes it.
    mutating func destination(_ url: String) {
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in url.utf8 {
            switch byte {
            case UInt8(ascii: "&"): append("&amp;")
            case UInt8(ascii: "'"): append("&#x27;")
            case _ where Self.destinationSafe[Int(byte)]: bytes.append(byte)
            default: bytes.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
        }
    }

    /// Bytes a destination keeps as they are: letters, digits and `-_.+!*(),%#@?=;:/$~`.
    private static let destinationSafe: [Bool] = {
        var safe = [Bool](repeating: false, count: 256)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.+!*(),%#@?=;:/$~".utf8 { safe[Int(byte)] = true }
        return safe
    }()

    mutating func write(_ block: RichText.Block, tight: Bool = false) {
        switch block {
        case .heading(let level, let inlines):
            let tag = "h\(min(max(level, 1), 6))"
            append("<\(tag)>")
            write(inlines)
            append("</\(tag)>\n")
        case .paragraph(let inlines):
            if tight { return write(inlines) }
            append("<p>")
            write(inlines)
            append("</p>\n")
        case .quote(let blocks):
            append("<blockquote>\n")
            for block in blocks { write(block) }
            append("</blockquote>\n")
        case .code(let language, let text):
            append("<pre><code")
            if let language {
                append(" class=\"language-")
                escaped(language)
                append("\"")
            }
            append(">")
            escaped(text)
            append("</code></pre>\n")
        case .rule: append("<hr />\n")
        case .html(let text):
            append(text)
            if !text.hasSuffix("\n") { append("\n") }
        case .list(let ordered, let listStart, let items, let isTight):
            let start = RichText.itemNumber(start: listStart, index: 0)
            append(ordered ? (start == 1 ? "<ol>\n" : "<ol start=\"\(start)\">\n") : "<ul>\n")
            for item in items {
                append("<li>")
                if let checked = item.checked { append(checked ? "<input type=\"checkbox\" checked=\"\" disabled=\"\" /> " : "<input type=\"checkbox\" disabled=\"\" /> ") }
                let content = bytes.count
                for (index, block) in item.blocks.enumerated() {
                    // A block starts on a line of its own, except a tight item's first paragraph.
                    if !(index == 0 && isTight && block.isParagraph), bytes.count == content || bytes.last != UInt8(ascii: "\n") {
                        append("\n")
                    }
                    write(block, tight: isTight)
                }
                append("</li>\n")
            }
            append(ordered ? "</ol>\n" : "</ul>\n")
        case .table(let table):
            append("<table>\n")
            for (rowIndex, row) in table.rows.enumerated() {
                let cell = rowIndex == 0 ? "th" : "td"
                if rowIndex == 0 { append("<thead>\n") } else if rowIndex == 1 { append("<tbody>\n") }
                append("<tr>\n")
                for (column, content) in row.enumerated() {
                    let alignment = column < table.alignments.count ? table.alignments[column] : .none
                    append(alignment == .none ? "<\(cell)>" : "<\(cell) align=\"\(alignment)\">")
                    write(content)
                    append("</\(cell)>\n")
                }
                append("</tr>\n")
                if rowIndex == 0 { append("</thead>\n") }
            }
            if table.rows.count > 1 { append("</tbody>\n") }
            append("</table>\n")
        }
    }

    mutating func write(_ inlines: [RichText.Inline]) {
        for inline in inlines {
            switch inline {
            case .text(let text): escaped(text)
            case .italic(let inner): wrapped(inner, in: "em")
            case .bold(let inner): wrapped(inner, in: "strong")
            case .strikethrough(let inner): wrapped(inner, in: "del")
            case .code(let code):
                append("<code>")
                escaped(code)
                append("</code>")
            case .link(let url, let title, let inner):
                append("<a href=\"")
                destination(url)
                append("\"")
                titled(title)
                append(">")
                write(inner)
                append("</a>")
            case .image(let source, let title, let alt):
                append("<img src=\"")
                destination(source)
                append("\" alt=\"")
                escaped(Self.altText(alt))
                append("\"")
                titled(title)
                append(" />")
            case .lineBreak: append("<br />\n")
            case .softBreak: append("\n")
            case .html(let text): append(text)
            }
        }
    }

    private mutating func wrapped(_ inner: [RichText.Inline], in tag: String) {
        append("<\(tag)>")
        write(inner)
        append("</\(tag)>")
    }

    /// ` title="…"`, when there is a title.
    private mutating func titled(_ title: String?) {
        guard let title else { return }
        append(" title=\"")
        escaped(title)
        append("\"")
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
}
