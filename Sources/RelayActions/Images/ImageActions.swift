import CGraphics
import Foundation
import RelayKit
import RelayEngine

/// Actions that change images: decoded, transformed with cairo, re-encoded.
public enum ImageActions: IntentPackage {
    public static let name = "images"
    public static let intents: [any Intent.Type] = [
        RotateImage.self, FlipImage.self, ResizeImage.self, ConvertImage.self, CropImage.self, CombineImages.self, OverlayImage.self,
    ]
    public static var converters: [Converter] { ImageConverters.all }
}

/// Reads an input image file, or explains why it is not one.
func loadImage(_ file: FileReference) throws -> (RasterImage, ContentType) {
    guard file.exists, !file.isFolder else { throw IntentError("no such image file: '\(file.shownPath)'") }
    let type = file.contentType
    guard type.conforms(to: .image) else { throw IntentError("'\(file.name)' is \(type.identifier), not an image") }
    let data: Data
    do {
        data = try file.contents()
    } catch {
        throw IntentError(error.message)
    }
    return (try RasterImage.decode(data, type: type, name: file.name), type)
}

/// Writes `image` as `type` to `to` (a path, or a folder to write into) or else to `path`, through
/// the run's file changes (atomic, undoable). A `to:` that does not exist and whose name has no
/// extension is a folder, made when needed: an image file needs an extension. An image edited in
/// place replaces itself; any other file already there is treated as `overwrite` says. Returns
/// the written file.
func saveImage(
    _ image: RasterImage, as type: ContentType, to: FileReference?, defaultPath path: String, quality: Int = 90,
    overwrite: Overwrite, source: FileReference, context: any IntentContext
) async throws -> Value {
    var target = path
    var format = type
    if let to {
        let folder = to.isFolder || to.namesFolder || (to.fileExtension.isEmpty && !to.exists)
        target = try FileDestination.path(for: to, named: (path as NSString).lastPathComponent, asFolder: folder)
        // A destination named with an image extension decides the format (`to: small.png`).
        if !folder, let named = ContentType(fileExtension: to.fileExtension), named.conforms(to: .image) {
            format = named
        }
    }
    let data = try image.encoded(as: format, quality: quality)
    let policy = to == nil && target == source.path ? Overwrite.replace : overwrite
    let written = try await changing { () throws(FileOperationError) in
        try await context.fileChanges.write(data, to: target, from: source.path, overwrite: policy)
    }
    return .file(FileReference(path: written))
}

/// `rotate-image`: turns images by a right angle.
struct RotateImage: Intent {
    static let summary = "Rotates image files clockwise by 90, 180 or 270 degrees (-90 is counter-clockwise), in place or to 'to'."
    static let examples = [
        IntentExample("- read-file: photo.jpg\n- rotate-image: { degrees: 90, to: rotated/ }"),
    ]
    static let output = OutputType.file

    @Parameter(input: true, summary: "The image file (PNG or JPEG).", accepts: [.image], access: .write, readOnlyWhenGiven: "to") var image: FileReference
    @Parameter(primary: true, summary: "Degrees clockwise: 90, 180, 270 or -90.") var degrees: Int
    @Parameter(summary: "Where to write the result instead of replacing the input: a path or a folder.", access: .write) var to: FileReference?
    @Parameter(summary: Overwrite.summary) var overwrite: Overwrite = .refuse

    /// The image is locked from reading to writing, so runs at the same time take turns.
    func perform(_ context: any IntentContext) async throws -> IntentResult {
        try await FileLock.exclusive(image.path) {
            let turns = ((degrees % 360) + 360) % 360
            guard turns % 90 == 0 else { throw IntentError("'degrees' is 90, 180, 270 or -90, not \(degrees)") }
            let (source, type) = try loadImage(image)
            let (width, height) = (Double(source.width), Double(source.height))
            let rotated = try source.drawn(width: turns % 180 == 0 ? source.width : source.height, height: turns % 180 == 0 ? source.height : source.width) {
                context in
                switch turns {
                case 90: cairo_translate(context, height, 0)
                case 180: cairo_translate(context, width, height)
                case 270: cairo_translate(context, 0, width)
                default: break
                }
                cairo_rotate(context, Double(turns) * .pi / 180)
            }
            return .value(try await saveImage(rotated, as: type, to: to, defaultPath: image.path, overwrite: overwrite, source: image, context: context))
        }
    }
}

/// `flip-image`: mirrors images.
struct FlipImage: Intent {
    static let summary = "Mirrors image files horizontally (left–right) or vertically (top–bottom), in place or to 'to'."
    static let examples = [
        IntentExample("- read-file: photo.jpg\n- flip-image: { direction: horizontal, to: flipped/ }"),
    ]
    static let output = OutputType.file

    @Parameter(input: true, summary: "The image file (PNG or JPEG).", accepts: [.image], access: .write, readOnlyWhenGiven: "to") var image: FileReference
    @Parameter(primary: true, summary: "Which way to flip.", choices: ["horizontal", "vertical"]) var direction: String
    @Parameter(summary: "Where to write the result instead of replacing the input: a path or a folder.", access: .write) var to: FileReference?
    @Parameter(summary: Overwrite.summary) var overwrite: Overwrite = .refuse

