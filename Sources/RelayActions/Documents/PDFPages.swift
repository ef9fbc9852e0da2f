import Foundation
import RelayKit

/// Reads a PDF file's pages, or explains why it cannot.
private func loadPDF(_ file: FileReference) throws -> PDFReader {
    guard file.exists, !file.isFolder else { throw IntentError("no such PDF file: '\(file.shownPath)'") }
    guard file.contentType.conforms(to: .pdf) else { throw IntentError("'\(file.name)' is \(file.contentType.identifier), not a PDF") }
    let data: Data
    do throws(ValueAccessError) { data = try file.contents() } catch { throw IntentError(error.message) }
    return try PDFReader(data, name: file.name)
}

/// A PDF of `pages` of `pdf`, in the run's scratch folder, named after `file`.
private func pagesFile(_ pdf: PDFReader, _ pages: Range<Int>, of file: FileReference, suffix: String, _ context: any IntentContext) throws -> Value {
    let writer = try PDFWriter(title: DocumentConverters.baseName(file))
    writer.add(pdf, pages: pages)
    return try DocumentConverters.scratchFile(try writer.finish(), named: "\(DocumentConverters.baseName(file)) \(suffix).pdf", context)
}

/// `get-pdf-pages`: some pages of a PDF.
struct GetPDFPages: Intent {
    static let name = "get-pdf-pages"
    static let summary =
        "Outputs a PDF of some pages of the input PDF, from 'from' to 'to' (1-based, both included; negative counts from the end), in the run's scratch folder."
    static let examples = [
        IntentExample("- read-file: report.pdf\n- get-pdf-pages: { from: 2, to: 3 }\n- save-file: chapter.pdf"),
    ]
    static let output = OutputType.file

    @Parameter(input: true, summary: "The PDF file.", accepts: [.pdf], access: .read) var pdf: FileReference
    @Parameter(summary: "The first page, 1-based; -1 is the last.") var from: Int = 1
    @Parameter(summary: "The last page (included); the last page of all if not given.") var to: Int?

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let reader = try loadPDF(pdf)
        let count = reader.pageCount
        func index(_ page: Int) -> Int { page < 0 ? count + page : page - 1 }
        let first = index(from), last = index(to ?? count)
        guard from != 0, to != 0, (0..<count).contains(first), (0..<count).contains(last), first <= last else {
            throw IntentError("pages \(from) to \(to.map(String.init) ?? "the end") are not pages of '\(pdf.name)', which has \(count) page\(count == 1 ? "" : "s")")
        }
        return .value(try pagesFile(reader, first..<(last + 1), of: pdf, suffix: "pages \(first + 1)-\(last + 1)", context))
    }
}

/// `split-pdf`: a PDF a page at a time.
struct SplitPDF: Intent {
    static let name = "split-pdf"
    static let summary = "Splits the input PDF into one PDF a page (or every 'pages' pages), in the run's scratch folder; outputs the list."
    static let examples = [
        IntentExample("- read-file: scans.pdf\n- split-pdf\n- count"),
    ]
    static let output = OutputType.list(of: .file)

    @Parameter(input: true, summary: "The PDF file.", accepts: [.pdf], access: .read) var pdf: FileReference
    @Parameter(primary: true, summary: "How many pages each part has.") var pages: Int = 1

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard pages >= 1 else { throw IntentError("'pages' is 1 or more, not \(pages)") }
        let reader = try loadPDF(pdf)
        let count = reader.pageCount
        var parts: [Value] = []
        var start = 0
        while start < count {
            try Task.checkCancellation()
            let end = count - start > pages ? start + pages : count
            parts.append(try pagesFile(reader, start..<end, of: pdf, suffix: end - start == 1 ? "page \(start + 1)" : "pages \(start + 1)-\(end)", context))
            await context.reportProgress(Double(end) / Double(count), "page \(end) of \(count)")
            start = end
        }
        return .value(.list(parts))
    }
}
