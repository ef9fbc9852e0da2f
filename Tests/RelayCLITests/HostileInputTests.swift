import Foundation
import Testing

/// Workflows and files made to break Relay get a located error and a non-zero exit — never a
/// crash, a hang or unbounded memory (Docs/Reliability.md).
@Suite("Hostile workflows and files")
struct HostileInputTests {
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func relay(_ arguments: [String], in folder: URL) async throws -> RelayProcess.Result {
        try await RelayProcess.running(arguments, in: folder, environment: ["HOME": folder.appendingPathComponent("home").path, "XDG_STATE_HOME": ""])
    }

    @Test("workflow files that are not workflow text: too big, a FIFO, a folder, a device, not UTF-8, UTF-16")
    func workflowFiles() async throws {
        let root = try folder()
        let path = { (name: String) in root.appendingPathComponent(name).path }
        // A sparse 2 GB file: refused from its size, without being read.
        #expect(FileManager.default.createFile(atPath: path("big.yaml"), contents: nil))
        #expect(truncate(path("big.yaml"), 2 << 30) == 0)
        #expect(mkfifo(path("fifo.yaml"), 0o600) == 0)
        try FileManager.default.createDirectory(atPath: path("folder.yaml"), withIntermediateDirectories: true)
        try Data("steps:\n  - text: caf\u{E9}\n".utf8).write(to: URL(fileURLWithPath: path("ok.yaml")))
        try Data([0x73, 0x74, 0x65, 0x70, 0x73, 0x3A, 0x0A, 0x20, 0x20, 0x2D, 0x20, 0x74, 0x65, 0x78, 0x74, 0x3A, 0x20, 0x63, 0x61, 0x66, 0xE9, 0x0A])
            .write(to: URL(fileURLWithPath: path("latin1.yaml")))
        try Data([0xFF, 0xFE, 0x73, 0x00, 0x74, 0x00]).write(to: URL(fileURLWithPath: path("utf16.yaml")))
        let expected = [
            "big.yaml": "error: 'big.yaml' is 2.1 GB; a workflow file may be at most 10 MB",
            "fifo.yaml": "error: 'fifo.yaml' is not a regular file (it is a FIFO)",
            "folder.yaml": "error: 'folder.yaml' is a folder, not a workflow file",
            "/dev/null": "error: '/dev/null' is not a regular file (it is a device)",
            "latin1.yaml": "latin1.yaml:2:14: error: 'latin1.yaml' is not UTF-8 text: byte 0xE9 at line 2, column 14 is not part of a UTF-8 character",
            "utf16.yaml": "error: 'utf16.yaml' is UTF-16 text (it starts with a byte order mark); save it as UTF-8",
        ]
        for (file, message) in expected {
            for command in ["check", "run"] {
                let result = try await relay([command, file], in: root)
                #expect(result.status == 2, "\(command) \(file): \(result.standardError)")
                #expect(result.standardError.hasPrefix(message), "\(command) \(file): \(result.standardError)")
            }
        }
        #expect(try await relay(["run", "ok.yaml"], in: root).standardOutput == "café\n")
        // A UTF-8 byte order mark, as editors on Windows write, is no part of the text.
        try Data([0xEF, 0xBB, 0xBF] + Array("steps:\n  - text: caf\u{E9}\n".utf8)).write(to: URL(fileURLWithPath: path("bom.yaml")))
        let marked = try await relay(["run", "bom.yaml"], in: root)
        #expect(marked.standardOutput == "café\n", "\(marked.standardError)")
    }

