import CGraphics
import Foundation
import RelayKit
import RelayEngine

/// `overlay-image`: one image drawn over another, as a watermark or a badge.
struct OverlayImage: Intent {
    static let summary =
        "Draws an image (a logo, a watermark) over the input image at a corner, an edge or the centre, optionally scaled and see-through, in place or to 'to'."
    static let examples = [
        IntentExample("- read-file: photo.jpg\n- overlay-image: { overlay: logo.png, position: bottom-right, margin: 20, opacity: 0.6, to: marked/ }"),
    ]
    static let output = OutputType.file

    /// Where the overlay goes.
    static let positions = ["top-left", "top", "top-right", "left", "center", "right", "bottom-left", "bottom", "bottom-right"]

    @Parameter(input: true, summary: "The image file to draw on (PNG or JPEG).", accepts: [.image], access: .write, readOnlyWhenGiven: "to")
    var image: FileReference
    @Parameter(primary: true, summary: "The image to draw over it (PNG or JPEG; a PNG's transparency is kept).", accepts: [.image], access: .read)
    var overlay: FileReference
    @Parameter(summary: "Where the overlay goes.", choices: positions) var position: String = "bottom-right"
    @Parameter(summary: "Pixels between the overlay and the edges it is placed by.") var margin: Int = 0
    @Parameter(summary: "How opaque the overlay is: 1 fully, 0.5 half see-through.") var opacity: Double = 1
    @Parameter(summary: "The overlay's width in pixels, its height scaled to match; its own size if not given.") var width: Int?
    @Parameter(summary: "Where to write the result instead of replacing the input: a path or a folder.", access: .write) var to: FileReference?
    @Parameter(summary: Overwrite.summary) var overwrite: Overwrite = .refuse

    /// The image is locked from reading to writing, so runs at the same time take turns.
    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard opacity.isFinite, (0...1).contains(opacity) else { throw IntentError("'opacity' is from 0 to 1, not \(NumberFormatting.text(opacity))") }
        guard margin >= 0, margin <= Limits.imageSide else { throw IntentError("'margin' is from 0 to \(Limits.imageSide) pixels, not \(margin)") }
        if let width, width < 1 || width > Limits.imageSide {
            throw IntentError("'width' is from 1 to \(Limits.imageSide) pixels, not \(width)")
        }
        return try await FileLock.exclusive(image.path) {
            let (base, type) = try loadImage(image)
            let (top, _) = try loadImage(overlay)
            let scale = width.map { Double($0) / Double(top.width) } ?? 1
            let shownWidth = Double(top.width) * scale, shownHeight = Double(top.height) * scale
            let place = position.lowercased()
            let left: Double =
                place.hasSuffix("left") ? Double(margin)
                : place.hasSuffix("right") ? Double(base.width) - shownWidth - Double(margin)
                : (Double(base.width) - shownWidth) / 2
            let upper: Double =
                place.hasPrefix("top") ? Double(margin)
                : place.hasPrefix("bottom") ? Double(base.height) - shownHeight - Double(margin)
                : (Double(base.height) - shownHeight) / 2
            let drawn = try base.drawn(width: base.width, height: base.height) { _ in }
            guard let cairo = cairo_create(drawn.surface) else { throw IntentError("cannot draw the image") }
            defer { cairo_destroy(cairo) }
            cairo_translate(cairo, left.rounded(), upper.rounded())
            cairo_scale(cairo, scale, scale)
            cairo_set_source_surface(cairo, top.surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cairo), scale == 1 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_GOOD)
            cairo_paint_with_alpha(cairo, opacity)
            cairo_surface_flush(drawn.surface)
            return .value(try await saveImage(drawn, as: type, to: to, defaultPath: image.path, overwrite: overwrite, source: image, context: context))
        }
    }
}
