import RelayLanguage
import RelayRuntime
import Foundation
import RelayKit
import RelayEngine
import Testing

@testable import RelayActions

@Suite("Rich text: Markdown in, HTML and Markdown out")
struct DocumentTests {
    static let sample = """
        # Trails & *Paths*

        A *short* walk with **bold**, ~~gone~~, `code`, <angle> and [a link](https://x.org/?a=1&b=2).\\
        Next line, with literal \\*stars\\* and a_b.

        1. first
        2. second
           - nested

        - [x] done
        - [ ] todo

        | Trail | km |
        |:--|--:|
        | Ridge | 4.2 |

        > quoted

        ```swift
        let x = 1 < 2
        ```

        ---
        """

    @Test("Markdown parses into blocks and styled runs")
    func structure() throws {
        let document = try MarkdownReader.richText(from: Self.sample)
        guard case .heading(1, let title) = document.blocks[0] else { Issue.record("no heading"); return }
        #expect(title == [.text("Trails & "), .italic([.text("Paths")])])
        guard case .list(true, 1, let ordered, _) = document.blocks[2] else { Issue.record("no ordered list"); return }
        guard case .list(false, _, let nested, _)? = ordered[1].blocks.last else { Issue.record("no nested list"); return }
        #expect(nested.count == 1)
        guard case .list(false, _, let tasks, _) = document.blocks[3] else { Issue.record("no task list"); return }
        #expect(tasks.map(\.checked) == [true, false])
        guard case .table(let table) = document.blocks[4] else { Issue.record("no table"); return }
        #expect(table.alignments == [.left, .right])
        #expect(table.rows.count == 2)
        guard case .code("swift", "let x = 1 < 2\n") = document.blocks[6] else { Issue.record("no code block"); return }
        #expect(document.blocks.last == .rule)
    }

