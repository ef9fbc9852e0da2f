import RelayKit
import RelayEngine

/// Actions that read and write documents.
public enum DocumentActions: IntentPackage {
    public static let name = "documents"
    public static let intents: [any Intent.Type] = [
        RichTextFromMarkdown.self, MarkdownFromRichText.self, HTMLFromRichText.self, GetText.self, MakePDF.self, Convert.self,
        GetPDFPages.self, SplitPDF.self, GetLinks.self,
    ]
    public static var converters: [Converter] { DocumentConverters.all }
    public static var fileProperties: [FilePropertyReader] { DocumentConverters.fileProperties }
}

/// `rich-text-from-markdown`: parses Markdown.
struct RichTextFromMarkdown: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.getrichtextfrommarkdown", title: "Get Rich Text from Markdown", parameters: ["WFInput": "input"]),
    ]
    static let summary = "Parses Markdown (with tables, strikethrough and task lists) into rich text."
    static let examples = [
        IntentExample("- text: \"# Title\\n\\nSome *emphasis*.\"\n- rich-text-from-markdown\n- html-from-rich-text", output: "<h1>Title</h1>\n<p>Some <em>emphasis</em>.</p>"),
    ]
    static let output = OutputType.richText

    @Parameter(primary: true, input: true, summary: "The Markdown text, or a Markdown file.", access: .read) var markdown: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.richText(try MarkdownReader.richText(from: markdown)))
    }
}

/// `markdown-from-rich-text`: writes Markdown.
struct MarkdownFromRichText: Intent {
    static let summary = "Writes rich text as Markdown."
    static let examples = [
        IntentExample("- text: \"Some *emphasis* and **strength**.\"\n- rich-text-from-markdown\n- markdown-from-rich-text", output: "Some *emphasis* and **strength**."),
    ]
    static let output = OutputType.text

    @Parameter(primary: true, input: true, summary: "The rich text.") var richText: RichText

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.text(MarkdownWriter.markdown(for: richText)))
    }
}

/// `html-from-rich-text`: writes HTML.
struct HTMLFromRichText: Intent {
    static let name = "html-from-rich-text"
    static let summary = "Writes rich text as HTML: a fragment, or a whole page with 'document'."
    static let examples = [
        IntentExample("- text: \"A [link](https://example.com \\\"Example\\\").\"\n- rich-text-from-markdown\n- html-from-rich-text", output: "<p>A <a href=\"https://example.com\" title=\"Example\">link</a>.</p>"),
    ]
    static let output = OutputType.text

    @Parameter(primary: true, input: true, summary: "The rich text.") var richText: RichText
    @Parameter(summary: "Write a whole HTML page rather than a fragment.") var document: Bool = false
    @Parameter(summary: "The page's title, with 'document'.") var title: String = ""

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.text(HTMLWriter.html(for: richText, document: document, title: title)))
    }
}

/// `get-text`: the plain text of anything.
struct GetText: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.detect.text", title: "Get Text from Input", parameters: ["WFInput": "input"]),
    ]
    static let summary = "Outputs the plain text of the input: of a text, Markdown, RTF or PDF file, of rich text without styles, of any value. A link keeps its text only; get-links gives the URLs."
    static let examples = [
        IntentExample("- text: \"# Title\\n\\nSome *emphasis*.\"\n- rich-text-from-markdown\n- get-text", output: "Title\n\nSome emphasis."),
    ]
    static let output = OutputType.text

    @Parameter(primary: true, input: true, summary: "A file, rich text, or any value.", access: .read) var value: Value

    /// Asked for by name: an entity's plain-text representation, a markup file's text without
    /// its markup (Docs/Language.md, "Conversions between formats").
    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(try await value.eachItem { item in try await context.convert(item, to: .value(.text)) })
    }
}
