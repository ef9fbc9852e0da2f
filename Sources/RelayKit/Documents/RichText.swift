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
        case list(ordered: Bool, start: Int, items: [ListItem])
        case quote([Block])
        case code(language: String?, text: String)
        case rule
        case table(Table)
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
        blocks.compactMap { block -> Block? in
            switch block {
            case .heading, .rule: return block
            case .paragraph(let inlines): return plainText(of: inlines).isEmpty ? nil : block
            case .code(_, let text): return text.isEmpty || text == "\n" ? nil : block
            case .quote(let inner):
                let kept = pruned(inner)
                return kept.isEmpty ? nil : .quote(kept)
            case .list(let ordered, let start, let items):
                let kept = items.map { ListItem(checked: $0.checked, blocks: pruned($0.blocks)) }
                return kept.isEmpty ? nil : .list(ordered: ordered, start: start, items: kept)
            case .table(let table):
                return table.rows.contains { $0.contains { !plainText(of: $0).isEmpty } } ? block : nil
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

        public init(alignments: [Alignment], rows: [[[Inline]]]) {
            self.alignments = alignments
            self.rows = rows
        }
    }

    public indirect enum Inline: Hashable, Sendable {
        case text(String)
        case italic([Inline])
        case bold([Inline])
        case strikethrough([Inline])
        case code(String)
        case link(url: String, [Inline])
        /// A line break within a paragraph.
        case lineBreak
        /// A break the writer may render as a space (a newline in Markdown source).
        case softBreak
    }
}

extension RichText {
    /// The text without styles: blocks separated by blank lines, list items one a line.
    public var plainText: String {
        blocks.map(Self.plainText(of:)).joined(separator: "\n\n")
    }

    static func plainText(of block: Block) -> String {
        switch block {
        case .heading(_, let inlines), .paragraph(let inlines): return plainText(of: inlines)
        case .list(let ordered, let start, let items):
            return items.enumerated().map { index, item in
                let marker = item.checked.map { $0 ? "[x] " : "[ ] " } ?? ""
                let bullet = ordered ? "\(itemNumber(start: start, index: index)). " : "• "
                return bullet + marker + item.blocks.map(plainText(of:)).joined(separator: "\n")
            }.joined(separator: "\n")
        case .quote(let blocks): return blocks.map(plainText(of:)).joined(separator: "\n\n")
        case .code(_, let text): return withoutFinalLineFeed(text)
        case .rule: return "———"
        case .table(let table): return table.rows.map { $0.map(plainText(of:)).joined(separator: "\t") }.joined(separator: "\n")
        }
    }

    /// The text of inline runs, without styles.
    public static func plainText(of inlines: [Inline]) -> String {
        inlines.map { inline -> String in
            switch inline {
            case .text(let text), .code(let text): text
            case .italic(let inner), .bold(let inner), .strikethrough(let inner), .link(_, let inner): plainText(of: inner)
            case .lineBreak: "\n"
            case .softBreak: " "
            }
        }.joined()
    }
}
