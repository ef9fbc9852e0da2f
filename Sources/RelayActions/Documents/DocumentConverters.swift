import Foundation
import RelayKit
import RelayEngine

/// The document conversions Relay offers the converter graph (Docs/Language.md, "Conversions between formats"), and the PDF `pages` property.
enum DocumentConverters {
    static let all: [Converter] = [
        Converter(from: .value(.any), to: .value(.text), lossy: true) { value, _ in .text(value.textValue) },
        Converter(from: .file(.plainText), to: .value(.text), lossy: false) { value, _ in
            .text(try value.coerced(to: .text).textValue)
        },
        Converter(from: .value(.text), to: .value(.richText), lossy: false) { value, _ in
            .richText(RichText(plainText: value.textValue))
        },
        Converter(from: .value(.richText), to: .value(.text), lossy: true) { value, _ in
            .text(try value.richTextValue().plainText)
        },
        Converter(from: .file(.markdown), to: .value(.richText), lossy: false) { value, _ in
            .richText(try MarkdownReader.richText(from: try value.coerced(to: .text).textValue))
        },
        Converter(from: .file(.html), to: .value(.richText), lossy: false) { value, _ in
            .richText(try HTMLReader.richText(from: try value.coerced(to: .text).textValue))
        },
        Converter(from: .file(.rtf), to: .value(.richText), lossy: false) { value, _ in
            .richText(try rtfFile(value))
        },
        Converter(from: .value(.richText), to: .file(.rtf), lossy: false) { value, context in
            try scratchFile(Data(RTFWriter.rtf(for: try value.richTextValue()).utf8), named: "Document.rtf", context)
        },
        Converter(from: .file(.pdf), to: .value(.text), lossy: true) { value, _ in
            let file = try value.fileValue()
            return .text(try PDFReader(try file.contents(), name: file.name).text)
        },
        Converter(from: .value(.richText), to: .file(.pdf), lossy: false) { value, context in
            let writer = try PDFWriter(title: "Document")
            writer.add(try value.richTextValue())
            return try scratchFile(try writer.finish(), named: "Document.pdf", context)
        },
        Converter(from: .value(.richText), to: .file(.html), lossy: false) { value, context in
            let html = HTMLWriter.html(for: try value.richTextValue(), document: true, title: "Document")
            return try scratchFile(Data(html.utf8), named: "Document.html", context)
        },
        Converter(from: .file(.image), to: .file(.pdf), lossy: false) { value, context in
            let file = try value.fileValue()
            let writer = try PDFWriter(title: file.name)
            writer.add(try RasterImage.decode(try file.contents(), type: file.contentType, name: file.name))
            return try scratchFile(try writer.finish(), named: baseName(file) + ".pdf", context)
        },
    ]

    static let fileProperties = [
        FilePropertyReader(contentType: .pdf, name: "pages") { file in
            .number(Double(try PDFReader(try file.contents(), name: file.name).pageCount))
        }
    ]

    /// The rich text of an RTF file value.
    static func rtfFile(_ value: Value) throws -> RichText {
        let file = try value.fileValue()
        let data = try file.contents()
        do {
            return try RTFReader.richText(from: String(decoding: data, as: UTF8.self))
        } catch {
            throw IntentError("cannot read '\(file.name)' as RTF: \(error.message)")
        }
    }

    /// Writes a made file into the run's scratch folder (not the user's folders: nothing to undo).
    static func scratchFile(_ data: Data, named name: String, _ context: any IntentContext) throws -> Value {
        let path = try context.scratchFolder.path(forNewFile: name)
        try AtomicFile.write(data, to: path)
        return .file(FileReference(path: path))
    }

    static func baseName(_ file: FileReference) -> String {
        (file.name as NSString).deletingPathExtension
    }
}
