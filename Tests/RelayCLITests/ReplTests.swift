import Foundation
import Testing

/// `relay repl` driven through standard input (not a terminal: no prompts, plain line reading).
@Suite("The REPL, scripted")
struct ReplTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-repl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func repl(_ lines: String, arguments: [String] = []) async throws -> RelayProcess.Result {
        try await RelayProcess.running(
            ["repl"] + arguments, in: folder, input: lines,
            environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path, "XDG_CACHE_HOME": PackageTests.cache.path])
    }

    @Test("each line's output is printed with its type and is the next line's input; variables persist")
    func chaining() async throws {
        let result = try await repl("text: hello world\n{change-case: upper, as: loud}\ntext: \"${loud}!\"\ncount: characters\n:vars\n:type\n")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == """
            hello world   # a text
            HELLO WORLD   # a text
            HELLO WORLD!   # a text
            12   # a number
            loud = text 'HELLO WORLD'
            a number

            """)
    }

    @Test("a line that is one ${…} is its value with its type; exit and quit leave")
    func expressionsAndExit() async throws {
        let result = try await repl("${1 + 2}\nnumber: 4\n${previous * 10}\n${\"it's\"}\nexit\ntext: never\n")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "3   # a number\n4   # a number\n40   # a number\nit's   # a text\n", "\(result.standardOutput)")
        #expect(try await repl("quit\ntext: never\n").standardOutput == "")
    }

    @Test("--open-with, --notes and --answer work in the REPL as they do in relay run")
    func sessionOptions() async throws {
        let opened = folder.appendingPathComponent("opened.txt")
        let opener = folder.appendingPathComponent("opener.sh")
        try "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(opened.path)'\n".write(to: opener, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
        let notes = folder.appendingPathComponent("my-notes")
        let result = try await repl(
            "url: https://example.com/trail\nopen\ncreate-note: { title: Hello, body: hi }\n{ ask: Name?, as: who }\n",
            arguments: ["--open-with", opener.path, "--notes", notes.path, "--answer", "who=Ada", "--allow-open", "--allow-write=\(notes.path)"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try String(contentsOf: opened, encoding: .utf8) == "https://example.com/trail\n")
        #expect(FileManager.default.fileExists(atPath: notes.appendingPathComponent("Hello.md").path))
        #expect(result.standardOutput.hasSuffix("Ada   # a text\n"), "\(result.standardOutput)")
    }

    @Test("a text of two lines has its type on a line of its own, whether its lines end in LF or CR LF")
    func multilineText() async throws {
        let result = try await repl("text: \"one\\ntwo\"\ntext: \"one\\r\\ntwo\"\ntext: \"one\\r\\n\"\n")
        #expect(result.standardOutput == "one\ntwo\n# a text\none\r\ntwo\n# a text\none   # a text\n", "\(result.standardError)")
    }

    @Test("an error in the middle points into the line typed and does not end the session")
    func errorsGoOn() async throws {
        let result = try await repl("text: hi\nchnage-case: upper\nchange-case: upper\n")
        #expect(result.status == 0)
        #expect(result.standardOutput == "hi   # a text\nHI   # a text\n")
        #expect(result.standardError.contains("<repl>:1:1: error: unknown action 'chnage-case'; did you mean 'change-case'?"), "\(result.standardError)")
        let failed = try await repl("number: 4\ncalculate: \"${previous} / 0\"\ntext: still here\n")
        #expect(failed.standardOutput.hasSuffix("still here   # a text\n"), "\(failed.standardOutput)")
        #expect(failed.standardError.contains("<repl>:1:1: error: step 'calculate'"), "\(failed.standardError)")
    }

    @Test("a block opened by a line ending in ':' runs when an empty line closes it")
    func blocks() async throws {
        let result = try await repl("list: [a, b]\nfor-each:\ndo:\n  - text: \"${item}!\"\n\ncombine-text: \" \"\n")
        #expect(result.standardOutput == "a\nb\n# a list of 2\na!\nb!\n# a list of 2\na! b!   # a text\n", "\(result.standardError)")
    }

    @Test(":save writes a workflow that relay run reproduces; :load runs one in the session")
    func saveAndLoad() async throws {
        let saved = folder.appendingPathComponent("session.yaml").path
        let session = try await repl("text: a b c\nsplit-text: spaces\n{get-item: last, as: last}\nchange-case: upper\n:save \(saved)\n")
        #expect(session.standardOutput.hasSuffix("C   # a text\nsaved 4 steps to \(saved)\n"), "\(session.standardOutput)")
        let rerun = try await RelayProcess.running(["run", saved], in: folder)
        #expect(rerun.status == 0, "\(rerun.standardError)")
        #expect(rerun.standardOutput == "C\n")

        // The example as it is, and saved with CR LF line ends, as an editor on Windows saves it.
        let example = try String(contentsOf: RelayProcess.root.appendingPathComponent("workflows/chaining.yaml"), encoding: .utf8)
        let crlf = folder.appendingPathComponent("crlf.yaml")
        try Data(example.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
            .joined(separator: "\r\n").utf8).write(to: crlf)
        for path in ["\(RelayProcess.root.path)/workflows/chaining.yaml", crlf.path] {
            let loaded = try await repl(":load \(path)\n:type\n")
            #expect(loaded.standardOutput == "hello world   # a text\nHELLO WORLD   # a text\nHELLO Relay   # a text\na text\n", "\(path): \(loaded.standardOutput)")
        }
    }

    @Test(":undo reverts the last step's file changes; :reset forgets; unknown commands are errors")
    func commands() async throws {
        let file = folder.appendingPathComponent("note.txt").path
        let result = try await repl(
            "text: keep me\nsave-file: \(file)\n:undo\n:reset\n:vars\n:nonsense\n:quit\ntext: never\n", arguments: ["--allow-write=\(file)"])
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(result.standardOutput.contains("undid 1 change\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("session cleared\nno variables yet\n"))
        #expect(!result.standardOutput.contains("never"))
        #expect(result.standardError.contains("unknown command ':nonsense'"))
    }

    @Test(":undo undoes only what this session changed, never an earlier relay run's file")
    func undoOnlyThisSession() async throws {
        let made = folder.appendingPathComponent("made-by-run.txt").path
        try "steps:\n  - text: from a run\n  - save-file: made-by-run.txt\n".write(
            to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let run = try await RelayProcess.running(
            ["run", "w.yaml", "--allow-write=\(made)"], in: folder, environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path])
        #expect(run.status == 0, "\(run.standardError)")
        let result = try await repl("text: hello\n:undo\n")
        #expect(result.standardOutput.contains("nothing to undo"), "\(result.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: made), "the REPL undid an earlier run's file")
    }

    @Test("${scratch} is one folder for the whole session: what one line saves there, the next reads")
    func oneScratchFolder() async throws {
        let result = try await repl("text: hi\nsave-file: \"${scratch}/a.txt\"\nread-file: \"${scratch}/a.txt\"\nget-text\n")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasSuffix("hi   # a text\n"), "\(result.standardOutput)")
    }

    @Test(":save to another folder keeps the paths pointing where the session's steps did")
    func saveElsewhere() async throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let result = try await repl(
            "text: hi\nsave-file: { to: out.txt, overwrite: true }\n:save sub/w.yaml\n:save here.yaml\n", arguments: ["--allow-write=\(folder.path)"])
        #expect(result.status == 0, "\(result.standardError)")
        let elsewhere = try String(contentsOf: folder.appendingPathComponent("sub/w.yaml"), encoding: .utf8)
        let out = folder.appendingPathComponent("out.txt").standardizedFileURL.path
        #expect(elsewhere.contains("to: \"\(out)\""), "\(elsewhere)")
        #expect(try String(contentsOf: folder.appendingPathComponent("here.yaml"), encoding: .utf8).contains("to: out.txt"))
        // Run from its own folder, the saved workflow writes where the session did.
        try FileManager.default.removeItem(atPath: out)
        let run = try await RelayProcess.running(
            ["run", "sub/w.yaml", "--allow-write=\(folder.path)"], in: folder, environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(FileManager.default.fileExists(atPath: out))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("sub/out.txt").path))
    }

    @Test("--package loads a package's actions into the session")
    func packages() async throws {
        let result = try await repl("trails.suggest-trails: long\ncount\n", arguments: ["--package", PackageTests.trailKit])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "Summit Scramble\nCanyon Rim Trail\n# a list of 2\n2   # a number\n", "\(result.standardOutput)")
    }
}
