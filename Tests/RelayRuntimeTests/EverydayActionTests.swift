import Foundation
import RelayKit
import RelayEngine
import Testing

@testable import RelayRuntime

/// The everyday list, random, date and size actions, with what goes wrong at their edges.
@Suite("Lists in order, random numbers, periods and sizes")
struct EverydayActionTests {
    @Test("unique, reverse-list and sort-list", arguments: [
        ("- list: [b, a, b, c, a]\n- unique", #"["b","a","c"]"#),
        ("- list: [Oslo, oslo, Bergen]\n- unique", #"["Oslo","oslo","Bergen"]"#),
        ("- list: [Oslo, oslo, Bergen]\n- unique: { case-sensitive: false }", #"["Oslo","Bergen"]"#),
        // A number and a text that reads as it are the same item, as in `if`; 0 and -0 too.
        ("- list: [1, \"1\", 2, 0, -0]\n- unique", #"[1,2,0]"#),
        ("- list: [[1, 2], [1, 2], [2]]\n- unique", #"[[1,2],[2]]"#),
        ("- list: []\n- unique", "[]"),
        ("- list: [1, 2, 3]\n- reverse-list", "[3,2,1]"),
        ("- list: [photo10.jpg, Photo2.jpg, photo1.jpg]\n- sort-list", #"["photo1.jpg","Photo2.jpg","photo10.jpg"]"#),
        ("- list: [photo10.jpg, photo2.jpg]\n- sort-list: { natural: false }", #"["photo10.jpg","photo2.jpg"]"#),
        ("- list: [b, B, a, A]\n- sort-list: { case-sensitive: true, natural: false }", #"["A","B","a","b"]"#),
        ("- list: [3, 11, 2]\n- sort-list: descending", "[11,3,2]"),
        ("- list: [2026-03-01, 2025-12-31]\n- sort-list\n- get-item: first\n- format-date: yyyy", #""2025""#),
        // Texts that differ only in case are put in one order, whatever their order in the list.
        ("- list: [b, a, B]\n- sort-list", #"["a","B","b"]"#),
        ("- list: [B, a, b]\n- sort-list", #"["a","B","b"]"#),
        ("- list: [2, \"10\", 1]\n- sort-list", #"[1,2,"10"]"#),
    ])
    func lists(steps: String, expected: String) async throws {
        #expect(try await json(steps) == expected)
    }

    @Test("random-number: whole ends give whole numbers from one end to the other, both included")
    func randomWhole() async throws {
        var seen = Set<Double>()
        for _ in 0..<300 {
            guard case .number(let number) = try await run("- random-number: { min: 1, max: 6 }") else {
                Issue.record("not a number")
                return
            }
            #expect((1...6).contains(number) && number.rounded() == number)
            seen.insert(number)
        }
        // The chance that one face never comes in 300 throws is 6 × (5/6)^300, about 10^-23.
        #expect(seen == [1, 2, 3, 4, 5, 6])
        #expect(try await run("- random-number: { min: -3, max: -3 }") == .number(-3))
    }

    @Test("random-number and random(): fractions, extreme and equal ends")
    func randomEdges() async throws {
        for steps in [
            "- random-number: { min: 0.5, max: 0.75 }", "- calculate: \"random()\"", "- calculate: \"random(-1e308, 1e308)\"",
            "- random-number: { min: -1e308, max: 1e308 }", "- random-number: { min: 1e300, max: 1e301 }",
        ] {
            guard case .number(let number) = try await run(steps) else {
                Issue.record("\(steps): not a number")
                continue
            }
            #expect(number.isFinite, "\(steps)")
            if steps.contains("0.5") { #expect(number >= 0.5 && number <= 0.75) }
            if steps.contains("random()") { #expect(number >= 0 && number < 1) }
        }
        guard case .number(let die) = try await run("- calculate: \"random(1, 6) * 10\"") else { return }
        #expect([10, 20, 30, 40, 50, 60].contains(die))
    }

    @Test("bad ends, empty lists and mixed lists are step errors that say what is wrong", arguments: [
        ("- random-number: { min: 6, max: 1 }", "is larger than the largest"),
        // NaN and infinity never become numbers, so they never reach the draw.
        ("- text: .nan\n- random-number: { min: 0, max: \"${previous}\" }", "parameter 'max' wants a number"),
        ("- text: .inf\n- random-number: { min: 0, max: \"${previous}\" }", "parameter 'max' wants a number"),
        ("- text: \"random(1)\"\n- calculate: \"${previous}\"", "random takes no number"),
        ("- text: \"random(3, 2)\"\n- calculate: \"${previous}\"", "is larger than the largest"),
        ("- text: \"min()\"\n- calculate: \"${previous}\"", "min takes one number or more"),
        ("- list: []\n- random-item", "the list is empty"),
        ("- list: [1, [2]]\n- sort-list", "in one list; sort-list orders numbers, dates and texts"),
        ("- number: -1\n- format-file-size", "from 0"),
        ("- number: 1e400\n- format-file-size", "from 0"),
        ("- number: 1e300\n- format-file-size", "from 0"),
        ("- text: lots\n- format-file-size", "'lots' is not a number of bytes"),
    ])
    func errors(steps: String, fragment: String) async {
        let error = await failure(steps)
        #expect(error?.message.contains(fragment) == true, "\(String(describing: error))")
    }

    @Test("random-item picks an item of the list")
    func randomItem() async throws {
        for _ in 0..<20 {
            let item = try await run("- list: [heads, tails]\n- random-item")
            #expect(item == "heads" || item == "tails")
        }
        #expect(try await run("- list: [only]\n- random-item") == "only")
    }

    @Test("start-of and end-of a day, week, month and year", arguments: [
        ("- date: 2026-11-24 15:30\n- start-of: day\n- format-date: \"yyyy-MM-dd HH:mm:ss\"", #""2026-11-24 00:00:00""#),
        ("- date: 2026-11-24 15:30\n- end-of: day\n- format-date: \"yyyy-MM-dd HH:mm:ss\"", #""2026-11-24 23:59:59""#),
        ("- date: 2024-02-10\n- end-of: month\n- format-date: yyyy-MM-dd", #""2024-02-29""#),
        ("- date: 2026-07-04\n- start-of: year\n- format-date: yyyy-MM-dd", #""2026-01-01""#),
        ("- date: 2026-07-04\n- end-of: year\n- format-date: yyyy-MM-dd", #""2026-12-31""#),
    ])
    func periods(steps: String, expected: String) async throws {
        #expect(try await json(steps) == expected)
    }

    @Test("a week starts on the calendar's first weekday and lasts seven days")
    func week() async throws {
        let start = try await run("- date: 2026-11-25 12:00\n- start-of: week")
        let end = try await run("- date: 2026-11-25 12:00\n- end-of: week")
        guard case .date(let first) = start, case .date(let last) = end else {
            Issue.record("not dates: \(start), \(end)")
            return
        }
        #expect(Calendar.current.component(.weekday, from: first) == Calendar.current.firstWeekday)
        #expect(Calendar.current.dateComponents([.day], from: first, to: last.addingTimeInterval(1)).day == 7)
    }

    @Test("format-file-size: numbers, sizes and files, decimal and binary", arguments: [
        ("- number: 0\n- format-file-size", #""0 bytes""#),
        ("- number: 1\n- format-file-size", #""1 byte""#),
        ("- number: 1400000\n- format-file-size", #""1.4 MB""#),
        ("- number: 1536\n- format-file-size: { units: binary }", #""1.5 KiB""#),
        ("- text: 3 GiB\n- format-file-size: { units: binary }", #""3 GiB""#),
        // The size is the value written after the name.
        ("- number: 1400000\n  as: size\n- format-file-size: ${size}", #""1.4 MB""#),
        ("- number: 9000000000000000000\n- format-file-size", #""9000 PB""#),
    ])
    func sizes(steps: String, expected: String) async throws {
        #expect(try await json(steps) == expected)
    }

    @Test("a file's size, stem, url and MIME type")
    func fileProperties() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-sizes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("my report.tar.gz")
        try Data(repeating: 7, count: 2_500).write(to: file)
        try "# Hi".write(to: folder.appendingPathComponent("notes.md"), atomically: true, encoding: .utf8)
        let workflow = folder.appendingPathComponent("w.yaml").path
        let size = try await run("- read-file: \"my report.tar.gz\"\n- format-file-size", path: workflow)
        #expect(size == "2.5 KB")
        let facts = try await run(
            "- read-file: \"my report.tar.gz\"\n- text: \"${previous.stem}|${previous.url}\"\n- read-file: notes.md\n- text: \"${previous.stem}|${previous.mimeType}\"",
            path: workflow)
        #expect(facts == "notes|text/markdown")
        let url = try await run("- read-file: \"my report.tar.gz\"\n- text: \"${previous.stem}|${previous.url}\"", path: workflow)
        #expect(url == .text("my report.tar|" + URL(fileURLWithPath: file.path).absoluteString))
        #expect(URL(fileURLWithPath: file.path).absoluteString.contains("my%20report.tar.gz"))
    }

    @Test("hash: SHA-256, SHA-1 and MD5 of text, and of a file read in pieces")
    func hash() async throws {
        #expect(try await run("- text: abc\n- hash") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try await run("- text: abc\n- hash: sha1") == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(try await run("- text: abc\n- hash: md5") == "900150983cd24fb0d6963f7d28e17f72")
        #expect(try await run("- text: \"\"\n- hash: md5") == "d41d8cd98f00b204e9800998ecf8427e")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-hash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Three and a half megabytes: pieces of one megabyte, and a short last one.
        let bytes = Data((0..<3_670_016).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
        try bytes.write(to: folder.appendingPathComponent("big.bin"))
        let workflow = folder.appendingPathComponent("w.yaml").path
        for algorithm in ContentHash.Algorithm.allCases {
            let digest = try await run("- read-file: big.bin\n- hash: \(algorithm.rawValue)", path: workflow)
            #expect(digest == ContentHash.of(bytes, algorithm).map(Value.text), "\(algorithm)")
        }
        await #expect(throws: RuntimeError.self) { try await run("- list: [a, b]\n- hash") }
    }

    @Test("convert-measurement: each kind, names in any case, and errors for kinds that differ or numbers past their limits", arguments: [
        ("- number: 10\n- convert-measurement: { from: km, to: mi }\n- format-number: 3", #""6.214""#),
        ("- convert-measurement: { value: 100, from: Celsius, to: °F }", "212"),
        ("- convert-measurement: { value: 0, from: c, to: kelvin }", "273.15"),
        ("- convert-measurement: { value: 2, from: lb, to: g }\n- round-number", "907"),
        ("- convert-measurement: { value: 1, from: MiB, to: KB }", "1048.576"),
        ("- convert-measurement: { value: 90, from: minutes, to: h }", "1.5"),
        ("- convert-measurement: { value: 1, from: week, to: days }", "7"),
        ("- convert-measurement: { value: 100, from: km/h, to: m/s }\n- format-number: 2", #""27.78""#),
        ("- convert-measurement: { value: 1, from: gallon, to: l }\n- format-number: 3", #""3.785""#),
    ])
    func measurements(steps: String, expected: String) async throws {
        #expect(try await json(steps) == expected)
    }

    @Test("measurement errors", arguments: [
        ("- convert-measurement: { value: 1, from: km, to: kg }", "one measures length, the other mass"),
        ("- number: 1e308\n- convert-measurement: { from: TiB, to: bit }", "is beyond what a number holds"),
        ("- number: 1e400\n- convert-measurement: { from: m, to: km }", "cannot convert"),
        ("- text: parsec\n- convert-measurement: { value: 1, from: \"${previous}\", to: m }", "'parsec' is not a unit Relay knows"),
    ])
    func measurementErrors(steps: String, fragment: String) async {
        let error = await failure(steps)
        #expect(error?.message.contains(fragment) == true, "\(String(describing: error))")
    }
}
