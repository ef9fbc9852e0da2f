import Foundation
import RelayKit

/// `get-links`: the URLs a document links to (Shortcuts' Get URLs from Input).
struct GetLinks: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.detect.link", title: "Get URLs from Input", parameters: ["WFInput": "input"]),
    ]
    static let summary =
        "Outputs the URLs the input links to, each once in the order met: link destinations in rich text, Markdown, HTML and RTF, and web addresses written out in text. Links without a scheme (relative ones such as 'notes.md') are left out."
    static let examples = [
        IntentExample(
            "- text: \"See [the map](https://example.com/map), or https://example.com/trails.\"\n- get-links",
            output: "https://example.com/map\nhttps://example.com/trails"),
    ]
    static let output = OutputType.list(of: .url)

    @Parameter(input: true, summary: "Text (read as Markdown), rich text, a document file, a URL, or a list of them.", access: .read)
    var value: Value

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        var found: [URL] = []
        var seen = Set<String>()
        for item in value.asList {
            try Task.checkCancellation()
            let destinations: [String]
            switch item {
            case .nothing: continue
            case .url(let url): destinations = [url.absoluteString]
            case .text(let text): destinations = try MarkdownReader.richText(from: text).linkDestinations
            case .richText(let rich): destinations = rich.linkDestinations
            default: destinations = try await context.convert(item, to: .value(.richText)).richTextValue().linkDestinations
            }
            for destination in destinations where seen.insert(destination).inserted {
                guard let url = URL(string: destination), let scheme = url.scheme, !scheme.isEmpty else { continue }
                found.append(url)
            }
        }
        return .value(.list(found.map(Value.url)))
    }
}

extension RichText {
    /// Every link's destination, in document order (images are not links).
    var linkDestinations: [String] {
        var found: [String] = []
        for block in blocks { Self.collect(block, into: &found) }
        return found
    }

    private static func collect(_ block: Block, into found: inout [String]) {
        switch block {
        case .heading(_, let inlines), .paragraph(let inlines): collect(inlines, into: &found)
        case .list(_, _, let items, _): for item in items { for inner in item.blocks { collect(inner, into: &found) } }
        case .quote(let inner): for block in inner { collect(block, into: &found) }
        case .table(let table): for row in table.rows { for cell in row { collect(cell, into: &found) } }
        case .code, .rule, .html: break
        }
    }

    private static func collect(_ inlines: [Inline], into found: inout [String]) {
        for inline in inlines {
            switch inline {
            case .link(let url, _, let inner):
                found.append(url)
                collect(inner, into: &found)
            case .italic(let inner), .bold(let inner), .strikethrough(let inner): collect(inner, into: &found)
            case .image(_, _, let alt): collect(alt, into: &found)
            case .text, .code, .lineBreak, .softBreak, .html: break
            }
        }
    }
}
