import Foundation
import RelayKit
import RelayEngine
import Testing

@testable import RelayActions

@Suite("RTF: Relay's writer and reader")
struct RTFTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test("a table's RTF grows with the cells it holds: one wide row over 1,000 empty rows stays small, and reads back")
    func wideTable() throws {
        let wide = Array(repeating: [RichText.Inline.text("x")], count: 2_000)
        let table = RichText.Table(alignments: [], rows: [wide] + Array(repeating: [], count: 1_000))
        let rtf = RTFWriter.rtf(for: RichText(blocks: [.table(table)]))
        #expect(rtf.utf8.count < 200_000, "\(rtf.utf8.count) bytes")
        let again = try RTFReader.richText(from: rtf)
        guard case .table(let read)? = again.blocks.first else {
            Issue.record("no table: \(again.blocks)")
            return
        }
        #expect(read.rows.first?.count == 2_000)
    }

    @Test("nested lists, an item's second paragraph and code, and rules come back from RTF as they were")
    func nestingAndRules() throws {
        let document = try MarkdownReader.richText(from: """
            - one
            - two

              second paragraph of two

                  code in two
              1. nested first
              2. nested second
                 - deeper
            - three

            ---

            after the rule
            """)
        let again = try RTFReader.richText(from: RTFWriter.rtf(for: document))
        #expect(again == document)
        #expect(again.plainText == document.plainText)
    }

    @Test("an item's paragraph after a nested list, a table in an item, a task with no text, a box that is text, a carriage return")
    func itemsHoldingMore() throws {
        let document = RichText(blocks: [
            .list(ordered: false, start: 1, items: [
                RichText.ListItem(blocks: [
                    .list(ordered: false, start: 1, items: [RichText.ListItem(blocks: [.paragraph([.text("inner")])])]),
                    .paragraph([.text("outer again")]),
                    .table(RichText.Table(alignments: [.none, .none], rows: [[[.text("a")], [.text("b")]]])),
                ]),
                RichText.ListItem(checked: true, blocks: [.code(language: nil, text: "x\r\ny\n")]),
                RichText.ListItem(blocks: [.paragraph([.text("☐ a box typed, not a task")])]),
                RichText.ListItem(blocks: [.paragraph([.text("last")])]),
            ]),
            .paragraph([.text("after")]),
        ])
        let again = try RTFReader.richText(from: RTFWriter.rtf(for: document))
        #expect(again == document)
        #expect(again.plainText == document.plainText)
    }

    @Test("a task whose text starts with a combining mark keeps its box: the mark joins the space after the box into one character")
    func taskStartingWithCombiningMark() throws {
        let document = RichText(blocks: [
            .list(ordered: false, start: 1, items: [
                RichText.ListItem(checked: false, blocks: [.paragraph([.text("\u{05C2}shin dot")])]),
                RichText.ListItem(checked: true, blocks: [.paragraph([.text("\u{0301}acute")])]),
                RichText.ListItem(blocks: [.paragraph([.text("☐\u{0301} a box with a mark, typed")])]),
            ]),
        ])
        let again = try RTFReader.richText(from: RTFWriter.rtf(for: document))
        #expect(again == document)
        #expect(again.plainText == document.plainText)
    }

    @Test("tables one right after another stay apart, in a list item and out of it")
    func adjacentTables() throws {
        func table(_ text: String) -> RichText.Block { .table(RichText.Table(alignments: [.none], rows: [[[.text(text)]]])) }
        let document = RichText(blocks: [
            .list(ordered: false, start: 1, items: [RichText.ListItem(blocks: [.paragraph([.text("x")]), table("in the item")])]),
            .list(ordered: false, start: 1, items: [
                RichText.ListItem(blocks: [.table(RichText.Table(alignments: [], rows: [[], [[.text("its first row is empty")]]]))]),
            ]),
            table("after the list"), table("right after that"),
        ])
        let again = try RTFReader.richText(from: RTFWriter.rtf(for: document))
        #expect(again == document)
    }

    @Test("lists nested deeper than RTF's nine levels come back as deep")
    func deepLists() throws {
        var block = RichText.Block.list(ordered: true, start: 1, items: [RichText.ListItem(blocks: [.paragraph([.text("deepest")])])])
        for depth in 0..<12 {
            block = .list(ordered: depth % 2 == 0, start: 1, items: [
                RichText.ListItem(blocks: [.paragraph([.text("level \(depth)")]), block]), RichText.ListItem(blocks: []),
            ])
        }
        let document = RichText(blocks: [block, .paragraph([.text("after")])])
        let again = try RTFReader.richText(from: RTFWriter.rtf(for: document))
        #expect(again == document)
    }

    @Test("lists and quotes nested as deep as HTML and Markdown may nest them come back from RTF as deep")
    func deepestListsAndQuotes() throws {
        var list = RichText.Block.list(ordered: true, start: 1, items: [RichText.ListItem(blocks: [.paragraph([.text("deepest")])])])
        var quote = RichText.Block.quote([.paragraph([.text("deepest")])])
        for depth in 1..<Limits.documentDepth {
            // The nested list is the second block of an item that has one after it, so that a list
            // read back beside the item, or in the item after it, shows.
            list = .list(ordered: true, start: 1, items: [
                RichText.ListItem(blocks: [.paragraph([.text("level \(depth)")]), list]), RichText.ListItem(blocks: [.paragraph([.text("next")])]),
            ])
            quote = .quote([.paragraph([.text("level \(depth)")]), quote])
        }
        for block in [list, quote] {
            let document = RichText(blocks: [block, .paragraph([.text("after")])])
            #expect(try RTFReader.richText(from: RTFWriter.rtf(for: document)) == document)
        }
    }

    @Test("a list that Swift code starts at Int.max or below zero is numbered within bounds by every writer", arguments: [Int.max, Int.min, -3])
    func listStartsOutOfBounds(start: Int) throws {
        let items = [RichText.ListItem(blocks: [.paragraph([.text("one")])]), RichText.ListItem(blocks: [.paragraph([.text("two")])])]
        let document = RichText(blocks: [.list(ordered: true, start: start, items: items)])
        let first = RichText.itemNumber(start: start, index: 0)
        #expect((0...RichText.largestListStart).contains(first))
        #expect(document.plainText == "\(first). one\n\(first + 1). two")
        #expect(MarkdownWriter.markdown(for: document).contains("\(first + 1). two"))
        #expect(HTMLWriter.html(for: document).contains("<ol start=\"\(first)\">"))
        let again = try RTFReader.richText(from: RTFWriter.rtf(for: document))
        #expect(again.plainText == document.plainText)
    }

    @Test("a carriage return before a line feed does not hide the line feed: code ending in CR LF, a quote and a list item holding CR LF")
    func carriageReturnBeforeLineFeed() throws {
        let code = RichText(blocks: [.code(language: nil, text: "let a = 1\r\n")])
        #expect(code.plainText == "let a = 1\r")
        #expect(MarkdownWriter.markdown(for: code) == "```\nlet a = 1\r\n```\n")
        // A paragraph of code alone reads back from RTF as a code block, with the same text.
        let inline = RichText(blocks: [.paragraph([.code("x\r")])])
        #expect(try RTFReader.richText(from: RTFWriter.rtf(for: inline)).plainText == inline.plainText)
        let quote = RichText(blocks: [.quote([.paragraph([.text("one\r"), .softBreak, .text("two")])])])
        #expect(MarkdownWriter.markdown(for: quote) == "> one\r\n> two\n")
        let list = RichText(blocks: [.list(ordered: false, start: 1, items: [RichText.ListItem(blocks: [.paragraph([.text("one\r"), .softBreak, .text("two")])])])])
        #expect(MarkdownWriter.markdown(for: list) == "- one\r\n  two\n")
    }

    @Test("quotes come back as quotes: nested, holding lists and tables, inside list items")
    func quotes() throws {
        let document = try MarkdownReader.richText(from: """
            > first *said*
            >
            > > nested
            > > - in a list
            > >
            > >   more of it
            >
            > | a | b |
            > |---|---|
            > | 1 | 2 |

            between

            - item
              > quoted in the item
              >
              > twice
            - > only a quote
            - > one quote

              > another, right after it
            """)
        let rtf = RTFWriter.rtf(for: document)
        let again = try RTFReader.richText(from: rtf)
        #expect(again == document, "\(rtf)")
        #expect(again.plainText == document.plainText)
        // Other readers skip the depth, which is all they would not understand.
        #expect(rtf.contains("{\\*\\relayquote2}"))
    }

    @Test("a table whose first row has no cells stays in the quote it is in, after a paragraph that starts a quote")
    func tableWithEmptyRowInQuote() throws {
        let table = RichText.Block.table(RichText.Table(alignments: [], rows: [[], [[.text("a")], [.text("b")]]]))
        let document = RichText(blocks: [
            .quote([.paragraph([.text("outer")]), .quote([.paragraph([.text("inner")]), table, .paragraph([.text("after")])])]),
            .quote([table]),
        ])
        let rtf = RTFWriter.rtf(for: document)
        #expect(try RTFReader.richText(from: rtf) == document, "\(rtf)")
    }

    @Test("rich text → RTF → rich text gives the same document")
    func roundTrip() throws {
        let document = try MarkdownReader.richText(from: """
            # Trails & {Braces} \\ backslash

            A *short* walk with **bold**, ~~gone~~, `code`, and [a link](https://x.org/?a=1&b=2).\\
            Unicode: café, Ελληνικά, 東京, 🥾 boots.

            ## Lists

            - one
            - two **bold**

            1. first
            2. second

            - [x] done
            - [ ] todo

            ```
            let x = 1
            let y = 2
            ```

            | Trail | km |
            |---|---|
            | Ridge | 4.2 |
            """)
        let rtf = RTFWriter.rtf(for: document)
        #expect(rtf.hasPrefix("{\\rtf1\\ansi"))
        let isSevenBit = rtf.utf8.allSatisfy { $0 < 128 }
        #expect(isSevenBit, "RTF output is 7-bit")
        let read = try RTFReader.richText(from: rtf)
        #expect(read == document, "\(rtf)")
    }

    @Test("a document LibreOffice wrote reads back to the right structure and text")
    func libreOffice() throws {
        // Made once with: soffice --headless --infilter="HTML (StarWriter)" --convert-to rtf libreoffice-source.html
        let rtf = try String(contentsOf: Self.fixtures.appendingPathComponent("libreoffice.rtf"), encoding: .utf8)
        let document = try RTFReader.richText(from: rtf)
        #expect(document.blocks.first == .heading(level: 1, [.text("Trail Notes")]))
        guard case .paragraph(let intro) = document.blocks[1] else { Issue.record("no paragraph"); return }
        #expect(intro.contains(.bold([.text("Ridge Loop")])))
        #expect(intro.contains(.italic([.text("moderate")])))
        #expect(intro.contains(.strikethrough([.text("closed")])))
        #expect(RichText.plainText(of: intro).contains("Café au lait — naïve “quotes” and Ελληνικά."))
        #expect(document.blocks[2] == .heading(level: 2, [.text("Packing list")]))
        guard case .list(false, _, let bullets, _) = document.blocks[3], case .list(true, 1, let steps, _) = document.blocks[4] else {
            Issue.record("lists missing: \(document.blocks)")
            return
        }
        #expect(bullets.count == 2 && steps.count == 2)
        #expect(steps[1].blocks == [.paragraph([.text("Follow the signs")])])
        guard case .paragraph(let more) = document.blocks[5] else { Issue.record("no link paragraph"); return }
        #expect(more.contains(.link(url: "https://trails.example.com/trail/1", [.text("the trail page")])))
        guard case .table(let table) = document.blocks[6] else { Issue.record("no table"); return }
        #expect(table.rows.count == 2)
        #expect(RichText.plainText(of: table.rows[1][0]) == "Ridge Loop")
    }

    @Test("escapes, \\uc skipping, hex bytes, and text that is not RTF")
    func details() throws {
        let rtf = #"{\rtf1\ansi{\fonttbl{\f0 Arial;}}\uc2 caf\u233\'e9\'e9 \'93q\'94 \{x\}\par}"#
        #expect(try RTFReader.richText(from: rtf).blocks == [.paragraph([.text("café “q” {x}")])])
        #expect(throws: RTFReader.ReadError.self) { try RTFReader.richText(from: "plain text") }
        #expect(try RTFReader.richText(from: "{\\rtf1 unclosed {\\b bold").plainText == "unclosed bold")
    }

    @Test("RTF files convert: to rich text, to text, into PDFs; rich text converts to RTF")
    func conversions() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-rtf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("libreoffice.rtf"), to: folder.appendingPathComponent("notes.rtf"))
        let run = { (steps: String) async throws -> Value in
            // make-pdf writes its PDF beside the file it reads.
            try await RelayRuntimeTests.run(steps, path: folder.appendingPathComponent("main.yaml").path, granted: writing(folder))
        }
        #expect(try await run("- read-file: notes.rtf\n- get-text").textValue.hasPrefix("Trail Notes\n\nThe Ridge Loop is moderate"))
        #expect(try await run("- read-file: notes.rtf\n- make-pdf\n- get-details: pages") == 1)
        let made = try await run("- text: \"# Title\\n\\n**bold** é\"\n- rich-text-from-markdown\n- convert: rtf\n- get-text")
        #expect(made == "Title\n\nbold é")
    }
}
