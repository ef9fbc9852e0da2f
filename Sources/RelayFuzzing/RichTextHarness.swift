import RelayActions
import RelayKit

/// RTF, Markdown and HTML: what reads into rich text, written as RTF and read again, keeps its text.
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
        guard let richText = try? HTMLReader.richText(from: String(decoding: bytes, as: UTF8.self)) else { return nil }
        return keepsText(richText, "HTML")
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
        return nil
    }
}
