import CGraphics
import Foundation
import RelayKit

/// A PDF opened with poppler: its pages, their text, and drawing them into another PDF.
final class PDFReader {
    private let document: OpaquePointer

    /// Opens the PDF in `data`; `name` is for messages.
    init(_ data: Data, name: String) throws {
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        var error: UnsafeMutablePointer<GError>?
        guard let document = poppler_document_new_from_bytes(bytes, nil, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw IntentError("cannot read '\(name)' as a PDF: \(reason)")
        }
        self.document = document
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(document)) }

    var pageCount: Int { Int(poppler_document_get_n_pages(document)) }

    /// Runs `body` with page `index` (0-based), releasing it after.
    private func withPage<T>(_ index: Int, _ body: (OpaquePointer) -> T) -> T? {
        guard let page = poppler_document_get_page(document, Int32(index)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        return body(page)
    }

    /// The text of every page, pages separated by form feeds as `pdftotext` does.
    var text: String {
        (0..<pageCount).compactMap { index in
            withPage(index) { page -> String in
                guard let text = poppler_page_get_text(page) else { return "" }
                defer { g_free(text) }
                return String(cString: text)
            }
        }.joined(separator: "\u{0C}")
    }

    /// The size of page `index` in points.
    func pageSize(_ index: Int) -> (width: Double, height: Double) {
        withPage(index) { page in
            var width = 0.0, height = 0.0
            poppler_page_get_size(page, &width, &height)
            return (width, height)
        } ?? (0, 0)
    }

    /// Draws page `index` into `context` at the origin, as vectors and text (not pixels).
    func render(page index: Int, into context: OpaquePointer) {
        _ = withPage(index) { poppler_page_render_for_printing($0, context) }
    }
}
