import Foundation

/// Styled text as a document: headings, paragraphs, lists, quotes, code, rules and tables, whose
/// text runs are bold, italic, struck through, code or links. Markdown, RTF and HTML are read into
/// it and written from it; PDFs are laid out from it.
public struct RichText: Hashable, Sendable {
    public var blocks: [Block]

    public init(blocks: [Block]) { self.blocks = blocks }

    /// Plain text as rich text: one paragraph a run of lines between blank lines (lines end as
    /// `LineBreak` says; a line of spaces alone is blank).
    public init(plainText: String) {
        var blocks: [Block] = []
        var lines: [String] = []
        func endParagraph() {
            guard !lines.isEmpty else { return }
            blocks.append(.paragraph(lines.enumerated().flatMap { index, line in index == 0 ? [Inline.text(line)] : [.lineBreak, .text(line)] }))
            lines = []
        }
        for line in TextSplitting.lines(plainText) {
            if line.allSatisfy(\.isWhitespace) { endParagraph() } else { lines.append(line) }
        }
        endParagraph()
        self.blocks = blocks
    }

    public indirect enum Block: Hashable, Sendable {
        case heading(level: Int, [Inline])
        case paragraph([Inline])
        /// A tight list's items are written without paragraph spacing (no blank lines between
        /// them in Markdown, no `<p>` in HTML); a loose list's with it.
        case list(ordered: Bool, start: Int, items: [ListItem], tight: Bool = true)
        case quote([Block])
        /// `language`: the first word of a fence's info string.
        case code(language: String?, text: String)
        case rule
        case table(Table)
        /// Raw HTML, kept as written: passed through to HTML and Markdown, left out of formats
        /// that cannot hold it (RTF, PDF, plain text).
        case html(String)
    }

    /// The largest first number a list may have (CommonMark's nine digits): readers bound what
    /// they read to it, so that numbering on from it cannot overflow.
    public static let largestListStart = 999_999_999

    /// The number shown on item `index` of an ordered list that starts at `start`. Readers bound
    /// `start`; rich text that Swift code builds may not, so the start is bounded here too, and no
    /// writer can overflow counting on from it.
    public static func itemNumber(start: Int, index: Int) -> Int {
        min(max(start, 0), largestListStart) + index
    }

    /// A code block's `text` without the line feed that ends it, if one does. Counted in Unicode
    /// scalars: Swift takes CR LF for one character, so `hasSuffix("\n")` misses a line feed
    /// after a carriage return.
    public static func withoutFinalLineFeed(_ text: String) -> String {
        text.endsInLineFeed ? String(text.unicodeScalars.dropLast()) : text
    }

    /// `blocks` without the blocks that hold nothing to show: a paragraph without text, a code
    /// block without lines, a quote, list or table with nothing in it. No format could keep
    /// them, so readers of other formats leave them out (Docs/Language.md, "Empty blocks in rich text").
    /// Headings and rules stay: an empty heading still shows as a gap, a rule as a line.
    public static func pruned(_ blocks: [Block]) -> [Block] {
        // Most documents have nothing to take out: looked at, not rebuilt.
        if blocks.allSatisfy(isKeptWhole) { return blocks }
        return blocks.compactMap { block -> Block? in
            switch block {
            case .quote(let inner):
                let kept = pruned(inner)
                return kept.isEmpty ? nil : .quote(kept)
            case .list(let ordered, let start, let items, let tight):
                let kept = items.map { ListItem(checked: $0.checked, blocks: pruned($0.blocks)) }
                return kept.isEmpty ? nil : .list(ordered: ordered, start: start, items: kept, tight: tight)
            default:
                return showsSomething(block) ? block : nil
            }
        }
    }

    /// Whether `pruned` keeps `block` as it is, with nothing inside it taken out.
    private static func isKeptWhole(_ block: Block) -> Bool {
        switch block {
        case .quote(let inner): !inner.isEmpty && inner.allSatisfy(isKeptWhole)
        case .list(_, _, let items, _): !items.isEmpty && items.allSatisfy { $0.blocks.allSatisfy(isKeptWhole) }
        default: showsSomething(block)
        }
    }

    /// The rule for a block that holds no blocks: whether it shows something. Headings and rules
    /// always do; quotes and lists are judged by what they hold (`pruned`).
    private static func showsSomething(_ block: Block) -> Bool {
        switch block {
        case .heading, .rule, .quote, .list: true
        case .paragraph(let inlines): hasContent(inlines)
        case .html(let text): !text.isEmpty
        case .code(_, let text): !(text.isEmpty || text == "\n")
        case .table(let table): table.rows.contains { $0.contains(where: hasContent) }
        }
    }

    /// Whether inline runs show something: text, an image, raw HTML.
    public static func hasContent(_ inlines: [Inline]) -> Bool {
        inlines.contains { inline in
            switch inline {
            case .text(let text), .code(let text), .html(let text): !text.isEmpty
            case .italic(let inner), .bold(let inner), .strikethrough(let inner), .link(_, _, let inner): hasContent(inner)
            case .image: true
            case .lineBreak, .softBreak: false
            }
        }
    }

    public struct ListItem: Hashable, Sendable {
        /// For task lists: whether the box is ticked; nil for an ordinary item.
        public var checked: Bool?
        public var blocks: [Block]

        public init(checked: Bool? = nil, blocks: [Block]) {
            self.checked = checked
            self.blocks = blocks
        }
    }

