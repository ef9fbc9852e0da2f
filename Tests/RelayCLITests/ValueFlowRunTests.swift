import Foundation
import Testing

/// How values flow between steps, as a run holds it (Docs/Language.md, "How values flow"): files
/// acted on are files that exist, a single value is a list of one where a list is wanted, content
/// types conform.
@Suite("Value flow in runs")
struct ValueFlowRunTests {
    /// A fresh folder with its own HOME (its own undo journal and history), its own temporary
    /// folder (its own scratch folders) and two text files.
    private func sandbox() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-flow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        try Data("one\ntwo\nthree\n".utf8).write(to: folder.appendingPathComponent("a.txt"))
        try Data("bee\n".utf8).write(to: folder.appendingPathComponent("b.txt"))
        return folder
    }

    private func relay(_ arguments: [String], in folder: URL) async throws -> RelayProcess.Result {
        try await RelayProcess.running(
            arguments, in: folder,
            environment: [
                "HOME": folder.appendingPathComponent("home").path, "XDG_STATE_HOME": "", "TMPDIR": folder.appendingPathComponent("tmp").path,
                "TZ": "UTC",
            ])
    }

    private func write(_ steps: String, in folder: URL) throws {
        try ("steps:\n" + steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n")
            .write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
    }

    /// Every path under `folder` with its bytes (folders with none), but the workflow and HOME
    /// (the run's history is there).
    private func snapshot(_ folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            guard path != "w.yaml", !path.hasPrefix("home") else { continue }
            result[path] = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path) ?? Data()
        }
        return result
    }

    @Test("a number, a text, a list or a dictionary given to a file action is refused before anything is touched", arguments: [
        "- number: 5\n  as: n\n- delete-file: { file: \"${n}\" }",
        // Set in two places, the variable has no type the checker holds: the run refuses it.
        "- set: { n: 0 }\n- number: 5\n  as: n\n- delete-file: { file: \"${n}\" }",
        "- number: 5\n  as: n\n- move-file: { file: \"${n}\", to: sub/ }",
        "- number: 5\n  as: n\n- rename-file: { file: \"${n}\", name: c.txt }",
        "- text: not a file at all\n  as: t\n- delete-file: { file: \"${t}\" }",
        "- dictionary: { a: 1 }\n  as: d\n- delete-file: { file: \"${d}\" }",
        "- list: [1, 2]\n  as: l\n- move-file: { file: \"${l}\", to: sub/ }",
        "- read-file: a.txt\n  as: f\n- list: [\"${f}\", 2]\n  as: l\n- delete-file: { file: \"${l}\" }",
        "- dictionary: { a: 1 }\n  as: d\n- copy-file: { file: \"${d}\", to: sub/ }",
    ])
    func refused(steps: String) async throws {
        let folder = try sandbox()
        try write(steps, in: folder)
        let before = snapshot(folder)
        let run = try await relay(["run", "w.yaml", "--allow-write=\(folder.path)"], in: folder)
        // Refused by the checker where it knows the variable's type (exit 2), else by the run (1).
        #expect([1, 2].contains(run.status), "\(run.standardError)")
        #expect(run.standardError.contains("w.yaml:"), "\(run.standardError)")
        // Nothing changed: no file made in the scratch folder, none moved or deleted, no journal.
        #expect(snapshot(folder) == before, "\(run.standardError)")
        #expect(try await relay(["undo"], in: folder).standardError.contains("nothing to undo"))
    }

    @Test("the checker refuses a value that can never name a file, saying which step made it")
    func checked() async throws {
        let folder = try sandbox()
        try write("- number: 5\n- delete-file", in: folder)
        let check = try await relay(["check", "w.yaml"], in: folder)
        #expect(check.status == 2)
        #expect(check.standardError.contains("'delete-file' takes a file that exists as input, but the previous step, 'number' (line 2), outputs a number"))
        #expect(check.standardError.contains("help: give the step its input with 'input:'"))
    }

    @Test("a list written for a file to act on runs the action once per file; one found is still a list of one")
    func listsAndOne() async throws {
        let folder = try sandbox()
        try write(
            """
            - find-files: { in: ., where: { extension: txt } }
              as: files
            - move-file: { file: "${files}", to: sub/ }
              as: moved
            - find-files: { in: sub, where: { name: a.txt } }
              as: one
            - text: "${moved.count} ${one.count} ${one.first.name} ${one.last.name}"
            """, in: folder)
        let run = try await relay(["run", "w.yaml", "--allow-write=\(folder.path)"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "2 1 a.txt a.txt\n")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("sub/a.txt").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("sub/b.txt").path))
        // Nothing was made of the list: no JSON file anywhere.
        #expect(!snapshot(folder).keys.contains { $0.hasSuffix(".json") })
    }

    @Test("count: lines, words and characters of a file count its text")
    func countOfFile() async throws {
        let folder = try sandbox()
        try write("- read-file: a.txt\n  as: f\n- count: lines\n  as: lines\n- count: words\n  input: ${f}\n  as: words\n- text: \"${lines} ${words}\"", in: folder)
        let run = try await relay(["run", "w.yaml"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "3 3\n")
    }

    @Test("a PNG is public.image: where: type matches by conformance")
    func contentTypesConform() async throws {
        let folder = try sandbox()
        let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="))
        try png.write(to: folder.appendingPathComponent("p.png"))
        try write(
            """
            - find-files: { in: ., where: { type: public.image } }
              as: images
            - find-files: { in: ., where: { type: { any-of: [image, pdf] } } }
              as: either
            - find-files: { in: ., where: { type: text } }
              as: texts
            - text: "${images.count} ${images.first.name} ${either.count} ${texts.count}"
            """, in: folder)
        let run = try await relay(["run", "w.yaml"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        // The texts are a.txt, b.txt and the workflow (YAML is plain text).
        #expect(run.standardOutput == "1 p.png 1 3\n")
    }

    @Test("a declared output that is nothing is an error naming the step that gave it")
    func declaredOutputKept() async throws {
        let folder = try sandbox()
        try ("output: text\nsteps:\n  - number: 1\n  - if: ${previous > 5}\n    then:\n      - text: big\n")
            .write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let run = try await relay(["run", "w.yaml"], in: folder)
        #expect(run.status == 1)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains("w.yaml:1:9: error: the workflow declares output text, but it gave nothing: the 'if' at line 4 gives nothing when its condition is false (it has no 'else' steps)"), "\(run.standardError)")
    }

    @Test("the question before the first step includes a move's source folder; granted both, the move runs")
    func moveSourceAskedUpFront() async throws {
        let folder = try sandbox()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("data"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: folder.appendingPathComponent("data/x.txt"))
        try write("- find-files: { in: data }\n  as: found\n- move-file: { file: \"${found}\", to: done/ }\n- read-file: data/gone.txt\n- delete-file", in: folder)
        let report = try await relay(["check", "--permissions", "w.yaml"], in: folder)
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput.contains("write:\n  ./data  (step 2 move-file"), "\(report.standardOutput)")
        #expect(report.standardOutput.contains("./data/gone.txt  (step 4 delete-file"), "\(report.standardOutput)")
        // Without a terminal, every need known before the first step is reported at once.
        let denied = try await relay(["run", "w.yaml"], in: folder)
        #expect(denied.status == 4)
        let data = folder.appendingPathComponent("data").path
        #expect(denied.standardError.contains("--allow-write=\(data) "), "\(denied.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("data/x.txt").path))
    }

    @Test("a style's name given to format-date is that style; describe names each action's primary")
    func formatDateStyle() async throws {
        let folder = try sandbox()
        try write("- date: 2026-11-24 15:30\n- format-date: short\n  as: short\n- format-date: { format: iso }\n  input: 2026-11-24T15:30:00Z\n  as: iso\n- text: \"${short}|${iso}\"", in: folder)
        let run = try await relay(["run", "w.yaml"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("26") && run.standardOutput.contains("11"), "\(run.standardOutput)")
        #expect(run.standardOutput.hasSuffix("|2026-11-24T15:30:00Z\n"), "\(run.standardOutput)")
        let described = try await relay(["describe", "round-number"], in: folder)
        #expect(described.standardOutput.contains("Primary: places, written after the name (- round-number: 1)"))
        let none = try await relay(["describe", "replace-text"], in: folder)
        #expect(none.standardOutput.contains("Primary: none (parameters by name)"))
    }

    @Test("${scratch} is the run's scratch folder, free to write; the report asks nothing for it")
    func scratchVariable() async throws {
        let folder = try sandbox()
        try write("- text: draft\n- save-file: \"${scratch}/draft.txt\"\n- text: \"${previous.path}\"", in: folder)
        let report = try await relay(["check", "--permissions", "w.yaml"], in: folder)
        #expect(!report.standardOutput.contains("write:"), "\(report.standardOutput)")
        // A path that leaves it with .. is not the scratch folder's: the report says the run decides it.
        try write("- text: x\n- save-file: \"${scratch}/../out.txt\"", in: folder)
        let leaving = try await relay(["check", "--permissions", "w.yaml"], in: folder)
        #expect(leaving.standardOutput.contains("write:"), "\(leaving.standardOutput)")
        try write("- text: draft\n- save-file: \"${scratch}/draft.txt\"\n- text: \"${previous.path}\"", in: folder)
        let run = try await relay(["run", "w.yaml"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        let path = run.standardOutput.trimmingCharacters(in: .newlines)
        #expect(path.hasPrefix(folder.appendingPathComponent("tmp/relay-scratch-\(getuid())/").path), "\(path)")
        #expect(path.hasSuffix("/draft.txt"))
        #expect(FileManager.default.contents(atPath: path) == Data("draft\n".utf8))
    }

    @Test("where only the run knows the type, a mismatch reads as the checker's, naming the step the input came from")
    func runtimeMismatch() async throws {
        let folder = try sandbox()
        try write("- dictionary: { a: 1 }\n  as: d\n- list: [\"${d}\"]\n- get-item: 1\n- delete-file", in: folder)
        #expect(try await relay(["check", "w.yaml"], in: folder).status == 0)
        let before = snapshot(folder)
        let run = try await relay(["run", "w.yaml", "--allow-write=\(folder.path)"], in: folder)
        #expect(run.status == 1)
        #expect(
            run.standardError.contains(
                "w.yaml:6:5: error: step 'delete-file': 'delete-file' takes a file that exists as input, but the previous step, 'get-item' (line 5), gave a dictionary of 1 key"),
            "\(run.standardError)")
        #expect(run.standardError.contains("help: give the step its input with 'input:'"))
        #expect(snapshot(folder) == before)
    }

    @Test("a misspelt --answer is an error before anything runs, listing the questions; one unanswered names the others")
    func answers() async throws {
        let folder = try sandbox()
        try write(
            """
            - ask: What was the bill?
              as: bill
            - text: x
            - save-file: { to: made.txt }
            - menu: Tip?
              options:
                Ten: [{ number: 10 }]
                Twenty: [{ number: 20 }]
            - text: "${bill} ${previous}"
            """, in: folder)
        let misspelt = try await relay(["run", "w.yaml", "--answer", "What was teh bill?=5", "--allow-write=\(folder.path)"], in: folder)
        #expect(misspelt.status == 2)
        #expect(misspelt.standardError.contains("--answer 'What was teh bill?' answers no question of w; did you mean 'What was the bill?'?"), "\(misspelt.standardError)")
        #expect(misspelt.standardError.contains("'What was the bill?' (as bill), 'Tip?'"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("made.txt").path))
        let none = try await relay(["run", "w.yaml", "--allow-write=\(folder.path)"], in: folder)
        #expect(none.status == 1)
        #expect(none.standardError.contains("no answer for 'What was the bill?'"))
        #expect(none.standardError.contains("the workflow may also ask 'Tip?'"), "\(none.standardError)")
        let both = try await relay(["run", "w.yaml", "--answer", "bill=5", "--answer", "Tip?=twenty", "--allow-write=\(folder.path)"], in: folder)
        #expect(both.status == 0, "\(both.standardError)")
        #expect(both.standardOutput == "5 20\n")
    }

    @Test("a list to act on is checked whole first: a path not granted or not there leaves every file where it was")
    func listCheckedWhole() async throws {
        let folder = try sandbox()
        let big = folder.appendingPathComponent("big")
        try FileManager.default.createDirectory(at: big, withIntermediateDirectories: true)
        for index in 0..<50 { try Data("\(index)".utf8).write(to: big.appendingPathComponent("f\(index).txt")) }
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("relay-flow-victim-\(UUID().uuidString).txt")
        try Data("victim".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        for extra in [outside.path, "big/not-there.txt"] {
            try write("- find-files: { in: big, sort: name }\n  as: f\n- append: { f: \"\(extra)\" }\n- delete-file: \"${f}\"", in: folder)
            let before = snapshot(folder)
            let run = try await relay(["run", "w.yaml", "--allow-write=\(big.path)"], in: folder)
            #expect(run.status != 0, "\(run.standardError)")
            #expect(snapshot(folder) == before, "\(extra): \(run.standardError)")
        }
        #expect(FileManager.default.fileExists(atPath: outside.path))
    }

    @Test("a file is never moved into the scratch folder, which is cleared")
    func notIntoScratch() async throws {
        let folder = try sandbox()
        try write("- move-file: { file: a.txt, to: \"${scratch}/\" }", in: folder)
        let run = try await relay(["run", "w.yaml", "--allow-write=\(folder.path)"], in: folder)
        #expect(run.status == 1)
        #expect(run.standardError.contains("would be moved into the run's scratch folder"), "\(run.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("a.txt").path))
    }

    @Test("a value nested past the limit is a located error, never a crash", arguments: [
        "- repeat: 5000\n  do: [ { set: { x: \"${[x]}\" } } ]\n- count",
        "- dictionary: { a: 1 }\n  as: x\n- repeat: 1000\n  do:\n    - set-value: { key: inner, value: \"${x}\" }\n      input: ${x}\n      as: x\n- count",
    ])
    func deepValues(steps: String) async throws {
        let folder = try sandbox()
        try ("variables: { x: a.txt }\nsteps:\n" + steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n")
            .write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let run = try await relay(["run", "w.yaml"], in: folder)
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardError.contains("nest more than 512 deep"), "\(run.standardError)")
    }
}
