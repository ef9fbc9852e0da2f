import CGraphics
import Foundation
import RelayKit
import RelayEngine

/// Writes a PDF with cairo's PDF surface: rich text laid out by pango (wrapping, styles, font
/// fallback) and paginated between lines; images on pages of their own, scaled to fit.
final class PDFWriter {
    /// A4 in points, with 2 cm margins.
    static let pageWidth = 595.28, pageHeight = 841.89, margin = 56.69
    private var contentWidth: Double { Self.pageWidth - 2 * Self.margin }
    private var bottom: Double { Self.pageHeight - Self.margin }

    private final class Sink {
        var data = Data()
    }

    private let sink = Sink()
    private let surface: OpaquePointer
    private let context: OpaquePointer
    /// Where the next block starts on the current page.
    private var y = PDFWriter.margin
    private var pageHasContent = false

    init(title: String) throws {
        try LazyLibraries.openGraphics()
        let surface = cairo_pdf_surface_create_for_stream({ closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque(), Self.pageWidth, Self.pageHeight)
        guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let context = cairo_create(surface) else {
            throw IntentError("cannot start a PDF")
        }
        self.surface = surface
        self.context = context
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Relay")
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Ends the document and returns its bytes.
    func finish() throws -> Data {
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw IntentError("cannot write the PDF: \(String(cString: cairo_status_to_string(status)))")
        }
        return withExtendedLifetime(sink) { sink.data }
    }

    private func newPage() {
        cairo_show_page(context)
        y = Self.margin
        pageHasContent = false
    }

    // MARK: - Images

    /// Puts `image` on a page of its own, scaled down to fit within the margins.
    func add(_ image: RasterImage) {
        if pageHasContent { newPage() }
        let scale = min(1, contentWidth / Double(image.width), (bottom - Self.margin) / Double(image.height))
        cairo_save(context)
        cairo_translate(context, Self.margin, Self.margin)
        cairo_scale(context, scale, scale)
        cairo_set_source_surface(context, image.surface, 0, 0)
        cairo_paint(context)
        cairo_restore(context)
        pageHasContent = true
        newPage()
    }

    // MARK: - PDFs

    /// Copies every page of `pdf` (or those in `pages`, counted from 0), each at its own size, as
    /// vectors and text.
    func add(_ pdf: PDFReader, pages: Range<Int>? = nil) {
        if pageHasContent { newPage() }
        for index in (pages ?? 0..<pdf.pageCount).clamped(to: 0..<pdf.pageCount) {
            let size = pdf.pageSize(index)
            cairo_pdf_surface_set_size(surface, size.width, size.height)
            cairo_save(context)
            pdf.render(page: index, into: context)
            cairo_restore(context)
            pageHasContent = true
            newPage()
        }
        cairo_pdf_surface_set_size(surface, Self.pageWidth, Self.pageHeight)
    }

    // MARK: - Rich text

    /// Lays out `richText` from the current position, breaking pages between lines.
    func add(_ richText: RichText) {
        for block in richText.blocks { add(block, indent: 0) }
        if pageHasContent { y += 6 }
    }

    private func add(_ block: RichText.Block, indent: Double) {
        switch block {
        case .heading(let level, let inlines):
            let sizes = [1: 20.0, 2: 16, 3: 13.5, 4: 12, 5: 11, 6: 11]
            if pageHasContent { y += sizes[level, default: 11] * 0.6 }
            place("<b>\(PangoMarkup.markup(for: inlines))</b>", size: sizes[level, default: 11], indent: indent, keepWithNext: true)
            y += 4
        case .paragraph(let inlines):
            place(PangoMarkup.markup(for: inlines), size: 11, indent: indent)
            y += 7
        case .quote(let blocks):
            for inner in blocks { add(inner, indent: indent + 18) }
        case .code(_, let text):
            let trimmed = RichText.withoutFinalLineFeed(text)
            place("<tt>\(PangoMarkup.escape(trimmed))</tt>", size: 9.5, indent: indent + 8, wrap: false)
            y += 7
        case .rule:
            if y + 12 > bottom { newPage() }
            cairo_set_source_rgb(context, 0.6, 0.6, 0.6)
            cairo_set_line_width(context, 0.75)
            cairo_move_to(context, Self.margin + indent, y + 6)
            cairo_line_to(context, Self.pageWidth - Self.margin, y + 6)
            cairo_stroke(context)
            cairo_set_source_rgb(context, 0, 0, 0)
            y += 14
        case .html:
            // A PDF cannot hold raw HTML: it is left out.
            break
        case .list(let ordered, let start, let items, _):
            for (index, item) in items.enumerated() {
                let box = item.checked.map { $0 ? "☑ " : "☐ " } ?? ""
                let marker = (ordered ? "\(RichText.itemNumber(start: start, index: index))." : "•") + " " + box
                for (position, inner) in item.blocks.enumerated() {
                    if position == 0, case .paragraph(let inlines) = inner {
                        place(PangoMarkup.escape(marker) + PangoMarkup.markup(for: inlines), size: 11, indent: indent + 14, hanging: 14)
                        y += 3
                    } else {
                        add(inner, indent: indent + 28)
                    }
                }
            }
            y += 4
        case .table(let table):
            let columns = max(1, table.rows.map(\.count).max() ?? 1)
            let width = (contentWidth - indent) / Double(columns)
            for (row, cells) in table.rows.enumerated() {
                let markup = cells.map { PangoMarkup.markup(for: $0) }
                placeRow(markup.map { row == 0 ? "<b>\($0)</b>" : $0 }, alignments: table.alignments, columnWidth: width, indent: indent)
            }
            y += 7
        }
    }

    /// Lays out `markup` at the content width (less `indent`) and places it line by line.
    private func place(_ markup: String, size: Double, indent: Double, hanging: Double = 0, wrap: Bool = true, keepWithNext: Bool = false) {
        guard let layout = makeLayout(markup, size: size, width: contentWidth - indent) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        if !wrap { pango_layout_set_width(layout, -1) }
        if hanging > 0 {
            pango_layout_set_indent(layout, Int32(-hanging * Double(PANGO_SCALE)))
        }
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        let height = Double(logical.height) / Double(PANGO_SCALE)
        // A heading is not left alone at the bottom of a page.
        if keepWithNext && y + height * 2.5 > bottom && pageHasContent { newPage() }
        placeLines(of: layout, x: Self.margin + indent - hanging)
    }

    private func placeRow(_ cells: [String], alignments: [RichText.Table.Alignment], columnWidth: Double, indent: Double) {
        let layouts = cells.compactMap { makeLayout($0, size: 10, width: columnWidth - 6) }
        for (column, layout) in layouts.enumerated() where column < alignments.count {
            switch alignments[column] {
            case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
            case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
            case .left, .none: break
            }
        }
        defer { layouts.forEach { g_object_unref(UnsafeMutableRawPointer($0)) } }
        let height = layouts.map { layout -> Double in
            var logical = PangoRectangle()
            pango_layout_get_extents(layout, nil, &logical)
            return Double(logical.height) / Double(PANGO_SCALE)
        }.max() ?? 0
        if y + height > bottom { newPage() }
        for (column, layout) in layouts.enumerated() {
            cairo_move_to(context, Self.margin + indent + Double(column) * columnWidth, y)
            pango_cairo_show_layout(context, layout)
        }
        y += height + 3
        pageHasContent = true
    }

    private func makeLayout(_ markup: String, size: Double, width: Double) -> OpaquePointer? {
        guard let layout = pango_cairo_create_layout(context) else { return nil }
        let font = pango_font_description_from_string("DejaVu Sans, Sans \(size)")
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        pango_layout_set_width(layout, Int32(width * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_markup(layout, markup, -1)
        return layout
    }

    /// Draws each line of `layout`, starting a new page when the next line would cross the bottom margin.
    private func placeLines(of layout: OpaquePointer, x: Double) {
        guard let iterator = pango_layout_get_iter(layout) else { return }
        defer { pango_layout_iter_free(iterator) }
        let scale = Double(PANGO_SCALE)
        var offset = 0.0
        var layoutHeight = 0.0
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &logical)
            let lineTop = Double(logical.y) / scale
            let lineHeight = Double(logical.height) / scale
            if y + (lineTop - offset) + lineHeight > bottom && (pageHasContent || lineTop > offset) {
                newPage()
                offset = lineTop
            }
            let baseline = Double(pango_layout_iter_get_baseline(iterator)) / scale
            cairo_move_to(context, x + Double(logical.x) / scale, y + baseline - offset)
            pango_cairo_show_layout_line(context, pango_layout_iter_get_line_readonly(iterator))
            pageHasContent = true
            layoutHeight = lineTop + lineHeight
        } while pango_layout_iter_next_line(iterator) != 0
        y += layoutHeight - offset
    }
}

/// Rich text runs as pango markup.
enum PangoMarkup {
    static func markup(for inlines: [RichText.Inline]) -> String {
        inlines.map { inline -> String in
            switch inline {
            case .text(let text): escape(text)
            case .italic(let inner): "<i>\(markup(for: inner))</i>"
            case .bold(let inner): "<b>\(markup(for: inner))</b>"
            case .strikethrough(let inner): "<s>\(markup(for: inner))</s>"
            case .code(let code): "<tt>\(escape(code))</tt>"
            case .link(_, _, let inner): "<span foreground=\"#1a4fb3\" underline=\"single\">\(markup(for: inner))</span>"
            // An image is shown as its description, as a link to it is; one with none as nothing.
            case .image(_, _, let alt):
                RichText.hasContent(alt) ? "<span foreground=\"#1a4fb3\" underline=\"single\">\(markup(for: alt))</span>" : ""
            case .lineBreak: "\n"
            case .softBreak: " "
            case .html: ""
            }
        }.joined()
    }

    /// Escapes text for pango markup, which takes the same entities as HTML.
    static func escape(_ text: String) -> String { HTMLWriter.escape(text) }
}