    @Test("HTML escapes text and writes every element")
    func html() throws {
        let html = HTMLWriter.html(for: try MarkdownReader.richText(from: Self.sample))
        for fragment in [
            "<h1>Trails &amp; <em>Paths</em></h1>", "<strong>bold</strong>", "<del>gone</del>", "<code>code</code>",
            "<angle>", "<a href=\"https://x.org/?a=1&amp;b=2\">a link</a>", "<br />", "<ol>\n<li>first</li>",
            "<input type=\"checkbox\" checked=\"\" disabled=\"\" /> done", "<th align=\"left\">Trail</th>",
            "<td align=\"right\">4.2</td>", "<blockquote>\n<p>quoted</p>\n</blockquote>",
            "<pre><code class=\"language-swift\">let x = 1 &lt; 2\n</code></pre>", "<hr />",
        ] {
            #expect(html.contains(fragment), "\(fragment)")
        }
        let page = HTMLWriter.html(for: RichText(plainText: "hi"), document: true, title: "T<1>")
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("<title>T&lt;1&gt;</title>") && page.contains("<p>hi</p>"))
    }

    @Test("Markdown written from rich text reads back to the same rich text")
    func roundTrip() throws {
        let document = try MarkdownReader.richText(from: Self.sample)
        let written = MarkdownWriter.markdown(for: document)
        let again = try MarkdownReader.richText(from: written)
        for (index, block) in document.blocks.enumerated() where index >= again.blocks.count || again.blocks[index] != block {
            Issue.record("block \(index): \(block) became \(index < again.blocks.count ? "\(again.blocks[index])" : "nothing")")
        }
        #expect(again == document, "\(written)")
    }

    static let fidelity = """
        See ![a *trail* map](maps/ridge%20loop.png "The ridge") and [the page](<https://x.org/a b> "Ridge Loop").

        <div class="note">
        raw <b>HTML</b>
        </div>

        Some <span>inline</span> HTML.

        - tight
        - list

        1. loose

        2. list

        ```ruby startline=3
        puts 1
        ```
        """

    @Test("Markdown keeps images, titles, raw HTML, tight and loose lists and the fence's language, in HTML and Markdown out")
    func fidelity() throws {
        let document = try MarkdownReader.richText(from: Self.fidelity)
        guard case .paragraph(let first) = document.blocks[0] else { Issue.record("no paragraph"); return }
        #expect(first.contains(.image(source: "maps/ridge%20loop.png", title: "The ridge", alt: [.text("a "), .italic([.text("trail")]), .text(" map")])))
        #expect(document.blocks[1] == .html("<div class=\"note\">\nraw <b>HTML</b>\n</div>\n"))
        guard case .paragraph(let inline) = document.blocks[2] else { Issue.record("no paragraph"); return }
        #expect(inline == [.text("Some "), .html("<span>"), .text("inline"), .html("</span>"), .text(" HTML.")])
        guard case .list(false, _, _, true) = document.blocks[3], case .list(true, _, _, false) = document.blocks[4] else {
            Issue.record("tight and loose: \(document.blocks[3]), \(document.blocks[4])")
            return
        }
        #expect(document.blocks[5] == .code(language: "ruby", text: "puts 1\n"))
        let html = HTMLWriter.html(for: document)
        for fragment in [
            #"<img src="maps/ridge%20loop.png" alt="a trail map" title="The ridge" />"#,
            "<div class=\"note\">\nraw <b>HTML</b>\n</div>", "Some <span>inline</span> HTML.", "<li>tight</li>",
            "<li>\n<p>loose</p>\n</li>", #"<code class="language-ruby">"#,
        ] {
            #expect(html.contains(fragment), "\(fragment) in \(html)")
        }
        // A destination with a space is percent-encoded in HTML, and written in <…> in Markdown.
        let linked = try MarkdownReader.richText(from: "[x](<https://x.org/a b> \"T\")")
        #expect(HTMLWriter.html(for: linked) == "<p><a href=\"https://x.org/a%20b\" title=\"T\">x</a></p>\n")
        // A combining mark after a quote or a bracket does not hide it from escaping: the title
        // cannot end its attribute, nor the text open a tag.
        let marked = RichText(blocks: [
            .paragraph([.link(url: "https://x.org", title: "a\"\u{301} onmouseover=\"x", [.text("<\u{301}b>&\u{301}")])])
        ])
        #expect(
            HTMLWriter.html(for: marked)
                == "<p><a href=\"https://x.org\" title=\"a&quot;\u{301} onmouseover=&quot;x\">&lt;\u{301}b&gt;&amp;\u{301}</a></p>\n")
        #expect(try MarkdownReader.richText(from: MarkdownWriter.markdown(for: linked)) == linked)
        #expect(try MarkdownReader.richText(from: MarkdownWriter.markdown(for: document)) == document)
        // RTF keeps links' titles and lists' looseness, shows an image as a link to it, and leaves raw HTML out.
        let rtf = RTFWriter.rtf(for: document)
        let back = try RTFReader.richText(from: rtf)
        #expect(!rtf.contains("<div"))
        #expect(back.plainText.contains("See a trail map and the page."), "\(back.plainText)")
        guard case .paragraph(let links) = back.blocks[0] else { Issue.record("no paragraph from RTF"); return }
        #expect(links.contains { if case .link("https://x.org/a b", "Ridge Loop", _) = $0 { true } else { false } }, "\(links)")
        #expect(back.blocks.contains { if case .list(true, _, _, false) = $0 { true } else { false } })
        #expect(document.plainText.contains("See a trail map and the page.") && !document.plainText.contains("<div"))
    }

    @Test("plain text: paragraphs from blank lines; rich text's plain text drops styles")
    func plainText() throws {
        let rich = RichText(plainText: "one\ntwo\n\n\nthree")
        #expect(rich.blocks == [.paragraph([.text("one"), .lineBreak, .text("two")]), .paragraph([.text("three")])])
        #expect(rich.plainText == "one\ntwo\n\nthree")
        // Line ends from Windows and classic Mac OS, and a line of spaces, break lines and paragraphs the same way.
        #expect(RichText(plainText: "one\r\ntwo\r\n  \r\nthree\r\n").blocks == rich.blocks)
        #expect(RichText(plainText: "one\rtwo\r\rthree").blocks == rich.blocks)
        let document = try MarkdownReader.richText(from: "# Hi\n\nA *b* c\n\n- x\n- y\n")
        #expect(document.plainText == "Hi\n\nA b c\n\n• x\n• y")
    }

    @Test("the actions, through a workflow")
    func actions() async throws {
        let html = try await RelayRuntimeTests.run("- text: \"# Trails\\n\\nA *short* walk.\"\n- rich-text-from-markdown\n- html-from-rich-text")
        #expect(html == "<h1>Trails</h1>\n<p>A <em>short</em> walk.</p>\n")
        let text = try await RelayRuntimeTests.run("- text: \"# T\\n\\n**b**\"\n- rich-text-from-markdown\n- get-text")
        #expect(text == "T\n\nb")
        let type = try await RelayRuntimeTests.run("- text: plain\n- rich-text-from-markdown\n- get-type")
        #expect(type == "rich-text")
    }
}

