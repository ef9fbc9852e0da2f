import Foundation
import Testing

@testable import RelayKit
@testable import RelayEngine

@Suite("Content types (Docs/Language.md, 'Conversions between formats')")
struct ContentTypeTests {
    @Test("the conformance tree")
    func conformance() {
        #expect(ContentType.png.conforms(to: .image))
        #expect(ContentType.png.conforms(to: .data))
        #expect(ContentType.png.conforms(to: .item))
        #expect(!ContentType.png.conforms(to: .text))
        #expect(ContentType.plainText.conforms(to: .text))
        #expect(ContentType.markdown.conforms(to: .text))
        #expect(ContentType.rtf.conforms(to: .text))
        #expect(ContentType.pdf.conforms(to: .data))
        #expect(!ContentType.pdf.conforms(to: .text))
        #expect(!ContentType.image.conforms(to: .png))
        #expect(ContentType("com.example.private").conforms(to: ContentType("com.example.private")))
        #expect(!ContentType("com.example.private").conforms(to: .data))
    }

    @Test("short names, extensions, MIME types and identifiers", arguments: [
        ("pdf", "com.adobe.pdf"), ("rtf", "public.rtf"), ("png", "public.png"), ("jpeg", "public.jpeg"), ("JPG", "public.jpeg"),
        ("text", "public.text"), ("markdown", "net.daringfireball.markdown"), ("html", "public.html"), ("json", "public.json"),
        ("image", "public.image"), ("image/png", "public.png"), ("text/html; charset=utf-8", "public.html"),
        ("public.rtf", "public.rtf"), ("md", "net.daringfireball.markdown"),
    ])
    func names(name: String, identifier: String) {
        #expect(ContentType(name: name)?.identifier == identifier)
    }

    @Test("packages declare their own types into the tree; built-in types cannot be redeclared; only where the declarations are current")
    func declared() async {
        var declarations = Declarations()
        declarations.declare([
            ContentTypeDeclaration("com.example.gpx", conformsTo: [.text], extensions: ["gpx"], mimeTypes: ["application/gpx+xml"]),
            ContentTypeDeclaration("public.png", conformsTo: [.text]),
        ])
        declarations.using {
            #expect(ContentType(fileExtension: "GPX")?.identifier == "com.example.gpx")
            #expect(ContentType(mimeType: "application/gpx+xml")?.identifier == "com.example.gpx")
            #expect(ContentType("com.example.gpx").conforms(to: .data))
            #expect(!ContentType.png.conforms(to: .text))
        }
        // Outside them, and in another set of declarations side by side, the type is unknown.
        #expect(ContentType(fileExtension: "gpx") == nil)
        var other = Declarations()
        other.declare([ContentTypeDeclaration("org.example.gpx", conformsTo: [.data], extensions: ["gpx"])])
        async let first = declarations.using { () async -> String? in
            await Task.yield()
            return ContentType(fileExtension: "gpx")?.identifier
        }
        async let second = other.using { () async -> String? in
            await Task.yield()
            return ContentType(fileExtension: "gpx")?.identifier
        }
        #expect(await first == "com.example.gpx")
        #expect(await second == "org.example.gpx")
        // Work on a thread of its own sees the declarations of the task that started it.
        let onThread = try? await declarations.using { try await BlockingWork.run { _ in ContentType("com.example.gpx").conforms(to: .text) } }
        #expect(onThread == true)
    }

    @Test("extensions and MIME types both ways")
    func extensions() {
        #expect(ContentType(fileExtension: "JPG") == .jpeg)
        #expect(ContentType.jpeg.preferredExtension == "jpg")
        #expect(ContentType.pdf.mimeType == "application/pdf")
        #expect(ContentType(fileExtension: "xyz") == nil)
        #expect(ContentType(name: "nonsense") == nil)
    }

    @Test("magic bytes", arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], "public.png"),
        ([0xFF, 0xD8, 0xFF, 0xE0], "public.jpeg"),
        (Array("%PDF-1.7\n".utf8), "com.adobe.pdf"),
        (Array("{\\rtf1\\ansi hello}".utf8), "public.rtf"),
        (Array("GIF89a....".utf8), "com.compuserve.gif"),
        (Array("  <!DOCTYPE html><p>".utf8), "public.html"),
        (Array("\n{\"a\": 1}".utf8), "public.json"),
    ])
    func sniffing(bytes: [UInt8], identifier: String) {
        #expect(ContentSniffing.type(ofContent: bytes)?.identifier == identifier)
    }

    @Test("a lying or missing extension gives way to the content; text formats keep their extension")
    func fileTypes() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect(ContentSniffing.type(fileExtension: "jpg", content: png) == .png)
        #expect(ContentSniffing.type(fileExtension: "", content: png) == .png)
        #expect(ContentSniffing.type(fileExtension: "png", content: png) == .png)
        #expect(ContentSniffing.type(fileExtension: "md", content: Array("{ not json".utf8)) == .markdown)
        #expect(ContentSniffing.type(fileExtension: "", content: Array("just words".utf8)) == .plainText)
        #expect(ContentSniffing.type(fileExtension: "", content: [0, 1, 2, 255]) == .data)
        #expect(ContentSniffing.type(fileExtension: "txt", content: Array("%PDF-1.4".utf8)) == .pdf)
    }

    @Test("a multibyte character cut at the sniffing limit is still text")
    func truncatedText() {
        let text = Array((String(repeating: "a", count: ContentSniffing.prefixLength - 1) + "é").utf8)
        #expect(ContentSniffing.type(fileExtension: "", content: text) == .plainText)
    }
}

@Suite("Undo journal")
struct UndoJournalTests {
    @Test("run folders are named by UTC time, so they sort in order")
    func stamp() {
        #expect(UndoJournal.stamp(Date(timeIntervalSince1970: 1_795_343_400.25)) == "20261122-103000-250")
        #expect(UndoJournal.stamp(Date(timeIntervalSince1970: 0)) == "19700101-000000-000")
    }
}