    @Test("a pipe or a device named as a file a step reads is an error at once, not a read that never ends")
    func pipesAreNotRead() async throws {
        let root = try folder()
        #expect(mkfifo(root.appendingPathComponent("pipe.txt").path, 0o600) == 0)
        for source in ["pipe.txt", "/dev/zero"] {
            try "timeout: 60\nsteps:\n  - read-file: \(source)\n  - hash\n".write(
                to: root.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
            let run = try await relay(["run", "w.yaml", "--allow-read"], in: root)
            #expect(run.status == 1, "\(source): \(run.standardError)")
            #expect(run.standardError.contains("is not a file (a pipe, a socket or a device), and is not read"), "\(source): \(run.standardError)")
        }
    }

    @Test("a workflow that runs itself twice under on-error: continue stops at the run's budget of workflow calls", arguments: [false, true])
    func selfRecursion(parallel: Bool) async throws {
        let root = try folder()
        let calls = "  - run-workflow: self.yaml\n    on-error: continue\n  - run-workflow: self.yaml\n    on-error: continue\n"
        let steps = parallel
            ? "steps:\n  - list: [1, 2]\n  - for-each:\n    parallel: true\n    do:\n" + calls.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n"
            : "steps:\n" + calls
        try steps.write(to: root.appendingPathComponent("self.yaml"), atomically: true, encoding: .utf8)
        let result = try await relay(["run", "--trace", "self.yaml"], in: root)
        #expect(result.status == 1)
        #expect(result.standardError.contains("this run has started 10000 workflows with run-workflow, the most one run may"), "\(result.standardError.prefix(400))")
        // The work stops with the budget: each workflow started (the budget's 10,000 and the first)
        // ran its run-workflow steps at most once each, where without the budget they would double
        // with every level.
        let stepsPerWorkflow = parallel ? 4 : 2
        let stepsRun = result.standardError.split(separator: "\n").filter { $0.hasPrefix("trace: ") && $0.contains(": run-workflow") }.count
        #expect(stepsRun > 10_000 && stepsRun <= 10_001 * stepsPerWorkflow, "\(stepsRun) run-workflow steps")
    }

    @Test("numbers at their limits: NaN and the infinities format as words; a huge repeat that stops at once is quick")
    func numbers() async throws {
        let root = try folder()
        try "steps:\n  - number: .inf\n  - format-number\n".write(to: root.appendingPathComponent("inf.yaml"), atomically: true, encoding: .utf8)
        try "steps:\n  - number: .nan\n  - format-number: 3\n".write(to: root.appendingPathComponent("nan.yaml"), atomically: true, encoding: .utf8)
        try "steps:\n  - number: -.inf\n  - format-number: 0\n".write(to: root.appendingPathComponent("minus.yaml"), atomically: true, encoding: .utf8)
        try "steps:\n  - repeat: 1000000000\n    do:\n      - stop: done\n".write(to: root.appendingPathComponent("repeat.yaml"), atomically: true, encoding: .utf8)
        #expect(try await relay(["run", "inf.yaml"], in: root).standardOutput == "Infinity\n")
        #expect(try await relay(["run", "nan.yaml"], in: root).standardOutput == "NaN\n")
        #expect(try await relay(["run", "minus.yaml"], in: root).standardOutput == "-Infinity\n")
        #expect(try await relay(["run", "repeat.yaml"], in: root).standardOutput == "done\n")
    }

    @Test("a text doubled in a loop, by interpolation or by +, stops at the bound on a text with a located error, not an abort")
    func doubledText() async throws {
        let root = try folder()
        for (name, doubling) in [("interpolated", "\"${t}${t}\""), ("added", "\"${t + t}\"")] {
            try "steps:\n  - set: { t: x }\n  - repeat: 40\n    do:\n      - set: { t: \(doubling) }\n  - text: \"${t.count}\"\n"
                .write(to: root.appendingPathComponent("\(name).yaml"), atomically: true, encoding: .utf8)
            let result = try await relay(["run", "\(name).yaml"], in: root)
            #expect(result.status == 1, "\(name): \(result.standardError)")
            #expect(result.standardError.hasPrefix("\(name).yaml:5:"), "\(name): \(result.standardError)")
            #expect(result.standardError.contains("a text may be at most 256 MiB; this one would be 512 MiB"), "\(name): \(result.standardError)")
        }
    }

    @Test("a text split into more parts than a list may hold is an error before the list is made")
    func splitPastTheBound() async throws {
        let root = try folder()
        // 2^24 characters: more than the 10 million items a list may hold.
        try "steps:\n  - set: { t: x }\n  - repeat: 24\n    do:\n      - set: { t: \"${t}${t}\" }\n  - split-text: { text: \"${t}\", by: characters }\n  - count\n"
            .write(to: root.appendingPathComponent("split.yaml"), atomically: true, encoding: .utf8)
        let result = try await relay(["run", "split.yaml"], in: root)
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("may hold at most 10000000 items; this one would hold 10000001"), "\(result.standardError)")
    }

    @Test("a Markdown or HTML file of 10,000 nested quotes is a located error for get-text and convert")
    func deepDocuments() async throws {
        let root = try folder()
        try (String(repeating: "> ", count: 10_000) + "deep\n").write(to: root.appendingPathComponent("quote.md"), atomically: true, encoding: .utf8)
        try (String(repeating: "<blockquote>", count: 10_000) + "deep\n").write(to: root.appendingPathComponent("quote.html"), atomically: true, encoding: .utf8)
        let messages = [
            "quote.md": "the Markdown nests quotes, lists or emphasis more than 100 levels deep",
            "quote.html": "the HTML nests quotes and lists more than 100 levels deep",
        ]
        for (file, message) in messages {
            for step in ["get-text", "convert: rtf"] {
                try "steps:\n  - read-file: \(file)\n  - \(step)\n".write(to: root.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
                let result = try await relay(["run", "w.yaml"], in: root)
                #expect(result.status == 1)
                #expect(result.standardError.contains("w.yaml:3:5: error: step '\(step.split(separator: ":")[0])': \(message)"), "\(result.standardError)")
            }
        }
    }

    @Test("damaged images say what is wrong: empty, random bytes, cut short, a size too big to decode")
    func damagedImages() async throws {
        let root = try folder()
        var header = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + Data("IHDR".utf8)
        header += Data([0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0, 8, 6, 0, 0, 0, 0, 0, 0, 0])  // 100,000 × 100,000
        let cases: [(Data, String)] = [
            (Data(), "'a.png' is empty, not a PNG image"),
            (Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }), "'a.png' is not a PNG image (it does not start with PNG's signature)"),
            (Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "'a.png' is a damaged PNG image (its header is missing or cut short)"),
            (header, "'a.png' is 100000×100000 pixels; Relay decodes images of at most 100 million pixels"),
        ]
        try "steps:\n  - read-file: a.png\n  - rotate-image: 90\n".write(to: root.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        for (bytes, message) in cases {
            try bytes.write(to: root.appendingPathComponent("a.png"))
            let result = try await relay(["run", "w.yaml", "--allow-write=\(root.path)"], in: root)
            #expect(result.status == 1)
            #expect(result.standardError.contains("w.yaml:3:5: error: step 'rotate-image': \(message)"), "\(result.standardError)")
        }
    }
}
