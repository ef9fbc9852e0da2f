import Foundation
import RelayKit
import Testing

@testable import RelayActions

@Suite("HTML into rich text (libxml2)")
struct HTMLReaderTests {
    @Test("what Relay's HTML writer writes reads back to the same rich text")
    func roundTrip() throws {
        let document = try MarkdownReader.richText(from: """
            # Trails & <Paths>

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
        #expect(try HTMLReader.richText(from: html) == document, "\(html)")
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
