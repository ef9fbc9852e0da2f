import CGraphics
import CTurboJPEG
import Foundation
import RelayKit

/// A decoded image: a cairo ARGB32 surface, owned here and destroyed with this object.
final class RasterImage {
    let surface: OpaquePointer

    private init(surface: OpaquePointer) { self.surface = surface }

    deinit { cairo_surface_destroy(surface) }

    var width: Int { Int(cairo_image_surface_get_width(surface)) }
    var height: Int { Int(cairo_image_surface_get_height(surface)) }

    /// The colour at (`x`, `y`) as 0–255 red, green, blue, alpha (premultiplied, as cairo keeps it).
    func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)? {
        guard (0..<width).contains(x), (0..<height).contains(y), let data = cairo_image_surface_get_data(surface) else {
            return nil
        }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let word = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        return (UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF), UInt8(word >> 24))
    }

    /// A blank (transparent) image.
    static func blank(width: Int, height: Int) throws -> RasterImage {
        guard width > 0, height > 0, width <= Limits.imageSide, height <= Limits.imageSide else {
            throw IntentError("an image must be 1 to \(Limits.imageSide) pixels on each side, not \(width)×\(height)")
        }
        // Made images are bounded as decoded ones are: a resize or a contact sheet cannot ask for gigabytes.
        guard width * height <= Limits.imagePixels else {
            throw IntentError(
                "a \(width)×\(height) image is over \(Limits.imagePixels / 1_000_000) million pixels, the most Relay makes")
        }
        try LazyLibraries.openGraphics()
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        return RasterImage(surface: try checked(surface, "cannot make a \(width)×\(height) image"))
    }

    /// Decodes PNG (cairo) or JPEG (TurboJPEG) bytes.
    static func decode(_ data: Data, type: ContentType, name: String) throws -> RasterImage {
        if type.conforms(to: .png) { return try decodePNG(data, name: name) }
        if type.conforms(to: .jpeg) { return try decodeJPEG(data, name: name) }
        throw IntentError("'\(name)' is \(type.identifier); Relay reads PNG and JPEG images")
    }

    /// Encodes as PNG, or as JPEG with `quality` (1–100; transparency is flattened onto white).
    func encoded(as type: ContentType, quality: Int = 90) throws -> Data {
        if type.conforms(to: .png) { return try encodePNG() }
        if type.conforms(to: .jpeg) { return try encodeJPEG(quality: quality) }
        throw IntentError("Relay writes images as PNG or JPEG, not \(type.identifier)")
    }

    /// A new image of `width`×`height` with this one drawn through `transform`.
    func drawn(width: Int, height: Int, filter: cairo_filter_t = CAIRO_FILTER_NEAREST, _ transform: (OpaquePointer) -> Void) throws -> RasterImage {
        let result = try RasterImage.blank(width: width, height: height)
        guard let context = cairo_create(result.surface) else { throw IntentError("cannot draw the image") }
        defer { cairo_destroy(context) }
        transform(context)
        cairo_set_source_surface(context, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context), filter)
        cairo_pattern_set_extend(cairo_get_source(context), CAIRO_EXTEND_PAD)
        cairo_paint(context)
        cairo_surface_flush(result.surface)
        return result
    }

    /// `surface` if cairo made it without error; otherwise destroys it and throws `message`
    /// (with cairo's reason after it when `withReason`).
    private static func checked(_ surface: OpaquePointer?, _ message: String, withReason: Bool = true) throws -> OpaquePointer {
        guard let surface else { throw IntentError(message) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw IntentError(withReason ? "\(message): \(String(cString: cairo_status_to_string(status)))" : message)
        }
        return surface
    }

    /// The size a PNG's header gives, or an error saying what is wrong with the header.
    private static func pngSize(_ data: Data, name: String) throws -> (width: Int, height: Int) {
        let bytes = [UInt8](data.prefix(24))
        guard !bytes.isEmpty else { throw IntentError("'\(name)' is empty, not a PNG image") }
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw IntentError("'\(name)' is not a PNG image (it does not start with PNG's signature)")
        }
        guard bytes.count == 24, bytes[12..<16].elementsEqual("IHDR".utf8) else {
            throw IntentError("'\(name)' is a damaged PNG image (its header is missing or cut short)")
        }
        let number = { (offset: Int) in bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    /// Refuses an image too big to decode before any memory is taken for it.
    private static func checkSize(width: Int, height: Int, name: String, kind: String) throws {
        guard width > 0, height > 0 else {
            throw IntentError("'\(name)' is a damaged \(kind) image: its header gives a size of \(width)×\(height)")
        }
        guard width <= Limits.imageSide, height <= Limits.imageSide, width * height <= Limits.imagePixels else {
            throw IntentError(
                "'\(name)' is \(width)×\(height) pixels; Relay decodes images of at most \(Limits.imagePixels / 1_000_000) million pixels, \(Limits.imageSide) on a side")
        }
    }

    // MARK: - PNG (cairo)

    /// Bytes being read from or written to by cairo's stream callbacks.
    private final class Stream {
        var data: Data
        var offset = 0
        init(_ data: Data) { self.data = data }
    }

    private static func decodePNG(_ data: Data, name: String) throws -> RasterImage {
        let (width, height) = try pngSize(data, name: name)
        try checkSize(width: width, height: height, name: name, kind: "PNG")
        let stream = Stream(data)
        try LazyLibraries.openGraphics()
        let surface = cairo_image_surface_create_from_png_stream({ closure, buffer, length in
            guard let closure, let buffer else { return CAIRO_STATUS_READ_ERROR }
            let stream = Unmanaged<Stream>.fromOpaque(closure).takeUnretainedValue()
            let count = Int(length)
            guard stream.offset + count <= stream.data.count else { return CAIRO_STATUS_READ_ERROR }
            stream.data.copyBytes(to: buffer, from: stream.offset..<(stream.offset + count))
            stream.offset += count
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(stream).toOpaque())
        // cairo reports most damage in a PNG's data as "out of memory": say what it is.
        let image = try withExtendedLifetime(stream) {
            try checked(surface, "'\(name)' is a damaged PNG image (its data is corrupt or cut short)", withReason: false)
        }
        return try normalized(image)
    }

    /// cairo gives RGB24 for opaque PNGs; everything here works in ARGB32.
    private static func normalized(_ surface: OpaquePointer) throws -> RasterImage {
        let image = RasterImage(surface: surface)
        guard cairo_image_surface_get_format(surface) != CAIRO_FORMAT_ARGB32 else { return image }
        return try image.drawn(width: image.width, height: image.height) { _ in }
    }

    private func encodePNG() throws -> Data {
        let stream = Stream(Data())
        let status = cairo_surface_write_to_png_stream(surface, { closure, buffer, length in
            guard let closure, let buffer else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Stream>.fromOpaque(closure).takeUnretainedValue().data.append(buffer, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(stream).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else {
            throw IntentError("cannot encode a PNG: \(String(cString: cairo_status_to_string(status)))")
        }
        return withExtendedLifetime(stream) { stream.data }
    }

    // MARK: - JPEG (TurboJPEG)

    /// cairo's ARGB32 in memory order: BGRA on little-endian machines, ARGB on big-endian ones.
    private static var pixelFormat: Int32 {
        #if _endian(little)
            Int32(TJPF_BGRX.rawValue)
        #else
            Int32(TJPF_XRGB.rawValue)
        #endif
    }

    private static func decodeJPEG(_ data: Data, name: String) throws -> RasterImage {
        try LazyLibraries.openJPEG()
        guard let handle = tjInitDecompress() else { throw IntentError("cannot start the JPEG decoder") }
        defer { tjDestroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = data.withUnsafeBytes { bytes in
            tjDecompressHeader3(handle, bytes.bindMemory(to: UInt8.self).baseAddress, UInt(data.count), &width, &height, &subsampling, &colorspace)
        }
        guard header == 0 else { throw IntentError("cannot read '\(name)' as a JPEG image: \(jpegError(handle))") }
        try checkSize(width: Int(width), height: Int(height), name: name, kind: "JPEG")
        let image = try blank(width: Int(width), height: Int(height))
        cairo_surface_flush(image.surface)
        let stride = cairo_image_surface_get_stride(image.surface)
        guard let pixels = cairo_image_surface_get_data(image.surface) else { throw IntentError("cannot make an image buffer") }
        let status = data.withUnsafeBytes { bytes in
            tjDecompress2(handle, bytes.bindMemory(to: UInt8.self).baseAddress, UInt(data.count), pixels, width, stride, height, pixelFormat, 0)
        }
        guard status == 0 else { throw IntentError("cannot decode '\(name)' as a JPEG image: \(jpegError(handle))") }
        cairo_surface_mark_dirty(image.surface)
        return image
    }

    private func encodeJPEG(quality: Int) throws -> Data {
        guard (1...100).contains(quality) else { throw IntentError("'quality' is from 1 to 100, not \(quality)") }
        // JPEG has no transparency: flatten onto white in an opaque copy.
        let opaque = try drawn(width: width, height: height) { context in
            cairo_set_source_rgb(context, 1, 1, 1)
            cairo_paint(context)
        }
        try LazyLibraries.openJPEG()
        guard let handle = tjInitCompress() else { throw IntentError("cannot start the JPEG encoder") }
        defer { tjDestroy(handle) }
        guard let pixels = cairo_image_surface_get_data(opaque.surface) else { throw IntentError("cannot read the image buffer") }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = tjCompress2(
            handle, pixels, Int32(width), cairo_image_surface_get_stride(opaque.surface), Int32(height), Self.pixelFormat,
            &buffer, &size, Int32(TJSAMP_420.rawValue), Int32(quality), 0)
        defer { tjFree(buffer) }
        guard status == 0, let buffer else { throw IntentError("cannot encode a JPEG: \(Self.jpegError(handle))") }
        return Data(bytes: buffer, count: Int(size))
    }

    private static func jpegError(_ handle: tjhandle) -> String {
        tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
    }
}
