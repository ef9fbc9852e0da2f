import Foundation
import RelayKit

/// `make-pdf`: one PDF from texts, rich texts, documents and images, in order.
struct MakePDF: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.makepdf", title: "Make PDF", parameters: ["WFInput": "input"]),
    ]
    static let name = "make-pdf"
    static let summary = "Makes one PDF of the inputs in order: text and rich text laid out on A4 pages, images on pages of their own, PDFs' pages copied."
    static let examples = [
        IntentExample("- text: \"# Trip\\n\\nDay one: the ridge.\"\n- rich-text-from-markdown\n- make-pdf: { title: Trip }\n- get-text", output: "Trip\nDay one: the ridge."),
    ]
    static let output = OutputType.file

    /// Entities are handed over as the first of these they offer (a trail as its PDF sheet, a photo as its image).
    @Parameter(
        input: true, summary: "Texts, rich texts, Markdown or text files, PNG or JPEG images, and PDFs; entities as their PDF, image or text.",
        accepts: [.pdf, .image, .html, .rtf, .markdown, .text], access: .read)
    var items: [Value]
    @Parameter(primary: true, summary: "Where to write the PDF; by default next to the first input file, or in the run's scratch folder.", access: .write)
    var to: FileReference?
    @Parameter(summary: Overwrite.summary) var overwrite: Overwrite = .refuse
    @Parameter(summary: "The document title in the PDF's metadata.") var title: String = "Document"

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard !items.isEmpty else { throw IntentError("there is nothing to put in the PDF: the input is empty") }
        let data: Data
        if let single = try singlePDF() { data = single } else { data = try await render(context) }
        let path = try destination(context)
        if to == nil, !items.contains(where: { if case .file = $0 { true } else { false } }) {
            // In the run's scratch folder: a new file of its own, no change to undo.
            try await changing { () throws(FileOperationError) in try AtomicFile.write(data, to: path) }
            return .value(.file(FileReference(path: path)))
        }
        let written = try await changing { () throws(FileOperationError) in
            try await context.fileChanges.write(data, to: path, overwrite: overwrite)
        }
        return .value(.file(FileReference(path: written)))
    }

    /// One PDF alone is copied as it is: its pages, fonts and metadata untouched. Re-drawing it
    /// would replace the fonts it does not embed by whatever fonts this machine has.
    private func singlePDF() throws -> Data? {
        guard items.count == 1, case .file(let file) = items[0], file.exists, !file.isFolder,
              file.contentType.conforms(to: .pdf) else { return nil }
        do throws(ValueAccessError) { return try file.contents() } catch { throw IntentError(error.message) }
    }

    private func render(_ context: any IntentContext) async throws -> Data {
        let writer = try PDFWriter(title: title)
        for item in items { try await add(item, to: writer, context) }
        return try writer.finish()
    }

    /// PDFs' pages are copied and images placed on pages of their own; anything else is laid out
    /// as the rich text the run's conversions make of it.
    private func add(_ item: Value, to writer: PDFWriter, _ context: any IntentContext) async throws {
        switch item {
        case .nothing: return
        case .file(let file):
            guard file.exists, !file.isFolder else { throw IntentError("no such file: '\(file.shownPath)'") }
            let type = file.contentType
            if type.conforms(to: .pdf) || type.conforms(to: .image) {
                let data: Data
                do throws(ValueAccessError) { data = try file.contents() } catch { throw IntentError(error.message) }
                if type.conforms(to: .pdf) {
                    writer.add(try PDFReader(data, name: file.name))
                } else {
                    writer.add(try RasterImage.decode(data, type: type, name: file.name))
                }
                return
            }
        default: break
        }
        writer.add(try await context.convert(item, to: .value(.richText)).richTextValue())
    }

    private func destination(_ context: any IntentContext) throws -> String {
        if let to {
            return try FileDestination.path(for: to, named: "\(title).pdf")
        }
        if case .file(let first)? = items.first(where: { if case .file = $0 { true } else { false } }) {
            let folder = (first.path as NSString).deletingLastPathComponent
            let base = (first.name as NSString).deletingPathExtension
            return (folder as NSString).appendingPathComponent("\(base).pdf")
        }
        do {
            return try context.scratchFolder.path(forNewFile: "\(title).pdf")
        } catch {
            throw IntentError(error.message)
        }
    }
}
