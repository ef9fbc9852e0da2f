import Foundation
import RelayKit
import Testing

/// The package wire format carries every number, NaN and the infinities included (JSON has none).
@Suite("Package wire values")
struct WireValueTests {
    @Test("NaN, Infinity and -Infinity cross the wire and come back", arguments: [Double.nan, .infinity, -.infinity, 0, -1.5, 1e300])
    func numbers(number: Double) async throws {
        let line = JSONWriter.string(for: WireValue.encode(.number(number)), pretty: false)
        let back = try await WireValue.decode(try JSONReader.value(from: line), in: EntityCatalog())
        guard case .number(let decoded) = back else {
            Issue.record("not a number: \(back)")
            return
        }
        #expect(decoded == number || (decoded.isNaN && number.isNaN), "\(line)")
    }

    @Test("rich text crosses the wire block by block, tables, task lists and links included, as it was")
    func richText() async throws {
        let text = RichText(blocks: [
            .heading(level: 2, [.text("Ridge "), .bold([.italic([.text("Loop")])])]),
            .list(ordered: true, start: 3, items: [RichText.ListItem(checked: true, blocks: [.paragraph([.link(url: "https://x.example", title: "X", [.text("x")])])])], tight: false),
            .quote([.code(language: nil, text: "let a = 1\n"), .rule]),
            .table(RichText.Table(alignments: [.left, .none], rows: [[[.text("a")], [.image(source: "p.png", title: nil, alt: [.text("p")])]]])),
            .paragraph([.text("one"), .lineBreak, .text("two"), .softBreak, .strikethrough([.code("c")]), .html("<b>")]),
            .html("<hr>"),
        ])
        let line = JSONWriter.string(for: WireValue.encode(.richText(text)), pretty: false)
        #expect(try await WireValue.decode(try JSONReader.value(from: line), in: EntityCatalog()) == .richText(text), "\(line)")
    }

    @Test("rich text that nests too deep or has a part of the wrong shape is refused, naming what was wrong")
    func badRichText() async throws {
        var deep: Value = ["paragraph", []]
        for _ in 0..<150 { deep = ["quote", [deep]] }
        for (wire, message) in [
            (["rich-text": [deep]] as Value, "rich text nests quotes and lists deeper than 100 levels"),
            (["rich-text": [["heading", "one", []]]], "rich text wants a whole number, not text 'one'"),
            (["rich-text": [["marquee", []]]], "'marquee' with 1 parts is no rich text block"),
            (["rich-text": "{\\rtf1 x}"], "rich text is a list of blocks"),
        ] {
            let error = await #expect(throws: WireError.self) { try await WireValue.decode(wire, in: EntityCatalog()) }
            #expect(error?.message == message)
        }
    }

    @Test("a table's alignments past its widest row are dropped: 200,000 of them over empty rows take no room")
    func tableAlignments() async throws {
        let wire: Value = ["rich-text": [["table", .list(Array(repeating: "left", count: 200_000)), [[[["text", "a"]], [["text", "b"]]], [], []]]]]
        guard case .richText(let text) = try await WireValue.decode(wire, in: EntityCatalog()), case .table(let table)? = text.blocks.first else {
            Issue.record("not a table")
            return
        }
        #expect(table.alignments == [.left, .left])
        #expect(table.rows.count == 3)
    }
}
