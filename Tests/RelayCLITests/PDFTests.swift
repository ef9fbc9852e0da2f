import Foundation
import Testing

/// The PDFs Relay writes open in poppler (`pdfinfo`, `pdftotext`, from Debian's poppler-utils,
/// which Scripts/install-dependencies installs) with the right text and page count.
@Suite("PDFs checked with poppler")
struct PDFTests {
    /// Runs poppler-utils' `name` off Swift's cooperative threads and returns what it printed.
    private func tool(_ name: String, _ arguments: [String]) async throws -> String {
        try await RelayProcess.tool([name] + arguments).standardOutput
    }

    private func folder(_ files: [String: Data]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-pdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, data) in files { try data.write(to: folder.appendingPathComponent(name)) }
        return folder
    }

    private func make(_ steps: String, in folder: URL) async throws -> String {
        try ("steps:\n" + steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n")
            .write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        // make-pdf writes beside its first input, or where 'to:' says, in the folder.
        let result = try await RelayProcess.running(
            ["run", "w.yaml", "--allow-write=\(folder.path)"], in: folder, environment: ["HOME": folder.appendingPathComponent("home").path])
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput.trimmingCharacters(in: .newlines)
    }

    @Test("a Markdown document of 100 sections paginates, with its text in order")
    func markdown() async throws {
        var markdown = "# Trail Report\n\nA *short* walk: café, naïve, Ελληνικά.\n\n| Trail | km |\n|:--|--:|\n| Ridge Loop | 4.2 |\n"
        for section in 1...100 {
            markdown += "\n## Section \(section)\n\n" + String(repeating: "Cedar and fir line the ridge above the lake. ", count: 6) + "\n\n- point \(section)\n"
        }
        let root = try folder(["doc.md": Data(markdown.utf8)])
        let path = try await make("- read-file: doc.md\n- make-pdf: { title: Trail Report }", in: root)
        #expect(path == root.appendingPathComponent("doc.pdf").path)
        let info = try await tool("pdfinfo", [path])
        #expect(info.contains("Title:           Trail Report"))
        #expect(info.contains("A4"))
        let pages = Int(info.split(separator: "\n").first { $0.hasPrefix("Pages:") }?.split(separator: " ").last ?? "") ?? 0
        #expect(pages >= 20 && pages <= 60, "\(pages) pages")
        let text = try await tool("pdftotext", [path, "-"])
        #expect(text.contains("Trail Report"))
        #expect(text.contains("café, naïve, Ελληνικά"))
        #expect(text.contains("Ridge Loop"))
        let sections = text.split(separator: "\n").map { $0.drop { $0 == "\u{0C}" } }.filter { $0.hasPrefix("Section ") }.map { Int($0.dropFirst(8)) ?? 0 }
        #expect(sections == Array(1...100))
    }

    @Test("text and images combine into one PDF, pages in order; made from text it goes to the scratch folder")
    func combined() async throws {
        let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAADwAAAAoCAIAAAAt2Q6oAAAAPUlEQVR4nO3OQREAMBCEsPWvok57KviFQUD2t+i9bGhoaGhoaGhoaGhoaOjkjt0FDQ0NDQ0NDQ0NDQ0NnXQbJSQMVclR2wAAAABJRU5ErkJggg=="))
        let root = try folder(["a.png": png])
        let path = try await make("- read-file: a.png\n  as: picture\n- list: [\"First page text\", \"${picture}\", \"Last words\"]\n- make-pdf: { to: out.pdf }", in: root)
        #expect(path == root.appendingPathComponent("out.pdf").path)
        #expect(try await tool("pdfinfo", [path]).contains("Pages:           3"))
        var pageTexts: [String] = []
        for page in 1...3 { pageTexts.append(try await tool("pdftotext", ["-f", "\(page)", "-l", "\(page)", path, "-"])) }
        #expect(pageTexts[0].contains("First page text"))
        #expect(pageTexts[2].contains("Last words"))
        let scratch = try await make("- text: \"Trail report: 4.2 km\"\n- make-pdf", in: root)
        #expect(scratch.contains("relay-scratch-\(getuid())/run-"))
        #expect(try await tool("pdftotext", [scratch, "-"]).contains("Trail report: 4.2 km"))
    }

    @Test("PDF inputs keep their pages; get-text reads a PDF's text")
    func pdfInputs() async throws {
        let root = try folder([:])
        _ = try await make("- text: \"Inner page one\\n\\nsecond paragraph\"\n- make-pdf: { to: inner.pdf }", in: root)
        let path = try await make(
            "- read-file: inner.pdf\n  as: inner\n- list: [\"Cover\", \"${inner}\", \"Back\"]\n- make-pdf: { to: all.pdf }", in: root)
        #expect(try await tool("pdfinfo", [path]).contains("Pages:           3"))
        #expect(try await tool("pdftotext", ["-f", "2", "-l", "2", path, "-"]).contains("Inner page one"))
        let alone = try await make("- read-file: all.pdf\n- make-pdf: { to: copy.pdf }", in: root)
        #expect(FileManager.default.contents(atPath: alone) == FileManager.default.contents(atPath: path), "one PDF alone is copied byte for byte")
        let text = try await make("- read-file: all.pdf\n- get-text", in: root)
        #expect(text.contains("Cover") && text.contains("Inner page one") && text.contains("Back"))
        // The typesetter joins ff, fi, ffl into one glyph; the text read back has the letters.
        // Pages copied into another PDF keep those glyphs without the letters behind them.
        _ = try await make("- text: \"Waffles in the office, fine flowers\"\n- make-pdf: { to: words.pdf }", in: root)
        let words = try await make(
            "- read-file: words.pdf\n  as: words\n- list: [\"Cover\", \"${words}\"]\n- make-pdf: { to: merged.pdf }\n- get-text", in: root)
        #expect(words.contains("Waffles in the office, fine flowers"), "\(words.unicodeScalars.map { String($0.value, radix: 16) })")
        let broken = try folder(["bad.pdf": Data("%PDF-1.4 not really".utf8)])
        try "steps:\n  - read-file: bad.pdf\n  - get-text\n".write(to: broken.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let result = try await RelayProcess.running(["run", "w.yaml"], in: broken)
        #expect(result.status == 1 && result.standardError.contains("cannot read 'bad.pdf' as a PDF"))
    }

    @Test("get-pdf-pages and split-pdf keep the pages asked for, their text in order; pages that are not there are an error")
    func pages() async throws {
        let root = try folder([:])
        for (index, name) in ["one", "two", "three"].enumerated() {
            _ = try await make("- text: \"Page \(name)\"\n- make-pdf: { to: p\(index).pdf }", in: root)
        }
        _ = try await make("- list: [p0.pdf, p1.pdf, p2.pdf]\n- for-each:\n  do:\n    - read-file: \"${item}\"\n- make-pdf: { to: three.pdf }", in: root)
        let middle = try await make("- read-file: three.pdf\n- get-pdf-pages: { from: 2, to: -1 }\n- save-file: tail.pdf", in: root)
        #expect(try await tool("pdfinfo", [middle]).contains("Pages:           2"))
        let text = try await tool("pdftotext", [middle, "-"])
        #expect(text.contains("Page two") && text.contains("Page three") && !text.contains("Page one"), "\(text)")
        let parts = try await make("- read-file: three.pdf\n- split-pdf", in: root).split(separator: "\n").map(String.init)
        #expect(parts.count == 3)
        for (index, part) in parts.enumerated() {
            #expect(try await tool("pdfinfo", [part]).contains("Pages:           1"))
            #expect(try await tool("pdftotext", [part, "-"]).contains(["Page one", "Page two", "Page three"][index]))
        }
        #expect(try await make("- read-file: three.pdf\n- split-pdf: 2\n- count", in: root) == "2")
        try "steps:\n  - read-file: three.pdf\n  - get-pdf-pages: { from: 3, to: 4 }\n".write(
            to: root.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let result = try await RelayProcess.running(["run", "w.yaml"], in: root)
        #expect(result.status == 1 && result.standardError.contains("pages 3 to 4 are not pages of 'three.pdf', which has 3 pages"), "\(result.standardError)")
    }
}
