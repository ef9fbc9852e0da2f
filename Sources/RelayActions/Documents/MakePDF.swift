import Foundation
import RelayKit

/// `make-pdf`: one PDF from texts, rich texts, documents and images, in order.
struct MakePDF: Intent {
    static let name = "make-pdf"
    static let summary = "Makes one PDF of the inputs in order: text and rich text laid out on A4 pages, images on pages of their own, PDFs' pages copied."
    static let output = ValueType.file

    /// Entities are handed over as the first of these they offer (a trail as its PDF sheet, a photo as its image).
    @Parameter(
        input: true, summary: "Texts, rich texts, Markdown or text files, PNG or JPEG images, and PDFs; entities as their PDF, image or text.",
        accepts: [.pdf, .image, .html, .rtf, .markdown, .text], access: .read)
    var items: [Value]
    @Parameter(summary: "Where to write the PDF; by default next to the first input file, or in the run's scratch folder.", access: .write)
    var to: FileReference?
    @Parameter(summary: "Replace an existing file at 'to'.") var overwrite: Bool = false
    @Parameter(summary: "The document title in the PDF's metadata.") var title: String = "Document"

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard !items.isEmpty else { throw IntentError("there is nothing to put in the PDF: the input is empty") }
        let data = try singlePDF() ?? render()
        let path = try destination(context)
        do throws(FileOperationError) {
            if to == nil, !items.contains(where: { if case .file = $0 { true } else { false } }) {
                try AtomicFile.write(data, to: path)
            } else {
                try await context.fileChanges.write(data, to: path)
            }
        } catch {
            throw IntentError(error.message)
        }
        return .value(.file(FileReference(path: path)))
    }

    /// One PDF alone is copied as it is: its pages, fonts and metadata untouched. Re-drawing it
    /// would replace the fonts it does not embed by whatever fonts this machine has.
    private func singlePDF() throws -> Data? {
        guard items.count == 1, case .file(let file) = items[0], file.exists, !file.isFolder,
              file.contentType.conforms(to: .pdf) else { return nil }
        do throws(ValueAccessError) { return try file.contents() } catch { throw IntentError(error.message) }
    }

    private func render() throws -> Data {
        let writer = try PDFWriter(title: title)
        for item in items { try add(item, to: writer) }
        return try writer.finish()
    }

    private func add(_ item: Value, to writer: PDFWriter) throws {
        switch item {
        case .richText(let richText): writer.add(richText)
        case .file(let file):
            guard file.exists, !file.isFolder else { throw IntentError("no such file: '\(file.path)'") }
            let type = file.contentType
            let contents = { () throws -> Data in
                do throws(ValueAccessError) { return try file.contents() } catch { throw IntentError(error.message) }
            }
            if type.conforms(to: .pdf) {
                writer.add(try PDFReader(try contents(), name: file.name))
            } else if type.conforms(to: .image) {
                writer.add(try RasterImage.decode(try contents(), type: type, name: file.name))
            } else if type.conforms(to: .html) {
                writer.add(try HTMLReader.richText(from: String(decoding: try contents(), as: UTF8.self)))
            } else if type.conforms(to: .rtf) {
                writer.add(try DocumentConverters.rtfFile(item))
            } else if type.conforms(to: .markdown) {
                writer.add(try MarkdownReader.richText(from: String(decoding: try contents(), as: UTF8.self)))
            } else if type.conforms(to: .text), !type.conforms(to: .rtf) {
                writer.add(RichText(plainText: String(decoding: try contents(), as: UTF8.self)))
            } else {
                throw IntentError("make-pdf cannot add '\(file.name)' (\(type.identifier)) yet")
            }
        case .nothing: break
        default: writer.add(RichText(plainText: item.textValue))
        }
    }

    private func destination(_ context: any IntentContext) throws -> String {
        if let to {
            let path = try FileDestination.path(for: to, named: "\(title).pdf")
            guard overwrite || !FileManager.default.fileExists(atPath: path) else {
                throw IntentError("'\(path)' already exists; set overwrite: true to replace it")
            }
            return path
        }
        if case .file(let first)? = items.first(where: { if case .file = $0 { true } else { false } }) {
            let folder = (first.path as NSString).deletingLastPathComponent
            let base = (first.name as NSString).deletingPathExtension
            var candidate = (folder as NSString).appendingPathComponent("\(base).pdf")
            var number = 2
            while FileManager.default.fileExists(atPath: candidate) {
                candidate = (folder as NSString).appendingPathComponent("\(base) \(number).pdf")
                number += 1
            }
            return candidate
        }
        do {
            return try context.scratchFolder.path(forNewFile: "\(title).pdf")
        } catch {
            throw IntentError(error.message)
        }
    }
}
