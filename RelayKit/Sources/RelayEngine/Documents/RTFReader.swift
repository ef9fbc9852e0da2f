import Foundation
import RelayKit

/// Reads RTF into rich text: what `RTFWriter` writes, and what common word processors write
/// (LibreOffice, Word, TextEdit): styles, headings (outline levels), lists (`\listtext`,
/// `\pntext`), HYPERLINK fields, tables, Unicode (`\uN`, `\'hh` in Windows-1252).
public struct RTFReader {
    /// An RTF document that could not be read.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    private enum Token {
        case groupStart, groupEnd
        case word(String, Int?)
        case symbol(UInt8)
        case text([UInt8])
    }

    /// Character and destination state, saved and restored with each group.
    private struct State {
        var bold = false, italic = false, strike = false, monospace = false
        /// Text in this group is not document text (font table, metadata, pictures …).
        var skipping = false
        var destination: Destination = .body
        var unicodeSkip = 1
    }

    private enum Destination { case body, fontTable, listMarker, fieldInstruction, fieldResult }

    private struct ListEntry {
        var ordered: Bool
        var start: Int
        var id: Int?
        var level: Int
        var item: RichText.ListItem
        /// A paragraph without a marker: more of the item before it at `level` (its blocks are in `item`).
        var isContinuation = false
        /// Whether the item's list is loose (`{\*\relayloose}`): its items apart, as paragraphs.
        var isLoose = false
        /// How many quotes the paragraph is in, and the shallowest of them that starts with it.
        var quote = QuotePlace()
    }

    /// How many quotes a paragraph is in (`{\*\relayquoteN}`), and from which depth on they are
    /// new quotes that start with it (`\relayquotestartK`; without it, none: a paragraph goes on
    /// the quotes before it).
    private struct QuotePlace: Equatable {
        var depth = 0
        var start = Int.max
    }

    /// A block read, with its place in quotes: `nest` builds the quotes once a container is complete.
    private struct Piece {
        var block: RichText.Block
        var quote: QuotePlace
    }

    /// The deepest quote (`\relayquoteN`) and list level (`\relaylevelN`) read: deeper is as deep.
    /// As deep as Markdown and HTML may nest, so that what they read comes back from RTF.
    static let maximumDepth = Limits.documentDepth

    private struct Run: Equatable {
        var text: String
        var bold: Bool, italic: Bool, strike: Bool, monospace: Bool
    }

    private var state = State()
    private var stack: [State] = []
    private var monospaceFonts: Set<Int> = []
    private var fontNumber: Int?
    private var fontName = ""
    private var fontIsModern = false

    private var pieces: [Piece] = []
    private var runs: [RichText.Inline] = []
    private var pendingText = ""
    private var pendingStyle: Run?
    private var headingLevel: Int?
    private var listMarker: String?
    /// The word processor's list id (`\lsN`) of the current paragraph, to tell adjacent lists apart.
    private var listID: Int?
    private var inTable = false
    private var tableCells: [[RichText.Inline]] = []
    private var tableRows: [[[RichText.Inline]]] = []
    /// The list (`\lsN`, `\ilvlN`) the current table's cells are in: the table is a block of its item.
    private var tableList: (id: Int, level: Int)?
    /// The quotes the current paragraph is in (which Relay's writer writes).
    private var quote = QuotePlace()
    /// The quotes the current table is in.
    private var tableQuote = QuotePlace()
    /// Whether the current paragraph starts with a task's box (`{\*\relaytask}`): text that starts
    /// with ☐ is text otherwise.
    private var isTask = false
    /// Whether the current list paragraph is an item of a loose list (`{\*\relayloose}`).
    private var isLoose = false
    /// The nesting level (`\ilvlN`, 0 to 8) of the current list paragraph.
    private var listLevel = 0
    /// The level of a list paragraph nested deeper than RTF counts (`{\*\relaylevelN}`).
    private var deepListLevel: Int?
    /// Whether the current paragraph has a bottom border and so, when empty, is a rule.
    private var hasBottomBorder = false
    /// The items of the lists under way, each with its level: `flushList` nests them.
    private var listItems: [ListEntry] = []
    private var fieldStack: [(depth: Int, instruction: String, runs: [RichText.Inline])] = []
    private var pendingUnicodeSkip = 0
    private var highSurrogate: UInt16?

    /// Reads `rtf`. Throws when the text is not RTF at all.
    public static func richText(from rtf: String) throws(ReadError) -> RichText {
        let bytes = Array(rtf.utf8)
        guard bytes.starts(with: Array("{\\rtf".utf8)) else { throw ReadError(message: "the text does not start with {\\rtf") }
        var reader = RTFReader()
        for token in tokens(bytes) { reader.handle(token) }
        reader.endParagraph(force: false)
        reader.flushTable()
        reader.flushList()
        return RichText(blocks: nest(reader.pieces[...], depth: 0))
    }

    // MARK: - Tokens

    private static func tokens(_ bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var index = 0
        var text: [UInt8] = []
        func flushText() {
            if !text.isEmpty { tokens.append(.text(text)) }
            text = []
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                flushText()
                tokens.append(.groupStart)
                index += 1
            case UInt8(ascii: "}"):
                flushText()
                tokens.append(.groupEnd)
                index += 1
            case UInt8(ascii: "\\"):
                flushText()
                index += 1
                guard index < bytes.count else { break }
                let next = bytes[index]
                if isLetter(next) {
                    let start = index
                    while index < bytes.count, isLetter(bytes[index]) { index += 1 }
                    let name = String(decoding: bytes[start..<index], as: UTF8.self)
                    var parameter: Int?
                    let numberStart = index
                    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
                    while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
                    if index > numberStart { parameter = Int(String(decoding: bytes[numberStart..<index], as: UTF8.self)) }
                    if index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
                    tokens.append(.word(name, parameter))
                } else if next == UInt8(ascii: "'"), index + 2 < bytes.count,
                    let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
                {
                    tokens.append(.word("'", Int(value)))
                    index += 3
                } else if next == 10 || next == 13 {
                    tokens.append(.word("par", nil))
                    index += 1
                } else {
                    tokens.append(.symbol(next))
                    index += 1
                }
            case 10, 13:
                index += 1
            default:
                text.append(byte)
                index += 1
            }
        }
        flushText()
        return tokens
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
    }

    // MARK: - Handling tokens

    private static let skippedDestinations: Set<String> = [
        "colortbl", "stylesheet", "info", "pict", "header", "footer", "headerl", "headerr", "footerl", "footerr",
        "footnote", "listtable", "listoverridetable", "rsidtbl", "generator", "xmlnstbl", "themedata",
        "colorschememapping", "latentstyles", "datastore", "pgdsctbl", "object", "nonshppict", "shp", "revtbl",
        "filetbl", "mmathPr", "pnseclvl", "operator", "author", "title", "company", "bkmkstart", "bkmkend",
    ]

    private mutating func handle(_ token: Token) {
        switch token {
        case .groupStart:
            stack.append(state)
        case .groupEnd:
            if state.destination == .fontTable, let fontNumber { finishFont(fontNumber) }
            if let field = fieldStack.last, field.depth == stack.count {
                closeField()
            }
            if let saved = stack.popLast() {
                let wasListMarker = state.destination == .listMarker
                state = saved
                if wasListMarker && listMarker == nil { listMarker = "" }
            }
        case .word(let name, let parameter):
            handleWord(name, parameter)
        case .symbol(let symbol):
            handleSymbol(symbol)
        case .text(let bytes):
            for byte in bytes { emit(Self.windows1252(byte)) }
        }
    }

    private mutating func handleSymbol(_ symbol: UInt8) {
        switch symbol {
        case UInt8(ascii: "*"): state.skipping = state.skipping || state.destination == .body
        case UInt8(ascii: "~"): emit("\u{00A0}")
        case UInt8(ascii: "_"): emit("\u{2011}")
        case UInt8(ascii: "-"): break
        case UInt8(ascii: "\\"), UInt8(ascii: "{"), UInt8(ascii: "}"): emit(Character(Unicode.Scalar(symbol)))
        default: break
        }
    }

    private mutating func handleWord(_ name: String, _ parameter: Int?) {
        if pendingUnicodeSkip > 0, name == "'" {
            pendingUnicodeSkip -= 1
            return
        }
        let on = parameter.map { $0 != 0 } ?? true
        switch name {
        case "fonttbl": state.destination = .fontTable
        case "f":
            if state.destination == .fontTable {
                if let fontNumber { finishFont(fontNumber) }
                fontNumber = parameter
                fontName = ""
                fontIsModern = false
            } else {
                state.monospace = parameter.map { monospaceFonts.contains($0) } ?? false
            }
        case "fmodern": if state.destination == .fontTable { fontIsModern = true }
        case "fldinst":
            state.destination = .fieldInstruction
            state.skipping = false
        case "fldrslt":
            state.destination = .fieldResult
            state.skipping = false
        case "field":
            flushPending()
            fieldStack.append((stack.count, "", runs))
            runs = []
        case "listtext", "pntext":
            state.destination = .listMarker
            state.skipping = false
            listMarker = ""
        case _ where Self.skippedDestinations.contains(name): state.skipping = true
        case "par": endParagraph(force: true)
        case "pard":
            flushPending()
            headingLevel = nil
            listID = nil
            listLevel = 0
            deepListLevel = nil
            hasBottomBorder = false
            inTable = false
            quote = QuotePlace()
            isTask = false
            isLoose = false
        case "ls": listID = parameter
        case "relayquote": quote.depth = min(max(parameter ?? 1, 0), Self.maximumDepth)
        case "relayquotestart": quote.start = max(parameter ?? 1, 1)
        case "relaytableend": flushTable()
        case "relaytask": isTask = true
        case "relayloose": isLoose = true
        case "ilvl": listLevel = deepListLevel ?? min(max(parameter ?? 0, 0), 8)
        case "relaylevel":
            deepListLevel = min(max(parameter ?? 0, 0), Self.maximumDepth)
            listLevel = deepListLevel ?? 0
        case "brdrb": hasBottomBorder = true
        case "plain": state.bold = false; state.italic = false; state.strike = false; state.monospace = false
        case "b": state.bold = on
        case "i": state.italic = on
        case "strike", "striked": state.strike = on
        case "outlinelevel": if let parameter, parameter < 9 { headingLevel = parameter + 1 }
        case "intbl": inTable = true
        case "cell":
            noteTablePlace()
            flushPending()
            tableCells.append(runs)
            runs = []
        case "row":
            noteTablePlace()
            tableRows.append(tableCells)
            tableCells = []
        case "line": flushPending(); runs.append(.lineBreak)
        case "tab": emit("\t")
        case "bullet": emit("•")
        case "emdash": emit("—")
        case "endash": emit("–")
        case "lquote": emit("‘")
        case "rquote": emit("’")
        case "ldblquote": emit("“")
        case "rdblquote": emit("”")
        case "uc": state.unicodeSkip = parameter ?? 1
        case "u":
            guard let parameter else { return }
            let unit = UInt16(truncatingIfNeeded: parameter < 0 ? parameter + 65_536 : parameter)
            emitUTF16(unit)
            pendingUnicodeSkip = state.unicodeSkip
        case "'":
            if let parameter { emit(Self.windows1252(UInt8(truncatingIfNeeded: parameter))) }
        default: break
        }
    }

    private mutating func finishFont(_ number: Int) {
        let lowered = fontName.lowercased()
        if fontIsModern || ["courier", "mono", "consolas", "menlo", "monaco"].contains(where: { lowered.contains($0) }) {
            monospaceFonts.insert(number)
        }
        fontNumber = nil
    }

    private mutating func emitUTF16(_ unit: UInt16) {
        if (0xD800..<0xDC00).contains(unit) {
            highSurrogate = unit
            return
        }
        if let high = highSurrogate, (0xDC00..<0xE000).contains(unit) {
            highSurrogate = nil
            let value = 0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00)
            if let scalar = Unicode.Scalar(value) { emit(Character(scalar)) }
            return
        }
        highSurrogate = nil
        if let scalar = Unicode.Scalar(unit) { emit(Character(scalar)) }
    }

    /// Adds a character where the current destination puts text.
    private mutating func emit(_ character: Character) {
        if pendingUnicodeSkip > 0 {
            pendingUnicodeSkip -= 1
            return
        }
        switch state.destination {
        case .fontTable:
            if character != ";" { fontName.append(character) }
        case .listMarker:
            listMarker = (listMarker ?? "") + String(character)
        case .fieldInstruction:
            if !fieldStack.isEmpty { fieldStack[fieldStack.count - 1].instruction.append(character) }
        case .body, .fieldResult:
            guard !state.skipping else { return }
            let style = Run(text: "", bold: state.bold, italic: state.italic, strike: state.strike, monospace: state.monospace)
            if let pending = pendingStyle, pending != style { flushPending() }
            pendingStyle = style
            pendingText.append(character)
        }
    }

    /// Turns the pending styled text into an inline run.
    private mutating func flushPending() {
        guard let style = pendingStyle, !pendingText.isEmpty else {
            pendingStyle = nil
            return
        }
        var inline: RichText.Inline = style.monospace ? .code(pendingText) : .text(pendingText)
        if style.strike { inline = .strikethrough([inline]) }
        if style.italic { inline = .italic([inline]) }
        if style.bold { inline = .bold([inline]) }
        runs.append(inline)
        pendingText = ""
        pendingStyle = nil
    }

    private mutating func closeField() {
        flushPending()
        guard let field = fieldStack.popLast() else { return }
        let linkRuns = runs
        runs = field.runs
        if let url = Self.hyperlinkTarget(field.instruction) {
            runs.append(.link(url: url, title: Self.hyperlinkTip(field.instruction), linkRuns))
        } else {
            runs += linkRuns
        }
    }

    /// The tip of a `HYPERLINK "url" \o "tip"` field instruction (a link's title), if it has one.
    private static func hyperlinkTip(_ instruction: String) -> String? {
        guard let switchRange = instruction.range(of: "\\o \""), let end = instruction[switchRange.upperBound...].firstIndex(of: "\"") else {
            return nil
        }
        return String(instruction[switchRange.upperBound..<end])
    }

    /// The URL of a `HYPERLINK "url"` field instruction.
    private static func hyperlinkTarget(_ instruction: String) -> String? {
        let trimmed = instruction.trimmingCharacters(in: .whitespaces)
        guard trimmed.uppercased().hasPrefix("HYPERLINK") else { return nil }
        let rest = trimmed.dropFirst("HYPERLINK".count).trimmingCharacters(in: .whitespaces)
        if rest.hasPrefix("\""), let end = rest.dropFirst().firstIndex(of: "\"") {
            return String(rest[rest.index(after: rest.startIndex)..<end])
        }
        return rest.split(separator: " ").first.map(String.init)
    }

    // MARK: - Paragraphs

    private mutating func endParagraph(force: Bool) {
        flushPending()
        if inTable {
            return
        }
        flushTable()
        let inlines = Self.trimmingTrailingSpace(Self.merged(runs))
        runs = []
        defer {
            listMarker = nil
            isTask = false
        }
        if let marker = listMarker?.trimmingCharacters(in: .whitespaces) {
            let digits = marker.prefix { $0.isNumber }
            var content = inlines
            var checked: Bool?
            // A task's box: "☑ text", or "☑" alone for a task whose item starts with something else.
            // Counted in Unicode scalars: text that starts with a combining mark joins the space
            // before it into one character.
            if isTask, case .text(let first)? = content.first, let box = first.unicodeScalars.first, box == "☐" || box == "☑",
                [nil, " "].contains(first.unicodeScalars.dropFirst().first) {
                checked = box == "☑"
                let rest = String(String.UnicodeScalarView(first.unicodeScalars.dropFirst(2)))
                if rest.isEmpty { content.removeFirst() } else { content[0] = .text(rest) }
            }
            if marker.hasSuffix("☐") || marker.hasSuffix("☑") { checked = marker.hasSuffix("☑") }
            let ordered = !digits.isEmpty
            // A new list at the top level when the kind, the word processor's list or the quote changes.
            if listLevel == 0, let last = listItems.last(where: { $0.level == 0 && !$0.isContinuation }),
                last.ordered != ordered || last.id != listID || last.quote.depth != quote.depth || quote.start <= quote.depth {
                flushList()
            }
            // An empty first paragraph is an item whose first block is something else (or nothing).
            let item = RichText.ListItem(checked: checked, blocks: content.isEmpty ? [] : [.paragraph(content)])
            let start = min(Int(digits.prefix(9)) ?? 1, RichText.largestListStart)
            listItems.append(ListEntry(ordered: ordered, start: start, id: listID, level: listLevel, item: item, isLoose: isLoose, quote: quote))
            return
        }
        let block: RichText.Block?
        if inlines.isEmpty {
            // The end of the text is not a paragraph; an empty one is a rule, an empty heading, or nothing.
            block = !force ? nil : hasBottomBorder ? .rule : headingLevel.map { .heading(level: $0, []) }
        } else if let level = headingLevel {
            block = .heading(level: level, Self.unbolded(inlines))
        } else if inlines.allSatisfy({ if case .code = $0 { true } else if case .lineBreak = $0 { true } else { false } }) {
            let text = inlines.map { inline -> String in
                if case .code(let code) = inline { return code }
                return "\n"
            }.joined()
            block = .code(language: nil, text: text + "\n")
        } else {
            block = .paragraph(inlines)
        }
        // A paragraph of a list without a marker goes on the item before it at its level (a second
        // paragraph, a code block), after what is nested in that item so far.
        if listID != nil, let last = listItems.last {
            if let block {
                listItems.append(ListEntry(
                    ordered: last.ordered, start: 1, id: listID, level: listLevel, item: RichText.ListItem(blocks: [block]),
                    isContinuation: true, quote: quote))
            }
            return
        }
        flushList()
        if let block { pieces.append(Piece(block: block, quote: quote)) }
    }

    /// The blocks of `pieces`, all at least `depth` quotes deep, with their quotes built: a piece
    /// deeper than `depth` goes in a quote with the pieces after it that are as deep and do not
    /// start a new quote there.
    private static func nest(_ pieces: ArraySlice<Piece>, depth: Int) -> [RichText.Block] {
        var blocks: [RichText.Block] = []
        var index = pieces.startIndex
        while index < pieces.endIndex {
            let piece = pieces[index]
            guard piece.quote.depth > depth else {
                blocks.append(piece.block)
                index += 1
                continue
            }
            var end = index + 1
            while end < pieces.endIndex, pieces[end].quote.depth > depth, pieces[end].quote.start > depth + 1 { end += 1 }
            blocks.append(.quote(nest(pieces[index..<end], depth: depth + 1)))
            index = end
        }
        return blocks
    }

    /// Ends the lists under way: items of a deeper level go in the item before them, as a list.
    private mutating func flushList() {
        pieces += Self.lists(of: listItems[...], level: 0)
        listItems = []
    }

    /// The lists of `entries` at `level` (and what goes before their first item), as pieces.
    private static func lists(of entries: ArraySlice<ListEntry>, level: Int) -> [Piece] {
        var lists: [Piece] = []
        var first: ListEntry?
        var items: [(checked: Bool?, pieces: [Piece])] = []
        var deeper: [ListEntry] = []
        func append(_ more: [Piece]) {
            if items.isEmpty { lists += more } else { items[items.count - 1].pieces += more }
        }
        func endDeeper() {
            guard !deeper.isEmpty else { return }
            append(Self.lists(of: deeper[...], level: level + 1))
            deeper = []
        }
        func endList() {
            if let first {
                let depth = first.quote.depth
                let built = items.map { RichText.ListItem(checked: $0.checked, blocks: nest($0.pieces[...], depth: depth)) }
                lists.append(Piece(block: .list(ordered: first.ordered, start: first.start, items: built, tight: !first.isLoose), quote: first.quote))
            }
            first = nil
            items = []
        }
        for entry in entries {
            if entry.level > level {
                deeper.append(entry)
                continue
            }
            endDeeper()
            if entry.isContinuation {
                append(entry.item.blocks.map { Piece(block: $0, quote: entry.quote) })
                continue
            }
            if let current = first,
                current.ordered != entry.ordered || current.id != entry.id || current.quote.depth != entry.quote.depth
                    || entry.quote.start <= entry.quote.depth {
                endList()
            }
            if first == nil { first = entry }
            // The item's own paragraph is as deep as the list: the quotes it starts are the list's.
            let own = entry.item.blocks.map { Piece(block: $0, quote: QuotePlace(depth: entry.quote.depth)) }
            items.append((entry.item.checked, own))
        }
        endDeeper()
        endList()
        return lists
    }

    /// Where the table under way is (in a list item, in quotes), as its first cell or row says.
    private mutating func noteTablePlace() {
        guard tableRows.isEmpty, tableCells.isEmpty else { return }
        tableList = listID.map { ($0, listLevel) }
        tableQuote = quote
    }

    private mutating func flushTable() {
        if !tableCells.isEmpty {
            tableRows.append(tableCells)
            tableCells = []
        }
        defer {
            tableRows = []
            tableList = nil
        }
        guard let header = tableRows.first else { return }
        let table = RichText.Block.table(RichText.Table(alignments: Array(repeating: .none, count: header.count), rows: tableRows.map { $0.map(Self.merged) }))
        if let list = tableList, let last = listItems.last {
            listItems.append(ListEntry(
                ordered: last.ordered, start: 1, id: list.id, level: list.level, item: RichText.ListItem(blocks: [table]),
                isContinuation: true, quote: tableQuote))
            return
        }
        flushList()
        pieces.append(Piece(block: table, quote: tableQuote))
    }

    /// `inlines` without spaces at the end of the paragraph.
    private static func trimmingTrailingSpace(_ inlines: [RichText.Inline]) -> [RichText.Inline] {
        var result = inlines
        while case .text(let text)? = result.last {
            let trimmed = String(text.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            if trimmed.isEmpty { result.removeLast() } else { result[result.count - 1] = .text(trimmed); break }
        }
        return result
    }

    /// Headings are bold by their style; the runs need not say so again.
    private static func unbolded(_ inlines: [RichText.Inline]) -> [RichText.Inline] {
        inlines.flatMap { inline -> [RichText.Inline] in
            if case .bold(let inner) = inline { return inner }
            return [inline]
        }
    }

    /// Adjacent runs of the same style merged.
    private static func merged(_ inlines: [RichText.Inline]) -> [RichText.Inline] {
        var result: [RichText.Inline] = []
        for inline in inlines {
            switch (result.last, inline) {
            case (.text(let a)?, .text(let b)): result[result.count - 1] = .text(a + b)
            case (.bold(let a)?, .bold(let b)): result[result.count - 1] = .bold(merged(a + b))
            case (.italic(let a)?, .italic(let b)): result[result.count - 1] = .italic(merged(a + b))
            case (.code(let a)?, .code(let b)): result[result.count - 1] = .code(a + b)
            default: result.append(inline)
            }
        }
        return result
    }

    /// The character a Windows-1252 byte stands for.
    static func windows1252(_ byte: UInt8) -> Character {
        let high: [UInt32] = [
            0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
            0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
            0x0153, 0x9D, 0x017E, 0x0178,
        ]
        let value = (0x80...0x9F).contains(byte) ? high[Int(byte) - 0x80] : UInt32(byte)
        return Character(Unicode.Scalar(value) ?? "?")
    }
}
