import CGraphics
import Foundation
import RelayKit

/// A PDF opened with poppler: its pages, their text, and drawing them into another PDF.
/// poppler is opened on first use (`SharedObject`), not linked.
final class PDFReader {
    private let functions: PopplerFunctions
    private let document: OpaquePointer

    /// Opens the PDF in `data`; `name` is for messages.
    init(_ data: Data, name: String) throws {
        functions = try PopplerFunctions.shared()
        try LazyLibraries.openGraphics()
        let bytes = data.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        var error: UnsafeMutablePointer<GError>?
        guard let document = functions.newDocument(bytes, nil, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            throw IntentError("cannot read '\(name)' as a PDF: \(reason)")
        }
        self.document = document
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(document)) }

    var pageCount: Int { Int(functions.pageCount(document)) }

    /// Runs `body` with page `index` (0-based), releasing it after.
    private func withPage<T>(_ index: Int, _ body: (OpaquePointer) -> T) -> T? {
        guard let page = functions.page(document, Int32(index)) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(page)) }
        return body(page)
    }

    /// The text of every page, pages separated by form feeds as `pdftotext` does, with the
    /// typesetter's ligatures (ﬁ, ﬄ) as the letters they join, so that "office" is found.
    var text: String {
        (0..<pageCount).compactMap { index in
            withPage(index) { page -> String in
                guard let text = functions.pageText(page) else { return "" }
                defer { g_free(text) }
                return Self.withoutLigatures(String(cString: text))
            }
        }.joined(separator: "\u{0C}")
    }

    /// `text` with the Latin ligatures (U+FB00 to U+FB06) as their letters.
    static func withoutLigatures(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { (0xFB00...0xFB06).contains($0.value) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0xFB00...0xFB06).contains(scalar.value) {
                result.append(contentsOf: String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// The size of page `index` in points.
    func pageSize(_ index: Int) -> (width: Double, height: Double) {
        withPage(index) { page in
            var width = 0.0, height = 0.0
            functions.pageSize(page, &width, &height)
            return (width, height)
        } ?? (0, 0)
    }

    /// Draws page `index` into `context` at the origin, as vectors and text (not pixels).
    func render(page index: Int, into context: OpaquePointer) {
        _ = withPage(index) { functions.render($0, context) }
    }
}

/// The poppler-glib functions Relay calls, looked up once.
private struct PopplerFunctions: @unchecked Sendable {
    typealias NewDocument = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?) -> OpaquePointer?
    typealias PageCount = @convention(c) (OpaquePointer?) -> Int32
    typealias Page = @convention(c) (OpaquePointer?, Int32) -> OpaquePointer?
    typealias PageText = @convention(c) (OpaquePointer?) -> UnsafeMutablePointer<CChar>?
    typealias PageSize = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?) -> Void
    typealias Render = @convention(c) (OpaquePointer?, OpaquePointer?) -> Void

    let newDocument: NewDocument
    let pageCount: PageCount
    let page: Page
    let pageText: PageText
    let pageSize: PageSize
    let render: Render

    private static let library = SharedObject(
        names: ["libpoppler-glib.so.8", "libpoppler-glib.so", "libpoppler-glib.dylib", "/opt/homebrew/lib/libpoppler-glib.dylib"],
        purpose: "reading PDFs")
    private static let lock = NSLock()
    nonisolated(unsafe) private static var loaded: PopplerFunctions?

    static func shared() throws -> PopplerFunctions {
        lock.lock()
        defer { lock.unlock() }
        if let loaded { return loaded }
        let functions = PopplerFunctions(
            newDocument: try library.function("poppler_document_new_from_bytes", as: NewDocument.self),
            pageCount: try library.function("poppler_document_get_n_pages", as: PageCount.self),
            page: try library.function("poppler_document_get_page", as: Page.self),
            pageText: try library.function("poppler_page_get_text", as: PageText.self),
            pageSize: try library.function("poppler_page_get_size", as: PageSize.self),
            render: try library.function("poppler_page_render_for_printing", as: Render.self))
        loaded = functions
        return functions
    }
}
