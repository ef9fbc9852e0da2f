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
        _ = try await run("- read-file: q.jpg\n- convert-image: { to: png, overwrite: true }\n  as: back", in: folder)
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
        ("- read-file: q.png\n- resize-image: {}", "give 'width', 'height', both, or 'longest-edge'"),
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
            // What is wrong is in the message, or, for an input from the previous step, in its note.
            let said = ([error.message] + error.notes).joined(separator: "\n")
            #expect(said.contains(fragment), "\(said)")
        }
    }

    @Test("crop-image keeps the rectangle asked for; one outside the image is an error naming both sizes")
    func crop() async throws {
        let folder = try folder(with: try quadrants(), named: "q.png")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await run("- read-file: q.png\n- crop-image: { x: 3, y: 0, width: 3, height: 2, to: green.png }", in: folder)
        let green = try image(at: folder.appendingPathComponent("green.png"))
        #expect((green.width, green.height) == (3, 2))
        #expect(corners(green) == "gggg")
        _ = try await run("- read-file: q.png\n- crop-image: { x: 3, y: 2, to: white.png }", in: folder)
        #expect(corners(try image(at: folder.appendingPathComponent("white.png"))) == "wwww")
        for crop in ["{ x: 4, width: 3 }", "{ x: -1 }", "{ y: 4 }", "{ width: 0 }", "{ x: 4000000000, width: 2 }"] {
            do {
                _ = try await run("- read-file: q.png\n- crop-image: \(crop)", in: folder)
                Issue.record("\(crop) was cropped")
            } catch let error as RuntimeError {
                #expect(error.message.contains("is not inside 'q.png', which is 6×4"), "\(crop): \(error.message)")
            }
        }
        #expect(corners(try image(at: folder.appendingPathComponent("q.png"))) == "rgwb")
    }

    @Test("combine-images: side by side, one above another, a grid with spacing, as PNG or JPEG")
    func combine() async throws {
        let folder = try folder(with: try quadrants(), named: "a.png")
        defer { try? FileManager.default.removeItem(at: folder) }
        try quadrants(as: .jpeg).write(to: folder.appendingPathComponent("b.jpg"))
        let files = "- list: [a.png, b.jpg, a.png]\n- for-each:\n  do:\n    - read-file: \"${item}\"\n- combine-images:\n"
        _ = try await run(files + "    mode: horizontal\n    to: row.png", in: folder)
        let row = try image(at: folder.appendingPathComponent("row.png"))
        #expect((row.width, row.height) == (18, 4))
        _ = try await run(files + "    mode: vertical\n    to: column.jpg", in: folder)
        let column = try image(at: folder.appendingPathComponent("column.jpg"))
        #expect((column.width, column.height) == (6, 12))
        _ = try await run(files + "    mode: grid\n    spacing: 2\n    background: black\n    to: sheet.png", in: folder)
        let sheet = try image(at: folder.appendingPathComponent("sheet.png"))
        // Two across (about the square root of three), two down, with 2 pixels around each.
        #expect((sheet.width, sheet.height) == (2 * 6 + 3 * 2, 2 * 4 + 3 * 2))
        #expect(colour(sheet, 2, 2) == "r")
        #expect(sheet.pixel(x: 0, y: 0).map { $0.red == 0 && $0.alpha == 255 } == true)
        do {
            _ = try await run("- list: []\n- combine-images", in: folder)
            Issue.record("nothing was combined")
        } catch let error as RuntimeError {
            #expect(error.message.contains("needs at least one image"), "\(error.message)")
        }
        do {
            _ = try await run(files + "    to: row.png", in: folder)
            Issue.record("an existing file was replaced")
        } catch let error as RuntimeError {
            #expect(error.message.contains("already exists"), "\(error.message)")
        }
    }

    @Test("resize-image by the longest edge keeps the aspect; sizes out of range are refused")
    func longestEdge() async throws {
        let folder = try folder(with: try quadrants(), named: "q.png")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await run("- read-file: q.png\n- resize-image: { longest-edge: 3, to: small.png }", in: folder)
        let small = try image(at: folder.appendingPathComponent("small.png"))
        #expect((small.width, small.height) == (3, 2))
        for bad in ["{ longest-edge: 0 }", "{ width: 40000 }", "{ longest-edge: 3, width: 2 }", "{ width: 30000, height: 30000 }"] {
            do {
                _ = try await run("- read-file: q.png\n- resize-image: \(bad)", in: folder)
                Issue.record("\(bad) was resized")
            } catch is RuntimeError {}
        }
    }

    /// A solid image of one colour.
    private func solid(width: Int, height: Int, red: Double, green: Double, blue: Double) throws -> Data {
        let image = try RasterImage.blank(width: width, height: height)
        let context = try #require(cairo_create(image.surface))
        defer { cairo_destroy(context) }
        cairo_set_source_rgb(context, red, green, blue)
        cairo_paint(context)
        return try image.encoded(as: .png)
    }

    @Test("overlay-image: at a corner with a margin, at the centre, scaled, half see-through; bad values refused")
    func overlay() async throws {
        let folder = try folder(with: try solid(width: 40, height: 30, red: 1, green: 1, blue: 1), named: "base.png")
        defer { try? FileManager.default.removeItem(at: folder) }
        try solid(width: 10, height: 5, red: 1, green: 0, blue: 0).write(to: folder.appendingPathComponent("logo.png"))
        _ = try await run("- read-file: base.png\n- overlay-image: { overlay: logo.png, margin: 2, to: corner.png }", in: folder)
        let corner = try image(at: folder.appendingPathComponent("corner.png"))
        #expect((corner.width, corner.height) == (40, 30))
        // Bottom-right by default: x 28–37, y 23–27.
        #expect(colour(corner, 28, 23) == "r" && colour(corner, 37, 27) == "r")
        #expect(colour(corner, 38, 28) == "w" && colour(corner, 27, 23) == "w" && colour(corner, 0, 0) == "w")
        _ = try await run("- read-file: base.png\n- overlay-image: { overlay: logo.png, position: center, width: 20, to: centre.png }", in: folder)
        let centre = try image(at: folder.appendingPathComponent("centre.png"))
        // 20×10 in the middle: x 10–29, y 10–19.
        #expect(colour(centre, 10, 10) == "r" && colour(centre, 29, 19) == "r" && colour(centre, 9, 10) == "w" && colour(centre, 10, 20) == "w")
        _ = try await run("- read-file: base.png\n- overlay-image: { overlay: logo.png, position: top-left, opacity: 0.5 }", in: folder)
        let half = try image(at: folder.appendingPathComponent("base.png"))
        let pixel = try #require(half.pixel(x: 0, y: 0))
        #expect(pixel.red == 255 && (120...135).contains(pixel.green), "\(pixel)")
        for (bad, fragment) in [
            ("{ overlay: logo.png, opacity: 1.5 }", "'opacity' is from 0 to 1"), ("{ overlay: logo.png, opacity: .nan }", "'opacity'"),
            ("{ overlay: logo.png, width: 0 }", "'width' is from 1"), ("{ overlay: logo.png, margin: -1 }", "'margin'"),
            ("{ overlay: missing.png }", "no such image file"),
        ] {
            do {
                _ = try await run("- read-file: base.png\n- overlay-image: \(bad)", in: folder)
                Issue.record("\(bad) was drawn")
            } catch let error as RuntimeError {
                #expect(error.message.contains(fragment), "\(bad): \(error.message)")
            }
        }
    }
}
