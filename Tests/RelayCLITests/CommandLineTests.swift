import Foundation
import RelayKit
import Testing

@Suite("The relay command line")
struct CommandLineTests {
    /// A folder holding one workflow file.
    private func workflow(_ yaml: String, name: String = "w.yaml") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try yaml.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        return folder
    }

    @Test("permissions: declares what a workflow expects; a need beyond it is a warning of check and in the report, not an error")
    func permissionBlock() async throws {
        let folder = try workflow("""
            permissions:
              read: [~/Pictures]
              write: [out]
              net: [api.example.com]
            variables:
              backup: ~/backup
            steps:
              - find-files: ~/Pictures/Trips
              - copy-file: out/
              - url: https://api.example.com/upload
              - get-contents-of-url: { method: post }
              - get-contents-of-url: { url: "https://tracker.example.net/x" }
              - text: done
              - save-file: "${backup}/today.md"
            """)
        let home = folder.deletingLastPathComponent().appendingPathComponent("home-\(UUID().uuidString)").path
        let checked = try await RelayProcess.running(["check", "w.yaml"], in: folder, environment: ["HOME": home])
        #expect(checked.status == 0)
        #expect(checked.standardError.contains("w.yaml:14:5: warning: step 7 save-file may write ~/backup/today.md, which 'permissions:' does not declare"), "\(checked.standardError)")
        #expect(!checked.standardError.contains("api.example.com"))
        let report = try await RelayProcess.running(["check", "--permissions", "w.yaml"], in: folder, environment: ["HOME": home])
        #expect(report.status == 0)
        #expect(report.standardOutput.hasSuffix("""
            beyond 'permissions:':
              net tracker.example.net  (step 5 get-contents-of-url at w.yaml:12:5)
              write ~/backup/today.md  (step 7 save-file at w.yaml:14:5)

            """), "\(report.standardOutput)")
    }

    @Test("check --permissions lists what a workflow may touch, from its actions' declarations, without running it")
    func permissionReport() async throws {
        let folder = try workflow("""
            steps:
              - find-files: pictures
              - for-each:
                do:
                  - rotate-image: 90
                    to: out/
              - url: "https://api.example.com/upload?x=${input}"
              - get-contents-of-url
              - text: hello
              - save-file: ~/backup/today.md
            """)
        let report = try await RelayProcess.running(["check", "--permissions", "w.yaml"], in: folder)
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput == """
            read:
              ./pictures  (step 1 find-files at w.yaml:2:5)
              ./pictures  (step 2 rotate-image at w.yaml:5:9)
              the step's input ('value')  (step 6 save-file at w.yaml:10:5)
            write:
              ./out  (step 2 rotate-image at w.yaml:5:9)
              ~/backup/today.md  (step 6 save-file at w.yaml:10:5)
            net:
              the step's input ('url')  (step 4 get-contents-of-url at w.yaml:8:5)

            """)
        // Nothing ran: no folder was made, nothing was fetched.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
        let json = try await RelayProcess.running(["check", "--permissions", "--format", "json", "w.yaml"], in: folder)
        let value = try JSONReader.value(from: json.standardOutput)
        #expect(try value.property("net").element(at: .number(1)).property("step") == .number(4))
        // JSON keeps the resolved paths whole.
        #expect(try value.property("read").element(at: .number(1)).property("target") == .text(folder.standardizedFileURL.path + "/pictures"))
        #expect(try await RelayProcess.running(["check", "--permissions", "w.yaml"], in: workflow("steps:\n  - text: hi\n")).standardOutput
            == "touches nothing beyond its own values\n")
        let invalid = try await RelayProcess.running(["check", "--permissions", "w.yaml"], in: workflow("steps:\n  - nope\n"))
        #expect(invalid.status == 2 && invalid.standardOutput.isEmpty)
    }

    @Test("--notes and --photos name the libraries' folders for the run, over the environment")
    func libraryFolders() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-libraries-flag-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["one", "two"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("notes"), withIntermediateDirectories: true)
            try "# \(name)\n".write(to: folder.appendingPathComponent("notes/\(name).md"), atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("elsewhere"), withIntermediateDirectories: true)
        let workflow = folder.appendingPathComponent("w.yaml")
        try "steps:\n  - find: notes\n  - count\n".write(to: workflow, atomically: true, encoding: .utf8)
        let notes = folder.appendingPathComponent("notes").path
        let counted = try await RelayProcess.running(
            ["run", workflow.path, "--notes", notes, "--allow-read=\(notes)"], in: folder,
            environment: ["RELAY_NOTES": folder.appendingPathComponent("elsewhere").path])
        #expect(counted.standardOutput == "2\n", "\(counted.standardError)")
    }

    @Test("exit status 0, 1, 2 and 3, with nothing but the output on standard output")
    func exitStatuses() async throws {
        let ok = try await RelayProcess.running(["run", "w.yaml"], in: workflow("steps:\n  - text: fine\n"))
        #expect(ok.status == 0 && ok.standardOutput == "fine\n" && ok.standardError.isEmpty)
        let runtime = try await RelayProcess.running(["run", "w.yaml"], in: workflow("steps:\n  - fail: boom\n"))
        #expect(runtime.status == 1 && runtime.standardOutput.isEmpty)
        #expect(runtime.standardError.contains("w.yaml:2:5: error: step 'fail': boom"))
        let invalid = try await RelayProcess.running(["run", "w.yaml"], in: workflow("steps:\n  - nope\n"))
        #expect(invalid.status == 2 && invalid.standardOutput.isEmpty)
        let cancelled = try await RelayProcess.running(["run", "w.yaml", "--answer", "Go?=no"], in: workflow("steps:\n  - confirm: Go?\n"))
        #expect(cancelled.status == 3 && cancelled.standardOutput.isEmpty)
        let usage = try await RelayProcess.running(["run", "w.yaml", "--bogus"], in: workflow("steps: []\n"))
        #expect(usage.status == 2)
        let missing = try await RelayProcess.running(["run", "missing.yaml"])
        #expect(missing.status == 2 && missing.standardError.contains("no such file"))
        let help = try await RelayProcess.running(["--help"])
        #expect(help.status == 0 && help.standardOutput.contains("SUBCOMMANDS"))
    }

    @Test("input from --input, --input-file and standard input; --set; --json")
    func inputs() async throws {
        let folder = try workflow("steps:\n  - text: \"${input}|${who}\"\n")
        try "from file".write(to: folder.appendingPathComponent("in.txt"), atomically: true, encoding: .utf8)
        #expect(try await RelayProcess.running(["run", "w.yaml", "--input", "hi", "--set", "who=me"], in: folder).standardOutput == "hi|me\n")
        #expect(try await RelayProcess.running(["run", "w.yaml", "--input-file", "in.txt", "--set", "who=x"], in: folder).standardOutput == "from file|x\n")
        #expect(try await RelayProcess.running(["run", "w.yaml", "-", "--set", "who=y"], in: folder, input: "piped").standardOutput == "piped|y\n")
        #expect(try await RelayProcess.running(["run", "w.yaml", "--input", "a", "--input-file", "in.txt"], in: folder).status == 2)
        #expect(try await RelayProcess.running(["run", "w.yaml", "--set", "1bad=x"], in: folder).status == 2)
        let typed = try workflow("steps:\n  - calculate: \"${n} + 1\"\n")
        #expect(try await RelayProcess.running(["run", "w.yaml", "--set", "n=41", "--json"], in: typed).standardOutput == "42\n")
    }

    @Test("output formats: lists one item a line, dictionaries as pretty JSON, nothing prints nothing")
    func outputFormats() async throws {
        #expect(try await RelayProcess.running(["run", "w.yaml"], in: workflow("steps:\n  - list: [a, 1, true]\n")).standardOutput == "a\n1\ntrue\n")
        #expect(try await RelayProcess.running(["run", "w.yaml"], in: workflow("steps:\n  - nothing\n")).standardOutput == "")
        #expect(try await RelayProcess.running(["run", "w.yaml"], in: workflow("steps:\n  - text: \"ends\\n\"\n")).standardOutput == "ends\n")
        #expect(try await RelayProcess.running(["run", "w.yaml"], in: workflow("steps:\n  - text: \"ends\\r\\n\"\n")).standardOutput == "ends\r\n")
        #expect(try await RelayProcess.running(["run", "w.yaml", "--json"], in: workflow("steps:\n  - list: [a]\n")).standardOutput == "[\n  \"a\"\n]\n")
    }

    @Test("--answer by prompt, as-name or label, --yes, and a clear error without them that suggests the answer by the step's name, quoted for the shell")
    func answers() async throws {
        let folder = try workflow("steps:\n  - ask: \"Name?\"\n    as: name\n  - confirm: Sure?\n  - text: \"hi ${name}\"\n")
        #expect(try await RelayProcess.running(["run", "w.yaml", "--answer", "name=Ada", "--yes"], in: folder).standardOutput == "hi Ada\n")
        let unanswered = try await RelayProcess.running(["run", "w.yaml"], in: folder)
        #expect(unanswered.status == 1 && unanswered.standardError.contains("pass --answer name=VALUE,"), "\(unanswered.standardError)")
        // A prompt that changes with what it names is answered by the step's label; one with a
        // quote in it is suggested quoted so that a shell takes it as it is.
        let labelled = try workflow("steps:\n  - text: Ada\n    as: who\n  - ask: \"What does ${who} say?\"\n    label: greeting\n  - confirm: \"Isn't it late?\"\n")
        #expect(try await RelayProcess.running(["run", "w.yaml", "--answer", "greeting=hi", "--yes"], in: labelled).standardOutput == "hi\n")
        let unlabelled = try await RelayProcess.running(["run", "w.yaml"], in: labelled)
        #expect(unlabelled.standardError.contains("no answer for 'What does Ada say?': standard input is not a terminal; pass --answer greeting=VALUE,"), "\(unlabelled.standardError)")
        let quoted = try await RelayProcess.running(["run", "w.yaml", "--answer", "greeting=hi"], in: labelled)
        #expect(quoted.standardError.contains(#"pass --answer 'Isn'\''t it late?=yes' or --yes"#), "\(quoted.standardError)")
        let noYes = try await RelayProcess.running(["run", "w.yaml", "--answer", "Name?=Bo"], in: folder)
        #expect(noYes.status == 1 && noYes.standardError.contains("--yes"))
        // A menu's or a list's option is answered in any case, or by its number.
        let menu = try workflow(
            "steps:\n  - menu: Size?\n    options:\n      Small: [{ text: s }]\n      Large: [{ text: l }]\n  - choose-from-list: Colour?\n    input: [Red, Green]\n  - text: \"${previous}\"\n")
        #expect(try await RelayProcess.running(["run", "w.yaml", "--answer", "Size?=LARGE", "--answer", "Colour?=green"], in: menu).standardOutput == "Green\n")
        #expect(try await RelayProcess.running(["run", "w.yaml", "--answer", "Size?=1", "--answer", "Colour?=1"], in: menu).standardOutput == "Red\n")
        let wrong = try await RelayProcess.running(["run", "w.yaml", "--answer", "Size?=Larg", "--answer", "Colour?=red"], in: menu)
        #expect(wrong.status == 1 && wrong.standardError.contains("did you mean 'Large'?"), "\(wrong.standardError)")
    }

    @Test("what is shown on standard error is never obeyed by a terminal; standard output piped on keeps its bytes")
    func controlCharactersShown() async throws {
        // A workflow whose file name sets the terminal's title, clears it and reverses what follows.
        let name = "w\u{1B}]0;pwned\u{07}\u{1B}[2J\r\u{202E}.yaml"
        let text = "a\\e[2J\\rb\\u202Ec\\u009B"
        let folder = try workflow("steps:\n  - text: \"\(text)\"\n  - save-file: out.txt\n  - get-text\n", name: name)
        let environment = ["HOME": folder.appendingPathComponent("home").path, "XDG_STATE_HOME": folder.appendingPathComponent("state").path]
        let run = try await RelayProcess.running(["run", name, "--allow-write=\(folder.path)"], in: folder, environment: environment)
        #expect(run.status == 0, "\(run.standardError)")
        // The output, piped, is the text as it is.
        #expect(run.standardOutput == "a\u{1B}[2J\rb\u{202E}c\u{9B}\n")
        // Undoing names the workflow on standard error: every control character shown.
        let undo = try await RelayProcess.running(["undo"], in: folder, environment: environment)
        #expect(undo.status == 0, "\(undo.standardError)")
        #expect(!undo.standardError.unicodeScalars.contains { [0x1B, 0x0D, 0x07, 0x202E].contains($0.value) }, "\(undo.standardError.debugDescription)")
        #expect(undo.standardError.contains("w\u{241B}]0;pwned\u{2407}\u{241B}[2J\u{240D}<U+202E>.yaml"), "\(undo.standardError)")
    }

    @Test("--trace writes each step to standard error only")
    func trace() async throws {
        let result = try await RelayProcess.running(["run", "w.yaml", "--trace"], in: workflow("steps:\n  - text: a\n  - count\n"))
        #expect(result.standardOutput == "1\n")
        #expect(result.standardError.contains("w.yaml:2: text → text"))
        #expect(result.standardError.contains("w.yaml:3: count → number"))
    }

    @Test("check: text and JSON diagnostics, exit 2 on errors")
    func check() async throws {
        let folder = try workflow("steps:\n  - chnage-case: upper\n")
        let text = try await RelayProcess.running(["check", "w.yaml"], in: folder)
        #expect(text.status == 2)
        #expect(text.standardError.hasPrefix("w.yaml:2:5: error: unknown action 'chnage-case'; did you mean 'change-case'?\n    2 |   - chnage-case: upper\n      |     ^~~~~~~~~~~\n"))
        let json = try await RelayProcess.running(["check", "w.yaml", "--format", "json"], in: folder)
        #expect(json.status == 2)
        let parsed = try JSONReader.value(from: json.standardOutput)
        #expect(try parsed.element(at: 1).property("line") == 2)
        #expect(try parsed.element(at: 1).property("column") == 5)
        #expect(try parsed.element(at: 1).property("severity") == "error")
        #expect(try await RelayProcess.running(["check", "w.yaml"], in: workflow("steps: []\n")).status == 0)
    }

    @Test("every malformed workflow exits 2 with a located diagnostic, never a crash")
    func malformedCorpus() async throws {
        let folder = RelayProcess.root.appendingPathComponent("Tests/RelayLanguageTests/Malformed")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }
        for file in files {
            let result = try await RelayProcess.running(["run", file], in: folder)
            #expect(result.status == 2, "\(file): \(result.status)")
            #expect(result.standardError.hasPrefix("\(file):"), "\(file): \(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
    }

    @Test("actions --json lists every action with the fields of Docs/Language.md, 'Output and exit status'")
    func actionsJSON() async throws {
        let result = try await RelayProcess.running(["actions", "--json"])
        guard case .list(let actions) = try JSONReader.value(from: result.standardOutput) else {
            Issue.record("not a list")
            return
        }
        #expect(actions.count >= 42)
        let replace = try #require(actions.first { (try? $0.property("name")) == "replace-text" })
        #expect(try replace.property("input") == "text")
        #expect(try replace.property("output") == "text")
        #expect(try replace.property("package") == "text")
        let parameters = try replace.property("parameters").asList
        let caseSensitive = try #require(parameters.first { (try? $0.property("name")) == "case-sensitive" })
        #expect(try caseSensitive.property("type") == "boolean")
        #expect(try caseSensitive.property("required") == false)
        #expect(try caseSensitive.property("default") == true)
        let filtered = try await RelayProcess.running(["actions", "date"])
        #expect(filtered.standardOutput.contains("adjust-date") && !filtered.standardOutput.contains("replace-text"))
    }

    @Test("describe shows parameters and an example; unknown actions suggest")
    func describe() async throws {
        let result = try await RelayProcess.running(["describe", "change-case"])
        #expect(result.standardOutput.contains("change-case — Change Case"))
        #expect(result.standardOutput.contains("upper | lower | title | sentence | alternating, primary, required"))
        #expect(result.standardOutput.contains("\nShortcuts: Change Case (is.workflow.actions.text.changecase)\n"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("  - change-case: title\n  # prints:\n  #   The Quick Brown Fox"), "\(result.standardOutput)")
        let unknown = try await RelayProcess.running(["describe", "chnage-case"])
        #expect(unknown.status == 2 && unknown.standardError.contains("did you mean 'change-case'?"))
    }

    @Test("--input-file hands a workflow whose input is a file the file itself; a text read as a path is quoted short")
    func inputFileIsAFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = String(repeating: "0123456789", count: 8_800)
        try big.write(to: folder.appendingPathComponent("big.txt"), atomically: true, encoding: .utf8)
        try "input: file\nsteps:\n  - get-details: size\n".write(to: folder.appendingPathComponent("f.yaml"), atomically: true, encoding: .utf8)
        let size = try await RelayProcess.running(["run", "f.yaml", "--input-file", "big.txt"], in: folder)
        #expect(size.status == 0 && size.standardOutput == "88000\n", "\(size.standardError)")
        try "input: text\nsteps:\n  - read-file: \"${input}\"\n".write(to: folder.appendingPathComponent("t.yaml"), atomically: true, encoding: .utf8)
        let quoted = try await RelayProcess.running(["run", "t.yaml", "--input-file", "big.txt"], in: folder)
        #expect(quoted.status == 1 && quoted.standardError.contains("no such file: '"), "\(quoted.standardError)")
        #expect(quoted.standardError.count < 1_000, "\(quoted.standardError.count) characters")
    }

    @Test("describe names an entity type's properties with their types, and a file's")
    func describeTypes() async throws {
        let note = try await RelayProcess.running(["describe", "note"])
        #expect(note.status == 0)
        #expect(note.standardOutput.contains("note — an entity type (notes)"))
        #expect(note.standardOutput.contains("  body      text, fetched when read"), "\(note.standardOutput)")
        let file = try await RelayProcess.running(["describe", "file"])
        #expect(file.standardOutput.contains("  stem       text") && file.standardOutput.contains("  width      number (images)"), "\(file.standardOutput)")
        // Properties the packages read for their files, such as a PDF's pages, are listed too.
        #expect(file.standardOutput.contains("  pages      of com.adobe.pdf files"), "\(file.standardOutput)")
        let unknown = try await RelayProcess.running(["describe", "notse"])
        #expect(unknown.status == 2 && unknown.standardError.contains("did you mean 'note'?"), "\(unknown.standardError)")
    }

    @Test("Docs/Actions.md is what relay actions --markdown generates")
    func actionsDocument() async throws {
        let generated = try await RelayProcess.running(["actions", "--markdown"]).standardOutput
        let committed = try String(contentsOf: RelayProcess.root.appendingPathComponent("Docs/Actions.md"), encoding: .utf8)
        #expect(generated == committed, "run: swift run relay actions --markdown > Docs/Actions.md")
    }

    @Test("schema is JSON Schema naming every action and control step")
    func schema() async throws {
        let schema = try JSONReader.value(from: try await RelayProcess.running(["schema"]).standardOutput)
        #expect(try schema.property("$schema") == "http://json-schema.org/draft-07/schema#")
        let definitions = try schema.property("definitions")
        #expect(try definitions.property("action:replace-text") != .nothing)
        #expect(try definitions.property("control:for-each") != .nothing)
        let properties = try definitions.property("action:replace-text").property("properties")
        #expect(try properties.property("as") != .nothing)
    }

    @Test("shell completions for bash, zsh and fish are generated from the commands; the bash one parses")
    func completions() async throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try await RelayProcess.running(["--generate-completion-script", shell])
            #expect(script.status == 0)
            for command in ["run", "check", "repl", "package", "undo"] {
                #expect(script.standardOutput.contains(command), "\(shell) completion lacks \(command)")
            }
            if shell == "bash" {
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("relay-completion-\(UUID().uuidString).bash")
                try script.standardOutput.write(to: file, atomically: true, encoding: .utf8)
                let check = Process()
                check.executableURL = URL(fileURLWithPath: "/bin/bash")
                check.arguments = ["-n", file.path]
                try check.run()
                await RelayProcess.waitForExit(check)
                #expect(check.terminationStatus == 0)
            }
        }
    }
}
