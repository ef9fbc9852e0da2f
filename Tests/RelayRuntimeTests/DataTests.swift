import Foundation
import RelayKit
import RelayLanguage
import Testing

@testable import RelayActions
@testable import RelayRuntime

/// CSV and JSON: reading, writing, the conversions, and saving them.
@Suite("CSV and JSON")
struct DataTests {
    @Test("CSV records as RFC 4180 writes them, and as spreadsheets do", arguments: [
        ("a,b\r\n1,2\r\n", [["a", "b"], ["1", "2"]]),
        ("a,b\n1,2", [["a", "b"], ["1", "2"]]),
        ("a,b\r1,2\r", [["a", "b"], ["1", "2"]]),
        ("\u{FEFF}a\n\n\nb\n", [["a"], ["b"]]),
        ("\"x, y\",\"line\r\nbreak\",\"say \"\"hi\"\"\"\n", [["x, y", "line\r\nbreak", "say \"hi\""]]),
        ("a,,\n", [["a", "", ""]]),
        (",\n\"\"\n", [["", ""], [""]]),
        ("5\" disk,ok\n", [["5\" disk", "ok"]]),
        ("", []),
        ("  spaced  ,x", [["  spaced  ", "x"]]),
    ])
    func records(text: String, expected: [[String]]) throws {
        #expect(try CSV.records(in: text) == expected)
    }

    @Test("a CSV or JSON text of more values than a run holds is an error where the bound is passed, not gigabytes")
    func readBounds() throws {
        // Empty fields cost nothing to write and a value each to read.
        let commas = String(repeating: ",", count: Limits.readValues + 10)
        do {
            _ = try CSV.records(in: commas)
            Issue.record("\(Limits.readValues + 11) fields were read")
        } catch {
            #expect(error.line == 1 && error.reason.hasPrefix("a CSV text may have at most 4000000 fields"), "\(error)")
        }
        let zeros = "[" + String(repeating: "0,", count: Limits.readValues) + "0]"
        do {
            _ = try JSONReader.value(from: zeros)
            Issue.record("\(Limits.readValues + 2) JSON values were read")
        } catch {
            #expect(String(describing: error).contains("a JSON text may hold at most 4000000 values"), "\(error)")
        }
        // Within the bound, as before.
        #expect(try CSV.records(in: "a,b\n1,2\n") == [["a", "b"], ["1", "2"]])
    }

    @Test("what CSV cannot hold is an error naming its line and column")
    func csvErrors() {
        #expect(throws: CSV.ReadError.self) { try CSV.records(in: "a,b\n1,\"2\n3,4\n") }
        do {
            _ = try CSV.records(in: "a,b\n1,\"2\n3,4\n")
        } catch {
            #expect(error.description == "line 2, column 3: the quote that starts this field is never closed")
        }
        do {
            _ = try CSV.records(in: "a\n\"x\"y,z\n")
        } catch {
            #expect(error.line == 2 && error.column == 4, "\(error)")
        }
    }

    @Test("any records written and read again are the same")
    func roundTrip() throws {
        let records = [["plain", "with, comma", "with \"quote\""], ["", " lead", "trail "], ["line\nfeed", "cr\rlf", "é ✓"], ["\"\u{59E} a mark joins the quote", "\u{FEFF}mark"], [""]]
        for separator: Unicode.Scalar in [",", ";", "\t"] {
            #expect(try CSV.records(in: CSV.text(of: records, separator: separator), separator: separator) == records)
        }
    }