    public struct Table: Hashable, Sendable {
        public enum Alignment: Hashable, Sendable { case none, left, center, right }
        public var alignments: [Alignment]
        /// Rows of cells; the first row is the header.
        public var rows: [[[Inline]]]

        /// Alignments past the widest row's cells align nothing, and are dropped.
        public init(alignments: [Alignment], rows: [[[Inline]]]) {
            let widest = rows.reduce(0) { max($0, $1.count) }
            self.alignments = alignments.count > widest ? Array(alignments.prefix(widest)) : alignments
            self.rows = rows
        }
    }

    public indirect enum Inline: Hashable, Sendable {
        case text(String)
        case italic([Inline])
        case bold([Inline])
        case strikethrough([Inline])
        case code(String)
        /// `url` as written in the source (percent-encoding is the writers' concern); `title` as in
        /// `[text](url "title")`.
        case link(url: String, title: String? = nil, [Inline])
        /// An image: where it is, its title, and its description (alt text).
        case image(source: String, title: String? = nil, alt: [Inline])
        /// Raw inline HTML (`<span>`, `<!-- … -->`), kept as written, as `html` blocks are.
        /// A line break within a paragraph.
        case lineBreak
        /// A break the writer may render as a space (a newline in Markdown source).
        case softBreak
        case html(String)
    }
}

extension RichText.Block {
    /// Whether the block is a paragraph (writers lay a list item's first paragraph out apart).
    package var isParagraph: Bool {
        if case .paragraph = self { return true }
        return false
    }
}

extension RichText {
    /// The text without styles: blocks separated by blank lines, list items one a line.
    public var plainText: String {
        Self.shownTexts(blocks).joined(separator: "\n\n")
    }

    static func plainText(of block: Block) -> String {
        switch block {
        case .heading(_, let inlines), .paragraph(let inlines): return lineText(inlines)
        case .list(let ordered, let start, let items, _):
            return items.enumerated().map { index, item in
                let marker = item.checked.map { $0 ? "[x] " : "[ ] " } ?? ""
                let bullet = ordered ? "\(itemNumber(start: start, index: index)). " : "• "
                return bullet + marker + shownTexts(item.blocks).joined(separator: "\n")
            }.joined(separator: "\n")
        case .quote(let blocks): return shownTexts(blocks).joined(separator: "\n\n")
        case .code(_, let text): return withoutFinalLineFeed(text)
        case .rule: return "———"
        case .table(let table): return table.rows.map { $0.map(lineText).joined(separator: "\t") }.joined(separator: "\n")
        case .html: return ""
        }
    }

    /// The texts of the `blocks` that show some: raw HTML, a paragraph of images without
    /// descriptions, an empty heading have none, and take no place between the others in plain
    /// text (RTF and PDF leave some of them out, and plain text must read the same from every
    /// format). Each block's text is worked out once, so deep nesting costs no more than shallow.
    static func shownTexts(_ blocks: [Block]) -> [String] {
        blocks.map(plainText(of:)).filter { !$0.isEmpty }
    }

    /// The text of a paragraph, heading or cell. What shows nothing at its end (raw HTML, an
    /// image without a description) is left out, and so are the spaces before it — a line break
    /// before such an image, say — as the RTF reader leaves out the spaces a paragraph's text
    /// ends in: plain text must read the same from every format.
    static func lineText(_ inlines: [Inline]) -> String {
        plainText(of: withoutShownNothingAtEnd(inlines))
    }

    /// `inlines` without what shows nothing at their end, inside styles, links and image
    /// descriptions too (a bold run or a description that ends in a space): RTF leaves those
    /// spaces out wherever they are.
    private static func withoutShownNothingAtEnd(_ inlines: [Inline]) -> [Inline] {
        var kept = inlines
        trimming: while let last = kept.last {
            switch last {
            case .html, .softBreak: kept.removeLast()
            case .image(_, _, let alt) where !hasContent(alt): kept.removeLast()
            case .text(let text):
                let trimmed = String(text.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
                if trimmed.isEmpty {
                    kept.removeLast()
                } else {
                    kept[kept.count - 1] = .text(trimmed)
                    break trimming
                }
            case .italic(let inner), .bold(let inner), .strikethrough(let inner), .link(_, _, let inner),
                .image(_, _, let inner):
                let trimmed = withoutShownNothingAtEnd(inner)
                if plainText(of: trimmed).isEmpty {
                    kept.removeLast()
                    continue trimming
                }
                kept[kept.count - 1] =
                    switch last {
                    case .italic: .italic(trimmed)
                    case .bold: .bold(trimmed)
                    case .strikethrough: .strikethrough(trimmed)
                    case .link(let url, let title, _): .link(url: url, title: title, trimmed)
                    case .image(let source, let title, _): .image(source: source, title: title, alt: trimmed)
                    default: last
                    }
                break trimming
            default: break trimming
            }
        }
        return kept
    }

    /// The text of inline runs, without styles.
    public static func plainText(of inlines: [Inline]) -> String {
        inlines.map { inline -> String in
            switch inline {
            case .text(let text), .code(let text): text
            case .italic(let inner), .bold(let inner), .strikethrough(let inner), .link(_, _, let inner): plainText(of: inner)
            // An image without a description shows no text (RTF and PDF show it as nothing, too).
            case .image(_, _, let alt): hasContent(alt) ? plainText(of: alt) : ""
            case .lineBreak: "\n"
            case .softBreak: " "
            case .html: ""
            }
        }.joined()
    }
}