@Suite("Conversions through the graph, in workflows")
struct ConversionTests {
    private func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-convert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return folder
    }

    private func run(_ steps: String, in folder: URL) async throws -> Value {
        // make-pdf writes its PDF beside the file it reads.
        try await RelayRuntimeTests.run(steps, path: folder.appendingPathComponent("main.yaml").path, granted: writing(folder))
    }

    @Test("convert: Markdown file → PDF (with pages), text → PDF, number → PDF, Markdown file → rich text")
    func convert() async throws {
        let root = try folder(["doc.md": "# Title\n\nSome *text*.\n"])
        #expect(try await run("- read-file: doc.md\n- convert: pdf\n- text: \"${previous.type} ${previous.pages}\"", in: root) == "com.adobe.pdf 1")
        #expect(try await run("- text: words\n- convert: pdf\n- get-details: pages", in: root) == 1)
        #expect(try await run("- number: 5\n- convert: pdf\n- get-details: extension", in: root) == "pdf")
        #expect(try await run("- read-file: doc.md\n- convert: rich-text\n- get-type", in: root) == "rich-text")
        #expect(try await run("- read-file: doc.md\n- convert: rich-text\n- html-from-rich-text", in: root) == "<h1>Title</h1>\n<p>Some <em>text</em>.</p>\n")
    }

    @Test("a parameter that wants text takes a PDF through the graph")
    func implicit() async throws {
        let root = try folder([:])
        #expect(try await run("- text: \"hello pdf\"\n- convert: pdf\n- change-case: upper\n- trim-text", in: root) == "HELLO PDF")
    }

    @Test("unreachable targets and unknown names are clear errors")
    func errors() async throws {
        let root = try folder(["doc.md": "x"])
        do {
            _ = try await run("- read-file: doc.md\n- convert: png", in: root)
            Issue.record("expected an error")
        } catch let error as RuntimeError {
            #expect(error.message.contains("is net.daringfireball.markdown, and no conversion leads from it to public.png"))
        }
        do {
            _ = try await run("- text: x\n- convert: nonsense", in: root)
            Issue.record("expected an error")
        } catch let error as RuntimeError {
            #expect(error.message.contains("neither a type, an entity type nor a content type"))
        }
    }
}

/// An action that takes only PDFs, to see files converted on their way in.
private struct PageCount: Intent {
    static let summary = "Counts a PDF's pages."
    static let output = OutputType.number
    @Parameter(input: true, summary: "A PDF.", accepts: [.pdf]) var document: FileReference
    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(try Value.file(document).property("pages"))
    }
}

private enum PageCountPackage: IntentPackage {
    static let name = "test"
    static let intents: [any Intent.Type] = [PageCount.self]
}

@Suite("Parameters that accept content types")
struct AcceptedTypesTests {
    @Test("a Markdown file given to a parameter accepting PDFs is converted on the way in")
    func converted() async throws {
        var withTest = registry
        try withTest.register(PageCountPackage.self, prefixed: true)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-accepts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "# One\n\ntext\n".write(to: folder.appendingPathComponent("a.md"), atomically: true, encoding: .utf8)
        let loader = WorkflowLoader(registry: withTest)
        let file = SourceFile(path: folder.appendingPathComponent("main.yaml").path, text: "steps:\n  - read-file: a.md\n  - page-count\n")
        let workflow = try #require(loader.load(file).workflow)
        let environment = RunEnvironment(
            interaction: ScriptedInteraction(), output: CollectedOutput(), loader: loader, gate: gate(for: file.path))
        #expect(try await Interpreter(workflow: workflow, environment: environment).run(input: .nothing) == 1)
    }
}
