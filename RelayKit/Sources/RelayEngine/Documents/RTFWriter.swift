import RelayKit
/// Writes rich text as RTF 1.x that word processors open: headings (with outline levels), bold,
/// italic, strikethrough, code, links (HYPERLINK fields), lists (in a list table, so bullets and
/// numbers show), quotes, code blocks, tables, and any Unicode text (`\uN?` escapes, with
/// surrogate pairs beyond the Basic Multilingual Plane).
public enum RTFWriter {
    /// Font sizes in half-points for heading levels 1–6, then body text.
    static let headingSizes = [1: 40, 2: 32, 3: 28, 4: 24, 5: 22, 6: 22]
    static let bodySize = 24

    public static func rtf(for richText: RichText) -> String {
        var writer = BlockWriter()
        let body = richText.blocks.map { writer.rtf(for: $0, indent: 0) }.joined()
        var output = "{\\rtf1\\ansi\\ansicpg1252\\deff0\\uc1\n"
        output += "{\\fonttbl{\\f0\\fswiss\\fcharset0 Helvetica;}{\\f1\\fmodern\\fcharset0 Courier New;}}\n"
        output += "{\\colortbl;\\red0\\green0\\blue238;\\red102\\green102\\blue102;}\n"
        output += writer.listTables()
        return output + "\\f0\\fs\(bodySize)\n" + body + "}\n"
    }

    /// Writes blocks, numbering the lists it meets: word processors show bullets and numbers only
    /// for paragraphs in a list table (`\lsN`), and each list needs its own entry to restart numbering.
    private struct BlockWriter {
        /// Each list written so far: ordered or not, and its first number.
        var lists: [(ordered: Bool, start: Int)] = []
        /// How many quotes the block being written is in.
        var quoteDepth = 0
        /// The shallowest quote that starts with the next paragraph, if one does.
        var quoteStart: Int?

        /// The start of a paragraph with `properties`. In a quote, it also says how deep, and from
        /// which depth on the quotes start with it, in a destination other readers skip
        /// (`{\*\relayquoteN\relayquotestartK}`), so that Relay reads the quotes back as they were.
        mutating func paragraph(_ properties: String) -> String {
            // `properties` end with a control word, which takes the space callers put after them.
            guard quoteDepth > 0 else { return "\\pard" + properties }
            let start = quoteStart.map { "\\relayquotestart\($0)" } ?? ""
            quoteStart = nil
            return "\\pard{\\*\\relayquote\(quoteDepth)\(start)}\\brdrl\\brdrs\\brdrw10\\brsp80" + properties
        }

        /// The list table (a bullet list and a decimal list) and one override per list written.
        func listTables() -> String {
            guard !lists.isEmpty else { return "" }
            func list(_ id: Int, format: Int, text: String, numbers: String) -> String {
                "{\\list\\listtemplateid\(id)\\listhybrid{\\listlevel\\levelnfc\(format)\\levelnfcn\(format)\\leveljc0\\leveljcn0"
                    + "\\levelfollow0\\levelstartat1\\levelspace360\\levelindent0{\\leveltext\\leveltemplateid\(id)\(text);}"
                    + "{\\levelnumbers\(numbers);}\\fi-360\\li720\\lin720 }{\\listname ;}\\listid\(id)}"
            }
            var output = "{\\*\\listtable" + list(1, format: 23, text: "\\'01\\u8226 ?", numbers: "")
                + list(2, format: 0, text: "\\'02\\'00.", numbers: "\\'01") + "}\n{\\*\\listoverridetable"
            for (index, list) in lists.enumerated() {
                let restart = list.ordered
                    ? "\\listoverridecount1{\\lfolevel\\listoverridestartat\\levelstartat\(list.start)}" : "\\listoverridecount0"
                output += "{\\listoverride\\listid\(list.ordered ? 2 : 1)\(restart)\\ls\(index + 1)}"
            }
            return output + "}\n"
        }

