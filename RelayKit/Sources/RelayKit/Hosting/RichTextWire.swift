/// Rich text on the package wire: its blocks and inlines as JSON arrays whose first item names
/// the kind (`["heading", 1, [inlines]]`, `["text", "Hi"]`), read back with the nesting bounded by
/// `Limits.documentDepth` (Docs/PackageProtocol.md, "Values").
enum RichTextWire {
    static func encode(_ richText: RichText) -> Value { .list(richText.blocks.map(encode)) }

    static func decode(_ value: Value) throws(WireError) -> RichText {
        guard case .list(let blocks) = value else { throw WireError("rich text is a list of blocks") }
        return RichText(blocks: try blocks.map { block throws(WireError) in try self.block(block, depth: 0) })
    }

    private static func encode(_ block: RichText.Block) -> Value {
        switch block {
        case .heading(let level, let inlines): ["heading", .number(Double(level)), encode(inlines)]
        case .paragraph(let inlines): ["paragraph", encode(inlines)]
        case .list(let ordered, let start, let items, let tight):
            [
                "list", .boolean(ordered), .number(Double(start)), .boolean(tight),
                .list(items.map { item in .list([item.checked.map(Value.boolean) ?? .nothing, .list(item.blocks.map(encode))]) }),
            ]
        case .quote(let blocks): ["quote", .list(blocks.map(encode))]
        case .code(let language, let text): ["code", language.map(Value.text) ?? .nothing, .text(text)]
        case .rule: ["rule"]
        case .table(let table):
            ["table", .list(table.alignments.map { .text(alignmentName($0)) }), .list(table.rows.map { row in .list(row.map(encode)) })]
        case .html(let text): ["html", .text(text)]
        }
    }

    private static func encode(_ inlines: [RichText.Inline]) -> Value { .list(inlines.map(encode)) }

    private static func encode(_ inline: RichText.Inline) -> Value {
        switch inline {
        case .text(let text): ["text", .text(text)]
        case .italic(let inner): ["italic", encode(inner)]
        case .bold(let inner): ["bold", encode(inner)]
        case .strikethrough(let inner): ["strikethrough", encode(inner)]
        case .code(let text): ["code", .text(text)]
        case .link(let url, let title, let inner): ["link", .text(url), title.map(Value.text) ?? .nothing, encode(inner)]
        case .image(let source, let title, let alt): ["image", .text(source), title.map(Value.text) ?? .nothing, encode(alt)]
        case .lineBreak: ["line-break"]
        case .softBreak: ["soft-break"]
        case .html(let text): ["html", .text(text)]
        }
    }

    private static func alignmentName(_ alignment: RichText.Table.Alignment) -> String {
        switch alignment {
        case .none: "none"
        case .left: "left"
        case .center: "center"
        case .right: "right"
        }
    }

    /// The parts of a block or inline: its kind and what follows it. Blocks (quotes and lists)
    /// nest at most `Limits.documentDepth` levels, as in a document Relay reads; inlines as deep
    /// as the JSON that carries them.
    private static func parts(_ value: Value, blockDepth depth: Int?) throws(WireError) -> (String, [Value]) {
        if let depth, depth >= Limits.documentDepth { throw WireError("rich text nests quotes and lists deeper than \(Limits.documentDepth) levels") }
        guard case .list(let items) = value, case .text(let kind)? = items.first else {
            throw WireError("a rich text block or inline is a list starting with its kind, not \(value.briefDescription)")
        }
        return (kind, Array(items.dropFirst()))
    }

    private static func text(_ value: Value) throws(WireError) -> String {
        guard case .text(let text) = value else { throw WireError("rich text wants a text, not \(value.briefDescription)") }
        return text
    }

    private static func optionalText(_ value: Value) throws(WireError) -> String? { value.isNothing ? nil : try text(value) }

    private static func whole(_ value: Value) throws(WireError) -> Int {
        guard case .number(let number) = value, let whole = Int(exactly: number) else {
            throw WireError("rich text wants a whole number, not \(value.briefDescription)")
        }
        return whole
    }

    private static func list(_ value: Value) throws(WireError) -> [Value] {
        guard case .list(let items) = value else { throw WireError("rich text wants a list, not \(value.briefDescription)") }
        return items
    }

    private static func block(_ value: Value, depth: Int) throws(WireError) -> RichText.Block {
        let (kind, rest) = try parts(value, blockDepth: depth)
        func inlines(_ value: Value) throws(WireError) -> [RichText.Inline] {
            try list(value).map { item throws(WireError) in try inline(item) }
        }
        func blocks(_ value: Value) throws(WireError) -> [RichText.Block] {
            try list(value).map { item throws(WireError) in try block(item, depth: depth + 1) }
        }
        switch (kind, rest.count) {
        case ("heading", 2): return .heading(level: min(max(try whole(rest[0]), 1), 6), try inlines(rest[1]))
        case ("paragraph", 1): return .paragraph(try inlines(rest[0]))
        case ("list", 4):
            guard case .boolean(let ordered) = rest[0], case .boolean(let tight) = rest[2] else { break }
            let items = try list(rest[3]).map { item throws(WireError) -> RichText.ListItem in
                let fields = try list(item)
                guard fields.count == 2 else { throw WireError("a rich text list item is [checked, blocks]") }
                let checked: Bool?
                switch fields[0] {
                case .nothing: checked = nil
                case .boolean(let flag): checked = flag
                default: throw WireError("a list item's checked is true, false or null")
                }
                return RichText.ListItem(checked: checked, blocks: try blocks(fields[1]))
            }
            return .list(ordered: ordered, start: min(max(try whole(rest[1]), 0), RichText.largestListStart), items: items, tight: tight)
        case ("quote", 1): return .quote(try blocks(rest[0]))
        case ("code", 2): return .code(language: try optionalText(rest[0]), text: try text(rest[1]))
        case ("rule", 0): return .rule
        case ("table", 2):
            let alignments = try list(rest[0]).map { item throws(WireError) -> RichText.Table.Alignment in
                switch try text(item) {
                case "left": .left
                case "center": .center
                case "right": .right
                default: .none
                }
            }
            let rows = try list(rest[1]).map { row throws(WireError) in try list(row).map { cell throws(WireError) in try inlines(cell) } }
            return .table(RichText.Table(alignments: alignments, rows: rows))
        case ("html", 1): return .html(try text(rest[0]))
        default: break
        }
        throw WireError("'\(kind)' with \(rest.count) parts is no rich text block")
    }

    private static func inline(_ value: Value) throws(WireError) -> RichText.Inline {
        let (kind, rest) = try parts(value, blockDepth: nil)
        func inlines(_ value: Value) throws(WireError) -> [RichText.Inline] {
            try list(value).map { item throws(WireError) in try inline(item) }
        }
        switch (kind, rest.count) {
        case ("text", 1): return .text(try text(rest[0]))
        case ("italic", 1): return .italic(try inlines(rest[0]))
        case ("bold", 1): return .bold(try inlines(rest[0]))
        case ("strikethrough", 1): return .strikethrough(try inlines(rest[0]))
        case ("code", 1): return .code(try text(rest[0]))
        case ("link", 3): return .link(url: try text(rest[0]), title: try optionalText(rest[1]), try inlines(rest[2]))
        case ("image", 3): return .image(source: try text(rest[0]), title: try optionalText(rest[1]), alt: try inlines(rest[2]))
        case ("line-break", 0): return .lineBreak
        case ("soft-break", 0): return .softBreak
        case ("html", 1): return .html(try text(rest[0]))
        default: throw WireError("'\(kind)' with \(rest.count) parts is no rich text inline")
        }
    }
}
