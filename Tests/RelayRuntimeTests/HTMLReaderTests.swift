import Foundation
import RelayKit
import RelayEngine
import Testing

@testable import RelayActions

@Suite("HTML into rich text (libxml2)")
struct HTMLReaderTests {
    @Test("what Relay's HTML writer writes reads back to the same rich text")
    func roundTrip() throws {
        let document = try MarkdownReader.richText(from: """
            # Trails & \\<Paths\\>

            A *short* walk with **bold**, ~~gone~~, `code`, and [a link](https://x.org/?a=1&b=2).\\
            Next line: café, Ελληνικά.

            1. first
            2. second

            - [x] done
            - [ ] todo

            > quoted

            ```swift
            let x = 1 < 2
            ```

            ---

            | Trail | km |
            |:--|--:|
            | Ridge | 4.2 |
            """)
        let html = HTMLWriter.html(for: document, document: true, title: "T")
        let again = try HTMLReader.richText(from: html)
        for (index, block) in document.blocks.enumerated() where index >= again.blocks.count || again.blocks[index] != block {
            Issue.record("block \(index): \(block) became \(index < again.blocks.count ? "\(again.blocks[index])" : "nothing")")
        }
        #expect(again == document, "\(html)")
    }

    @Test("elements nested past what libxml2 reads (256) are an error that says so, not text lost without a word")
    func deepElements() throws {
        let read = try HTMLReader.richText(from: String(repeating: "<div>", count: 200) + "hello")
        #expect(read.plainText.contains("hello"))
        do {
            let lost = try HTMLReader.richText(from: String(repeating: "<div>", count: 300) + "hello")
            Issue.record("300 nested divs read as '\(lost.plainText)'")
        } catch {
            #expect("\(error)".contains("more than 256 levels deep"), "\(error)")
        }
        // The next reading starts afresh.
        #expect(try HTMLReader.richText(from: "<p>after</p>").plainText.contains("after"))
    }

    @Test("quotes and lists nest at most 100 levels deep, as in Markdown: deeper is an error that says so")
    func deepNesting() throws {
        for (open, element) in [("<ol><li>x", "list"), ("<blockquote>x", "quote")] {
            var depth = 0
            var block = try #require(HTMLReader.richText(from: String(repeating: open, count: Limits.documentDepth)).blocks.first)
            while true {
                depth += 1
                switch block {
                case .list(_, _, let items, _): if let inner = items.first?.blocks.last, items.first?.blocks.count == 2 { block = inner; continue }
                case .quote(let blocks): if let inner = blocks.last, blocks.count == 2 { block = inner; continue }
                default: Issue.record("a \(element) holds \(block)")
                }
                break
            }
            #expect(depth == Limits.documentDepth, "\(element)")
            #expect(throws: (any Error).self) { try HTMLReader.richText(from: String(repeating: open, count: Limits.documentDepth + 1)) }
            do {
                _ = try HTMLReader.richText(from: String(repeating: open, count: 10_000))
                Issue.record("10,000 nested \(element)s were read")
            } catch {
                #expect("\(error)".contains("the HTML nests quotes and lists more than 100 levels deep"), "\(error)")
            }
        }
    }

    @Test("a block with nothing to show is no block, in HTML and in Markdown, so RTF loses nothing")
    func emptyBlocks() throws {
        let html = try HTMLReader.richText(from: """
            <p>a</p><pre></pre><pre><code>\n</code></pre><ul></ul><table><tr><td></td></tr></table>
            <p><b></b><a href="x"></a></p><blockquote><p></p></blockquote><p>b</p>
            """)
        let markdown = try MarkdownReader.richText(from: "a\n\n```swift\n```\n\n>\n\n> >\n\nb\n")
        for document in [html, markdown] {
            #expect(document.blocks == [.paragraph([.text("a")]), .paragraph([.text("b")])])
            #expect(try RTFReader.richText(from: RTFWriter.rtf(for: document)) == document)
        }
        // A code block of blank lines is kept (it shows as a gap), as are an empty heading and a rule.
        let kept = try MarkdownReader.richText(from: "```\n\n\n```\n\n#\n\n---\n")
        #expect(kept.blocks == [.code(language: nil, text: "\n\n"), .heading(level: 1, []), .rule])
        #expect(try RTFReader.richText(from: RTFWriter.rtf(for: kept)).plainText == kept.plainText)
    }

    @Test("real-world markup is repaired: unclosed tags, loose text, scripts, white space")
    func messy() throws {
        let html = """
            <html><head><title>x</title><script>alert(1)</script></head><body>
            <div>Loose <b>text</b>
              across   lines</div>
            <p>unclosed paragraph<p>second<ul><li>one<li>two</ul>
            <img src="a.png" alt="a picture"> <span>end</span>
            </body></html>
            """
        let document = try HTMLReader.richText(from: html)
        #expect(document.blocks == [
            .paragraph([.text("Loose "), .bold([.text("text")]), .text(" across lines")]),
            .paragraph([.text("unclosed paragraph")]),
            .paragraph([.text("second")]),
            .list(ordered: false, start: 1, items: [
                RichText.ListItem(blocks: [.paragraph([.text("one")])]), RichText.ListItem(blocks: [.paragraph([.text("two")])]),
            ]),
            .paragraph([.text("a picture end")]),
        ])
    }

    @Test("HTML files convert to rich text, text and PDF in workflows")
    func workflows() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "<h1>Title</h1><p>Some <em>text</em>.</p>".write(to: folder.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
        let run = { (steps: String) async throws -> Value in
            // make-pdf writes its PDF beside the file it reads.
            try await RelayRuntimeTests.run(steps, path: folder.appendingPathComponent("main.yaml").path, granted: writing(folder))
        }
        #expect(try await run("- read-file: page.html\n- get-text") == "Title\n\nSome text.")
        #expect(try await run("- read-file: page.html\n- convert: rich-text\n- markdown-from-rich-text") == "# Title\n\nSome *text*.\n")
        #expect(try await run("- read-file: page.html\n- make-pdf\n- get-details: pages") == 1)
    }
}