        /// `block` as RTF. In a list item (`list`: the list's number and level), every paragraph
        /// carries the list's number, so that a reader keeps it in the item.
        mutating func rtf(for block: RichText.Block, indent: Int, list: (number: Int, level: Int)? = nil) -> String {
            let left = (indent > 0 ? "\\li\(indent)" : "") + (list.map { RTFWriter.listLevel($0.level) + "\\ls\($0.number)\\ilvl\(min($0.level, 8))" } ?? "")
            switch block {
            case .heading(let level, let inlines):
                let clamped = min(max(level, 1), 6)
                return paragraph("\\outlinelevel\(clamped - 1)\\sb240\\sa120\(left)") + "\\b\\fs\(headingSizes[clamped] ?? bodySize) "
                    + RTFWriter.rtf(for: inlines) + "\\b0\\fs\(bodySize)\\par\n"
            case .paragraph(let inlines):
                return paragraph("\\sa160\(left)") + " " + RTFWriter.rtf(for: inlines) + "\\par\n"
            case .quote(let blocks):
                // Grey, indented and with a bar on the left, as browsers show quotes.
                quoteDepth += 1
                let outer = quoteStart
                quoteStart = outer ?? quoteDepth
                defer {
                    quoteDepth -= 1
                    // A quote with no paragraph starts nothing.
                    if quoteStart == quoteDepth + 1 { quoteStart = outer }
                }
                return blocks.map { "{\\cf2 " + rtf(for: $0, indent: indent + 720, list: list) + "}" }.joined()
            case .code(_, let text):
                let lines = RichText.withoutFinalLineFeed(text).splitAtLineFeeds()
                return paragraph("\\sa160\(left)") + "{\\f1\\fs20 " + lines.map(RTFWriter.escape).joined(separator: "\\line\n") + "}\\par\n"
            case .rule:
                return paragraph("\\brdrb\\brdrs\\brdrw10\\brsp20\(left)") + "\\par\n"
            case .html:
                // RTF cannot hold raw HTML: it is left out.
                return ""
            case .list(let ordered, let start, let items, let tight):
                lists.append((ordered, RichText.itemNumber(start: start, index: 0)))
                let number = lists.count
                let level = list.map { $0.level + 1 } ?? 0
                var output = ""
                for (index, item) in items.enumerated() {
                    let marker = ordered ? "\(RichText.itemNumber(start: start, index: index))." : "\\u8226 ?"
                    // A task's box is text other readers show; the destination before it tells Relay it is a box.
                    let box = item.checked.map { "{\\*\\relaytask}" + ($0 ? "\\u9745 ? " : "\\u9744 ? ") } ?? ""
                    // A loose list's items are apart, as paragraphs are, and say so for Relay's reader.
                    let spacing = tight ? "\\sa60" : "\\sa160{\\*\\relayloose}"
                    let opening = paragraph(RTFWriter.listLevel(level) + "\\ls\(number)\\ilvl\(min(level, 8))\\fi-360\\li\(indent + 720)" + spacing)
                    let markerParagraph = { (inlines: [RichText.Inline]) in
                        opening + "{\\listtext \(marker)\\tab}"
                            + box + RTFWriter.rtf(for: inlines) + "\\par\n"
                    }
                    // An item that does not start with a paragraph starts with an empty one, which carries its marker.
                    if let first = item.blocks.first, case .paragraph = first {} else { output += markerParagraph([]) }
                    for (position, inner) in item.blocks.enumerated() {
                        if position == 0, case .paragraph(let inlines) = inner {
                            output += markerParagraph(inlines)
                        } else {
                            output += rtf(for: inner, indent: indent + 720, list: (number, level))
                        }
                    }
                }
                return output
            case .table(let table):
                // Each row says where its own cells end: a row's length is what it holds, whatever
                // the widest row (1,000 empty rows under one of 200,000 cells stay small).
                let width = 9000 / max(1, table.rows.map(\.count).max() ?? 1)
                var output = ""
                for row in table.rows {
                    output += "\\trowd\\trgaph108" + (1...max(1, row.count)).map { "\\cellx\($0 * width)" }.joined() + "\n"
                    for cell in row { output += paragraph("\\intbl\(left)") + " " + RTFWriter.rtf(for: cell) + "\\cell\n" }
                    // A row without cells still says where it is (in which quotes and list), so that a
                    // table starting with one is not taken to be where the paragraph before it was.
                    if row.isEmpty { output += paragraph("\\intbl\(left)") + "\n" }
                    output += "\\row\n"
                }
                // Where the table ends, so that a table right after it is another (other readers skip it).
                return output + "\\pard{\\*\\relaytableend}\n"
            }
        }
    }

    static func rtf(for inlines: [RichText.Inline]) -> String {
        inlines.map { inline -> String in
            switch inline {
            case .text(let text): escape(text)
            case .italic(let inner): "{\\i " + rtf(for: inner) + "}"
            case .bold(let inner): "{\\b " + rtf(for: inner) + "}"
            case .strikethrough(let inner): "{\\strike " + rtf(for: inner) + "}"
            case .code(let code): "{\\f1 " + escape(code) + "}"
            case .link(let url, let title, let inner): hyperlink(url, title, rtf(for: inner))
            // An image is a link to it, shown as its description; one with none shows nothing, as
            // in plain text.
            case .image(let source, let title, let alt): RichText.hasContent(alt) ? hyperlink(source, title, rtf(for: alt)) : ""

            case .lineBreak: "\\line\n"
            case .softBreak: " "
            case .html: ""
            }
        }.joined()
    }

    /// A HYPERLINK field to `url`, with `title` as its tip (`\\o`), showing `shown`.
    static func hyperlink(_ url: String, _ title: String?, _ shown: String) -> String {
        let tip = title.map { " \\\\o \"\(escape(fieldURL($0)))\"" } ?? ""
        return "{\\field{\\*\\fldinst{HYPERLINK \"\(escape(fieldURL(url)))\"\(tip)}}{\\fldrslt{\\ul\\cf1 " + shown + "}}}"
    }

    /// RTF numbers list levels 0 to 8 (`\ilvlN`); a list nested deeper also says its level in a
    /// destination other readers skip, so that Relay reads it back as deep as it was.
    static func listLevel(_ level: Int) -> String {
        level > 8 ? "{\\*\\relaylevel\(level)}" : ""
    }

    /// `url` as a field instruction can hold it: control characters and quotes percent-encoded.
    static func fieldURL(_ url: String) -> String {
        var output = ""
        for scalar in url.unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\"" {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                output += (hex.count < 2 ? "%0" : "%") + hex
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// Escapes RTF's special characters and writes everything beyond ASCII as `\uN?`.
    static func escape(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": output += "\\\\"
            case "{": output += "\\{"
            case "}": output += "\\}"
            case "\t": output += "\\tab "
            case "\n": output += "\\line\n"
            // Other control characters (a carriage return) would be skipped by readers as RTF's own line ends.
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: output += "\\u\(scalar.value)?"
            case _ where scalar.value < 0x80: output.unicodeScalars.append(scalar)
            default:
                for unit in String(scalar).utf16 { output += "\\u\(Int16(bitPattern: unit))?" }
            }
        }
        return output
    }
}
