import Foundation
import RelayActions
import RelayKit
import RelayEngine

/// RTF, Markdown and HTML: what reads into rich text, written as RTF and read again, keeps its text;
/// its text escaped for HTML holds no markup and unescapes to itself.
enum RichTextHarness {
    static func checkRTF(_ bytes: [UInt8]) -> String? {
        guard let richText = try? RTFReader.richText(from: String(decoding: bytes, as: UTF8.self)) else { return nil }
        return keepsText(richText, "RTF")
    }

    static func checkMarkdown(_ bytes: [UInt8]) -> String? {
        guard let richText = try? MarkdownReader.richText(from: String(decoding: bytes, as: UTF8.self)) else { return nil }
        return keepsText(richText, "Markdown")
    }

    static func checkHTML(_ bytes: [UInt8]) -> String? {
        if let problem = checkPageLinks(bytes) { return problem }
        guard let richText = try? HTMLReader.richText(from: String(decoding: bytes, as: UTF8.self)) else { return nil }
        return keepsText(richText, "HTML")
    }

    /// A page's images and feeds: at most the limit of each, each once, every one absolute with a
    /// scheme the page actions fetch.
    private static func checkPageLinks(_ bytes: [UInt8]) -> String? {
        guard let page = URL(string: "https://example.com/a/page.html"),
            let links = try? PageLinks.links(in: Data(bytes), page: page, limit: 8)
        else { return nil }
        for (kind, urls, schemes) in [("image", links.images, ["http", "https", "data"]), ("feed", links.feeds, ["http", "https"])] {
            if urls.count > 8 { return "\(urls.count) \(kind)s past a limit of 8" }
            if Set(urls.map(\.absoluteString)).count != urls.count { return "a \(kind) twice: \(urls)" }
            if let odd = urls.first(where: { !schemes.contains($0.scheme?.lowercased() ?? "") }) { return "a \(kind) URL with no scheme fetched: \(odd)" }
        }
        return nil
    }

    private static func keepsText(_ richText: RichText, _ format: String) -> String? {
        let rtf = RTFWriter.rtf(for: richText)
        do {
            let again = try RTFReader.richText(from: rtf)
            guard again.plainText == richText.plainText else {
                return "\(format) read as \(String(reflecting: richText.plainText)); its RTF reads back as \(String(reflecting: again.plainText))"
                    + "\n  read: \(richText.blocks)\n  back: \(again.blocks)"
            }
        } catch {
            return "the RTF written for \(format) does not read back: \(error)"
        }
        return escapesText(richText, format)
    }

    /// The HTML written for it (a whole page, its text as the title) is made, and its text escaped
    /// has no `<`, `>` or `"` left, whatever follows them, and unescapes to itself.
    private static func escapesText(_ richText: RichText, _ format: String) -> String? {
        let text = richText.plainText
        _ = HTMLWriter.html(for: richText, document: true, title: text)
        let escaped = HTMLWriter.escape(text)
        if escaped.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "\"") }) {
            return "\(format)'s text escaped for HTML keeps markup: \(String(reflecting: escaped))"
        }
        // Unit by unit (`.literal`): a combining mark after an entity must not hide it.
        var back = escaped
        for (entity, character) in [("&quot;", "\""), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&")] {
            back = back.replacingOccurrences(of: entity, with: character, options: .literal)
        }
        guard back == text else {
            return "\(format)'s text escaped for HTML unescapes to \(String(reflecting: back)), not \(String(reflecting: text))"
        }
        return nil
    }
}