    @Test("parse-csv, make-csv and make-json through workflows", arguments: [
        ("- text: \"name,age\\nAda,36\\nAlan,41\"\n- parse-csv", #"[{"name":"Ada","age":"36"},{"name":"Alan","age":"41"}]"#),
        ("- text: \"a\\tb\\n1\\t2\"\n- parse-csv: { separator: tab, header: false }", #"[["a","b"],["1","2"]]"#),
        ("- text: \"name\"\n- parse-csv", "[]"),
        ("- list: [{ a: 1, b: x }, { b: \"y, z\", c: [1] }]\n- make-csv", #""a,b,c\r\n1,x,\r\n,\"y, z\",[1]\r\n""#),
        ("- list: [[1, 2], [3]]\n- make-csv", #""1,2\r\n3\r\n""#),
        ("- list: [{ a: 1 }]\n- make-csv: { header: false, separator: \";\" }", #""1\r\n""#),
        ("- list: [{ n: 1 }]\n- make-json: compact", #""[{\"n\":1}]""#),
        ("- dictionary: { n: [1, 2] }\n- make-json", #""{\n  \"n\": [\n    1,\n    2\n  ]\n}""#),
    ])
    func actions(steps: String, expected: String) async throws {
        #expect(try await json(steps) == expected)
    }

    @Test("bad CSV, separators and numbers JSON cannot hold are step errors", arguments: [
        ("- text: \"a,b\\n1,2,3\"\n- parse-csv", "the record on line 2 has 3 fields, and the header 2"),
        ("- text: \"a,a\\n1,2\"\n- parse-csv", "column 2 of the header is named 'a', as column 1 is"),
        ("- text: \"a\\n\\\"1\"\n- parse-csv", "line 2, column 1: the quote that starts this field is never closed"),
        ("- text: \"a\\n\\\"1\\\"x\"\n- parse-csv", "after a closing quote"),
        ("- text: a\n- text: \"${previous}${previous}\"\n- parse-csv: { separator: \"${previous}\" }", "one character"),
        ("- list: [{ a: 1 }, [2]]\n- make-csv", "row 1 is a dictionary and others are not"),
        ("- number: 1e400\n- make-json", "JSON has no way to write Infinity"),
        ("- dictionary: '{\"a\": 1}'\n- convert: csv", "cannot convert"),
    ])
    func errors(steps: String, fragment: String) async {
        let error = await failure(steps)
        #expect(error?.message.contains(fragment) == true, "\(String(describing: error))")
    }

    @Test("a separator that cannot be is a check error")
    func separatorChecked() async {
        await #expect(throws: DiagnosticsError.self) { try await run("- text: x\n- parse-csv: { separator: \"ab\" }") }
        await #expect(throws: DiagnosticsError.self) { try await run("- text: x\n- parse-csv: { separator: '\"' }") }
    }

    @Test("files: JSON and CSV files convert both ways; a list is one file; big and non-UTF-8 files are refused")
    func files() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let workflow = folder.appendingPathComponent("w.yaml").path
        try "{\"a\": [1, 2]}".write(to: folder.appendingPathComponent("d.json"), atomically: true, encoding: .utf8)
        try "x,y\n1,2\n".write(to: folder.appendingPathComponent("t.csv"), atomically: true, encoding: .utf8)
        try Data([0x61, 0x2C, 0xFF, 0x0A]).write(to: folder.appendingPathComponent("bad.csv"))
        #expect(try await run("- read-file: d.json\n- convert: dictionary\n- get-value: a.2", path: workflow) == .number(2))
        #expect(try await run("- read-file: t.csv\n- parse-csv\n- get-item: first\n- get-value: y", path: workflow) == "2")
        #expect(try await run("- read-file: t.csv\n- parse-csv\n- count", path: workflow) == .number(1))
        // A list of one is still a list in JSON.
        let made = try await run("- list: [{ a: 1 }]\n- convert: json\n- get-text", path: workflow)
        #expect(made.textValue.hasPrefix("["), "\(made)")
        let bad = FileManager.default.createFile(atPath: folder.appendingPathComponent("huge.csv").path, contents: nil)
        #expect(bad)
        // Sparse: 300 MiB that take no disk.
        let handle = try FileHandle(forWritingTo: folder.appendingPathComponent("huge.csv"))
        try handle.truncate(atOffset: 300 << 20)
        try handle.close()
        for (steps, fragment) in [
            ("- read-file: bad.csv\n- parse-csv", "is not UTF-8 text: byte 2"),
            ("- read-file: huge.csv\n- parse-csv", "may be at most 256 MiB"),
        ] {
            do {
                _ = try await run(steps, path: workflow)
                Issue.record("\(steps) was read")
            } catch let error as RuntimeError {
                #expect(error.message.contains(fragment), "\(error.message)")
            }
        }
    }

    @Test("save-file: text ends with a line feed, append adds on a line of its own, JSON and CSV by extension")
    func saving() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let workflow = folder.appendingPathComponent("w.yaml").path
        let granted = writing(folder)
        func contents(_ name: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        _ = try await run("- text: one\n- save-file: a.txt", path: workflow, granted: granted)
        #expect(try contents("a.txt") == "one\n")
        _ = try await run("- text: two\n- save-file: { to: a.txt, append: true }", path: workflow, granted: granted)
        #expect(try contents("a.txt") == "one\ntwo\n")
        try "no end".write(to: folder.appendingPathComponent("b.txt"), atomically: true, encoding: .utf8)
        _ = try await run("- text: next\n- save-file: { to: b.txt, append: true }", path: workflow, granted: granted)
        #expect(try contents("b.txt") == "no end\nnext\n")
        _ = try await run("- text: new\n- save-file: { to: c.txt, append: true }", path: workflow, granted: granted)
        #expect(try contents("c.txt") == "new\n")
        _ = try await run("- list: [{ name: Ada }]\n- save-file: people.json", path: workflow, granted: granted)
        #expect(try JSONReader.value(from: try contents("people.json")) == .list([.dictionary(["name": "Ada"])]))
        _ = try await run("- list: [{ name: Ada }, { name: Alan }]\n- save-file: people.csv", path: workflow, granted: granted)
        #expect(try contents("people.csv") == "name\r\nAda\r\nAlan\r\n")
        do {
            _ = try await run("- text: again\n- save-file: a.txt", path: workflow, granted: granted)
            Issue.record("replaced a file without overwrite")
        } catch let error as RuntimeError {
            #expect(error.message.contains("set overwrite: true to replace it"))
        }
        #expect(try contents("a.txt") == "one\ntwo\n")
    }
}
