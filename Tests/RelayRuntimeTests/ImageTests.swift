import CGraphics
import Foundation
import RelayKit
import Testing

@testable import RelayActions
@testable import RelayRuntime

@Suite("Images: decoded, transformed and re-encoded")
struct ImageTests {
    /// A 6×4 image: red top-left, green top-right, blue bottom-left, white bottom-right quadrants.
    private func quadrants(as type: ContentType = .png) throws -> Data {
        let image = try RasterImage.blank(width: 6, height: 4)
        let context = try #require(cairo_create(image.surface))
        defer { cairo_destroy(context) }
        for (x, y, r, g, b) in [(0.0, 0.0, 1.0, 0.0, 0.0), (3, 0, 0, 1, 0), (0, 2, 0, 0, 1), (3, 2, 1, 1, 1)] {
            cairo_set_source_rgb(context, r, g, b)
            cairo_rectangle(context, x, y, 3, 2)
            cairo_fill(context)
        }
        return try image.encoded(as: type, quality: 100)
    }

    private func folder(with data: Data, named name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try data.write(to: folder.appendingPathComponent(name))
        return folder
    }

    private func image(at url: URL) throws -> RasterImage {
        let data = try Data(contentsOf: url)
        let type = ContentSniffing.type(fileExtension: url.pathExtension, content: data)
        return try RasterImage.decode(data, type: type, name: url.lastPathComponent)
    }

    /// The colour name at a pixel: r, g, b, w (white) or ? — close enough for JPEG.
    private func colour(_ image: RasterImage, _ x: Int, _ y: Int) -> Character {
        guard let p = image.pixel(x: x, y: y) else { return "?" }
        switch (p.red > 128, p.green > 128, p.blue > 128) {
        case (true, false, false): return "r"
        case (false, true, false): return "g"
        case (false, false, true): return "b"
        case (true, true, true): return "w"
        default: return "?"
        }
    }

    /// Corners clockwise from top-left.
    private func corners(_ image: RasterImage) -> String {
        String([colour(image, 0, 0), colour(image, image.width - 1, 0), colour(image, image.width - 1, image.height - 1), colour(image, 0, image.height - 1)])
    }

    private func run(_ steps: String, in folder: URL) async throws -> Value {
        // The edits replace their images in the folder, or write beside them.
        try await RelayRuntimeTests.run(steps, path: folder.appendingPathComponent("main.yaml").path, granted: writing(folder))
    }

    @Test("rotation by each right angle moves the corners and swaps the sides", arguments: [
        (90, "brgw", 4, 6), (180, "wbrg", 6, 4), (270, "gwbr", 4, 6), (-90, "gwbr", 4, 6),
    ])
    func rotate(degrees: Int, expected: String, width: Int, height: Int) async throws {
        let folder = try folder(with: try quadrants(), named: "q.png")
        #expect(try await run("- read-file: q.png\n- rotate-image: \(degrees)", in: folder) == .file(FileReference(path: folder.appendingPathComponent("q.png").path)))
        let rotated = try image(at: folder.appendingPathComponent("q.png"))
        #expect((rotated.width, rotated.height) == (width, height))
        #expect(corners(rotated) == expected)
    }

    @Test("flips mirror the image")
    func flip() async throws {
        let folder = try folder(with: try quadrants(), named: "q.png")
        _ = try await run("- read-file: q.png\n- flip-image: { direction: horizontal, to: h.png }\n- read-file: q.png\n- flip-image: { direction: vertical, to: v.png }", in: folder)
        #expect(corners(try image(at: folder.appendingPathComponent("h.png"))) == "grbw")
        #expect(corners(try image(at: folder.appendingPathComponent("v.png"))) == "bwgr")
        #expect(corners(try image(at: folder.appendingPathComponent("q.png"))) == "rgwb")
    }

    @Test("resize keeps the aspect ratio when one side is given")
    func resize() async throws {
        let folder = try folder(with: try quadrants(), named: "q.png")
        let value = try await run("- read-file: q.png\n- resize-image: { width: 60, to: big.png }\n- text: \"${previous.width}x${previous.height}\"", in: folder)
        #expect(value == "60x40")
        #expect(corners(try image(at: folder.appendingPathComponent("big.png"))) == "rgwb")
        #expect(try await run("- read-file: q.png\n- resize-image: { width: 3, height: 9 }\n- text: \"${previous.width}x${previous.height}\"", in: folder) == "3x9")
    }

    @Test("PNG ⇄ JPEG keeps the picture; quality changes the size")
    func convert() async throws {
        let folder = try folder(with: try quadrants(), named: "q.png")
        let jpeg = try await run("- read-file: q.png\n- convert-image: jpeg\n- get-details: type", in: folder)
        #expect(jpeg == "public.jpeg")
        let converted = try image(at: folder.appendingPathComponent("q.jpg"))
        #expect(colour(converted, 0, 0) == "r" && colour(converted, 5, 3) == "w")
        _ = try await run("- read-file: q.jpg\n- convert-image: png\n  as: back", in: folder)
        #expect(corners(try image(at: folder.appendingPathComponent("q.png"))) == "rgwb")
        let second = try self.folder(with: try quadrants(), named: "a.png")
        let small = try await run("- read-file: a.png\n- resize-image: { width: 300, to: large.png }\n- convert-image: { to: jpeg, quality: 10, save-to: low.jpg }\n- get-details: size", in: second)
        let high = try await run("- read-file: large.png\n- convert-image: { to: jpeg, quality: 95, save-to: high.jpg }\n- get-details: size", in: second)
        #expect(try small.numberValue() < high.numberValue())
    }

    @Test("width and height come from PNG and JPEG headers")
    func dimensions() throws {
        let folder = try folder(with: try quadrants(as: .jpeg), named: "q.jpg")
        try quadrants().write(to: folder.appendingPathComponent("q.png"))
        #expect(ImageDimensions.read(FileReference(path: folder.appendingPathComponent("q.jpg").path))! == (6, 4))
        #expect(ImageDimensions.read(FileReference(path: folder.appendingPathComponent("q.png").path))! == (6, 4))
    }

    @Test("bad inputs are clear errors", arguments: [
        ("- read-file: notes.txt\n- rotate-image: 90", "'notes.txt' is public.plain-text, and no conversion leads from it to public.image"),
        ("- read-file: broken.png\n- rotate-image: 90", "'broken.png' is a damaged PNG image (its header is missing or cut short)"),
        ("- read-file: broken.jpg\n- rotate-image: 90", "'broken.jpg' is a damaged JPEG image: its header gives a size of 0×0"),
        ("- read-file: q.png\n- rotate-image: 45", "'degrees' is 90, 180, 270 or -90"),
        ("- read-file: q.png\n- resize-image: {}", "give 'width', 'height' or both"),
        ("- read-file: q.png\n- convert-image: { to: jpeg, quality: 0 }", "'quality' is from 1 to 100"),
    ])
    func errors(steps: String, fragment: String) async throws {
        let folder = try folder(with: try quadrants(), named: "q.png")
        try Data("words".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: folder.appendingPathComponent("broken.png"))
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0]).write(to: folder.appendingPathComponent("broken.jpg"))
        do {
            _ = try await run(steps, in: folder)
            Issue.record("expected an error")
        } catch let error as RuntimeError {
            #expect(error.message.contains(fragment), "\(error.message)")
        }
    }
}
