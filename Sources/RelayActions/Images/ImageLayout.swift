import CGraphics
import Foundation
import RelayKit
import RelayEngine

/// `crop-image`: a rectangle of an image.
struct CropImage: Intent {
    static let summary =
        "Crops image files to a rectangle: 'x' and 'y' (pixels from the top left, 0 by default), 'width' and 'height', in place or to 'to'."
    static let examples = [
        IntentExample("- read-file: photo.jpg\n- crop-image: { x: 100, y: 50, width: 800, height: 600, to: cropped/ }"),
    ]
    static let output = OutputType.file

    @Parameter(input: true, summary: "The image file (PNG or JPEG).", accepts: [.image], access: .write, readOnlyWhenGiven: "to") var image: FileReference
    @Parameter(summary: "Pixels from the left edge where the crop starts.") var x: Int = 0
    @Parameter(summary: "Pixels from the top edge where the crop starts.") var y: Int = 0
    @Parameter(summary: "The crop's width in pixels; to the right edge if not given.") var width: Int?
    @Parameter(summary: "The crop's height in pixels; to the bottom edge if not given.") var height: Int?
    @Parameter(summary: "Where to write the result instead of replacing the input: a path or a folder.", access: .write) var to: FileReference?
    @Parameter(summary: Overwrite.summary) var overwrite: Overwrite = .refuse

    /// The image is locked from reading to writing, so runs at the same time take turns.
    func perform(_ context: any IntentContext) async throws -> IntentResult {
        try await FileLock.exclusive(image.path) {
            let (source, type) = try loadImage(image)
            // Compared without adding, so that no number at its limit can overflow.
            guard x >= 0, y >= 0 else {
                throw IntentError("the crop at (\(x), \(y)) is not inside '\(image.name)', which is \(source.width)×\(source.height): 'x' and 'y' are 0 or more")
            }
            let cropWidth = width ?? (source.width - x), cropHeight = height ?? (source.height - y)
            guard cropWidth > 0, cropHeight > 0, x < source.width, y < source.height,
                cropWidth <= source.width - x, cropHeight <= source.height - y
            else {
                throw IntentError(
                    "the crop \(cropWidth)×\(cropHeight) at (\(x), \(y)) is not inside '\(image.name)', which is \(source.width)×\(source.height)")
            }
            let cropped = try source.drawn(width: cropWidth, height: cropHeight) { context in
                cairo_translate(context, -Double(x), -Double(y))
            }
            return .value(try await saveImage(cropped, as: type, to: to, defaultPath: image.path, overwrite: overwrite, source: image, context: context))
        }
    }
}

/// `combine-images`: several images into one.
struct CombineImages: Intent {
    static let summary =
        "Combines the input images into one, side by side, one above another, or in a grid (a contact sheet), each centred in its cell."
    static let examples = [
        IntentExample("- find-files: ~/Pictures/trip\n  where: { type: public.image }\n- combine-images: { mode: grid, spacing: 10, to: sheet.png }"),
    ]
    static let output = OutputType.file

    /// Entities are handed over as their image (a photo as its file).
    @Parameter(input: true, summary: "The image files (PNG or JPEG).", accepts: [.image], access: .read) var images: [Value]
    @Parameter(primary: true, summary: "How to lay them out.", choices: ["horizontal", "vertical", "grid"]) var mode: String = "grid"
    @Parameter(summary: "Pixels between the images, and around them.") var spacing: Int = 0
    @Parameter(summary: "How many images a row of the grid holds; about the square root of their number if not given.") var columns: Int?
    @Parameter(summary: "The background: white, black or transparent (a JPEG has white for transparent).",
        choices: ["white", "black", "transparent"])
    var background: String = "white"
    @Parameter(summary: "Where to write the combined image (its extension names PNG or JPEG); the run's scratch folder if not given.",
        access: .write)
    var to: FileReference?
    @Parameter(summary: Overwrite.summary) var overwrite: Overwrite = .refuse

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard !images.isEmpty else { throw IntentError("combine-images needs at least one image; the input has none") }
        guard (0...1000).contains(spacing) else { throw IntentError("'spacing' is from 0 to 1000 pixels, not \(spacing)") }
        var loaded: [RasterImage] = []
        var pixels = 0
        for item in images {
            try Task.checkCancellation()
            guard case .file(let file) = item else { throw IntentError("combine-images takes image files, not \(item.type.withArticle)") }
            let (image, _) = try loadImage(file)
            pixels += image.width * image.height
            // The images held at once are bounded as one image is.
            guard pixels <= Limits.imagePixels else {
                throw IntentError("the images hold over \(Limits.imagePixels / 1_000_000) million pixels together, the most Relay combines")
            }
            loaded.append(image)
        }
        let count = loaded.count
        let across: Int
        switch mode.lowercased() {
        case "horizontal": across = count
        case "vertical": across = 1
        default:
            if let columns, columns < 1 { throw IntentError("'columns' is 1 or more, not \(columns)") }
            across = min(count, columns ?? Int(Double(count).squareRoot().rounded(.up)))
        }
        let down = (count + across - 1) / across
        let cellWidth = loaded.map(\.width).max() ?? 1, cellHeight = loaded.map(\.height).max() ?? 1
        let width = across * cellWidth + (across + 1) * spacing
        let height = down * cellHeight + (down + 1) * spacing
        let sheet = try RasterImage.blank(width: width, height: height)
        guard let cairo = cairo_create(sheet.surface) else { throw IntentError("cannot draw the combined image") }
        defer { cairo_destroy(cairo) }
        switch background.lowercased() {
        case "white": cairo_set_source_rgb(cairo, 1, 1, 1)
        case "black": cairo_set_source_rgb(cairo, 0, 0, 0)
        default: cairo_set_source_rgba(cairo, 0, 0, 0, 0)
        }
        cairo_paint(cairo)
        for (index, image) in loaded.enumerated() {
            let column = index % across, row = index / across
            let left = spacing + column * (cellWidth + spacing) + (cellWidth - image.width) / 2
            let top = spacing + row * (cellHeight + spacing) + (cellHeight - image.height) / 2
            cairo_set_source_surface(cairo, image.surface, Double(left), Double(top))
            cairo_paint(cairo)
        }
        cairo_surface_flush(sheet.surface)
        let named = to.flatMap { $0.isFolder || $0.namesFolder ? nil : ContentType(fileExtension: $0.fileExtension) }
        let format: ContentType = named.map { $0.conforms(to: .jpeg) } == true ? .jpeg : .png
        let data = try sheet.encoded(as: format)
        guard let to else {
            return .value(try DocumentConverters.scratchFile(data, named: "Combined.\(format.preferredExtension ?? "png")", context))
        }
        let path = try FileDestination.path(for: to, named: "Combined.\(format.preferredExtension ?? "png")")
        let written = try await changing { () throws(FileOperationError) in
            try await context.fileChanges.write(data, to: path, overwrite: overwrite)
        }
        return .value(.file(FileReference(path: written)))
    }
}