    /// The image is locked from reading to writing, so runs at the same time take turns.
    func perform(_ context: any IntentContext) async throws -> IntentResult {
        try await FileLock.exclusive(image.path) {
            let (source, type) = try loadImage(image)
            let horizontal = direction.lowercased() == "horizontal"
            let flipped = try source.drawn(width: source.width, height: source.height) { context in
                if horizontal {
                    cairo_translate(context, Double(source.width), 0)
                    cairo_scale(context, -1, 1)
                } else {
                    cairo_translate(context, 0, Double(source.height))
                    cairo_scale(context, 1, -1)
                }
            }
            return .value(try await saveImage(flipped, as: type, to: to, defaultPath: image.path, overwrite: overwrite, source: image, context: context))
        }
    }
}

/// `resize-image`: scales images.
struct ResizeImage: Intent {
    static let summary = "Scales image files to a width and/or height in pixels (keeping the aspect ratio if one is missing)."
    static let examples = [
        IntentExample("- read-file: photo.jpg\n- resize-image: { width: 800, to: small/ }"),
    ]
    static let output = OutputType.file

    @Parameter(input: true, summary: "The image file (PNG or JPEG).", accepts: [.image], access: .write, readOnlyWhenGiven: "to") var image: FileReference
    @Parameter(summary: "The new width in pixels.") var width: Int?
    @Parameter(summary: "The new height in pixels.") var height: Int?
    @Parameter(summary: "The new length of the longer side, the other scaled to match (a photo 4000×3000 with 1000 becomes 1000×750).")
    var longestEdge: Int?
    @Parameter(summary: "Where to write the result instead of replacing the input: a path or a folder.", access: .write) var to: FileReference?
    @Parameter(summary: Overwrite.summary) var overwrite: Overwrite = .refuse

    /// The image is locked from reading to writing, so runs at the same time take turns.
    func perform(_ context: any IntentContext) async throws -> IntentResult {
        try await FileLock.exclusive(image.path) {
            guard width != nil || height != nil || longestEdge != nil else {
                throw IntentError("give 'width', 'height', both, or 'longest-edge'")
            }
            guard longestEdge == nil || (width == nil && height == nil) else {
                throw IntentError("give 'longest-edge' alone, without 'width' or 'height'")
            }
            for (name, size) in [("width", width), ("height", height), ("longest-edge", longestEdge)] {
                if let size, !(1...Limits.imageSide).contains(size) {
                    throw IntentError("'\(name)' is from 1 to \(Limits.imageSide) pixels, not \(size)")
                }
            }
            let (source, type) = try loadImage(image)
            var width = self.width, height = self.height
            if let longestEdge {
                if source.width >= source.height { width = longestEdge } else { height = longestEdge }
            }
            let aspect = Double(source.width) / Double(source.height)
            let newWidth = width ?? min(Limits.imageSide, max(1, Int((Double(height ?? 1) * aspect).rounded())))
            let newHeight = height ?? min(Limits.imageSide, max(1, Int((Double(newWidth) / aspect).rounded())))
            let resized = try source.drawn(width: newWidth, height: newHeight, filter: CAIRO_FILTER_BEST) { context in
                cairo_scale(context, Double(newWidth) / Double(source.width), Double(newHeight) / Double(source.height))
            }
            return .value(try await saveImage(resized, as: type, to: to, defaultPath: image.path, overwrite: overwrite, source: image, context: context))
        }
    }
}

/// `convert-image`: PNG ⇄ JPEG.
struct ConvertImage: Intent {
    static let summary = "Converts image files to PNG or JPEG, written next to the input with the new extension (or to 'save-to')."
    static let examples = [
        IntentExample("- read-file: photo.png\n- convert-image: { to: jpeg, quality: 80 }"),
    ]
    static let output = OutputType.file

    @Parameter(input: true, summary: "The image file (PNG or JPEG).", accepts: [.image], access: .read) var image: FileReference
    @Parameter(primary: true, summary: "The format to convert to.", choices: ["png", "jpeg", "jpg"]) var to: String
    @Parameter(summary: "JPEG quality, 1 to 100.") var quality: Int = 90
    @Parameter(name: "save-to", summary: "Where to write the result: a path or a folder.", access: .write) var destination: FileReference?
    @Parameter(summary: Overwrite.summary) var overwrite: Overwrite = .refuse

    /// The image is locked from reading to writing, so runs at the same time take turns.
    func perform(_ context: any IntentContext) async throws -> IntentResult {
        try await FileLock.exclusive(image.path) {
            guard (1...100).contains(quality) else { throw IntentError("'quality' is from 1 to 100, not \(quality)") }
            let (source, _) = try loadImage(image)
            let type: ContentType = to.lowercased() == "png" ? .png : .jpeg
            let newName = ((image.name as NSString).deletingPathExtension as NSString).appendingPathExtension(type.preferredExtension ?? "img")
                ?? image.name
            let path = ((image.path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(newName)
            return .value(try await saveImage(source, as: type, to: destination, defaultPath: path, quality: quality, overwrite: overwrite, source: image, context: context))
        }
    }
}
