import Foundation
import RelayKit
import Testing

/// `relay lsp` driven as an editor drives it, through its standard input and output
/// (Docs/Editors.md).
@Suite("The language server")
struct LanguageServerTests {
    private let home: URL

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("relay-lsp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    }

    /// A session that has said `initialize` (offering `encodings`) and `initialized`, and the
    /// server's answer.
    private func started(offering encodings: [String]? = nil, snippets: Bool = false) throws -> (EditorSession, [String: Any]) {
        let session = try EditorSession(home: home)
        var capabilities: [String: Any] = [:]
        if let encodings { capabilities["general"] = ["positionEncodings": encodings] }
        if snippets { capabilities["textDocument"] = ["completion": ["completionItem": ["snippetSupport": true]]] }
        try session.request(1, "initialize", ["processId": NSNull(), "rootUri": NSNull(), "capabilities": capabilities])
        let answer = try #require(try session.response(1))
        try session.notify("initialized")
        return (session, answer)
    }

    private func open(_ session: EditorSession, _ text: String, uri: String = "file:///work/flow.yaml", version: Int = 1) throws {
        try session.notify("textDocument/didOpen", ["textDocument": ["uri": uri, "languageId": "yaml", "version": version, "text": text]])
    }

    /// A diagnostic's range as `line:character-line:character` and its message.
    private func described(_ diagnostic: [String: Any]) -> String {
        let range = diagnostic["range"] as? [String: [String: Int]] ?? [:]
        func place(_ key: String) -> String { "\(range[key]?["line"] ?? -1):\(range[key]?["character"] ?? -1)" }
        return "\(place("start"))-\(place("end")) \(diagnostic["severity"] ?? "?") \(diagnostic["message"] ?? "")"
    }

    @Test("a workflow opened with a mistake gets relay check's diagnostic, at its range; a change that mends it clears it; shutdown and exit end with 0")
    func diagnosticsFollowTheText() async throws {
        try await BlockingWork.run { _ in
            let (session, answer) = try started()
            let result = answer["result"] as? [String: Any]
            let capabilities = result?["capabilities"] as? [String: Any]
            #expect(capabilities?["positionEncoding"] as? String == "utf-16")
            #expect((capabilities?["textDocumentSync"] as? [String: Any])?["change"] as? Int == 1)
            try open(session, "steps:\n  - text: hello\n  - chnage-case: upper\n")
            let found = try #require(try session.diagnostics(version: 1))
            #expect(found.map(described) == ["2:4-2:15 1 unknown action 'chnage-case'; did you mean 'change-case'?"])
            try session.notify("textDocument/didChange", ["textDocument": ["uri": "file:///work/flow.yaml", "version": 2], "contentChanges": [["text": "steps:\n  - text: hello\n  - change-case: upper\n"]]])
            #expect(try session.diagnostics(version: 2)?.isEmpty == true)
            try session.request(9, "shutdown")
            #expect(try session.response(9)?.keys.contains("result") == true)
            try session.notify("exit")
            #expect(session.finish() == 0)
        }
    }

    @Test("places count UTF-16 code units by default and UTF-8 bytes when the editor offers them, past emoji and combining marks; YAML's other line breaks are not the protocol's")
    func positions() async throws {
        // `nope` in `${nope}` stands after an emoji (two UTF-16 units, four UTF-8 bytes) and an e with a
        // combining acute (two units, three bytes): character 16 of the line for the checker.
        let text = "steps:\n  - text: \"😀e\u{301} ${nope}\"\n"
        for (offered, start, end) in [(nil as [String]?, 18, 22), (["utf-8", "utf-16"], 21, 25)] {
            try await BlockingWork.run { _ in
                let (session, _) = try started(offering: offered)
                try open(session, text)
                let found = try #require(try session.diagnostics(version: 1))
                #expect(found.count == 1 && described(found[0]).hasPrefix("1:\(start)-1:\(end) 1 "), "\(found.map(described))")
                _ = session.finish()
            }
        }
        // A line separator inside a text is a line break to YAML, not to the editor: the mistake
        // after it is on the editor's line 1.
        try await BlockingWork.run { _ in
            let (session, _) = try started()
            try open(session, "steps:\n  - text: \"a\u{2028}b\"\n  - chnage-case: upper\n")
            let found = try #require(try session.diagnostics(version: 1))
            #expect(found.map(described).first?.hasPrefix("2:4-2:15 ") == true, "\(found.map(described))")
            _ = session.finish()
        }
    }

    @Test("a broken frame, JSON that is not, an unknown method, a request before initialize and a change to a document never opened are answered or passed over, and the server goes on")
    func badMessages() async throws {
        try await BlockingWork.run { _ in
            let session = try EditorSession(home: home)
            try session.request(1, "textDocument/hover")
            #expect((try session.response(1)?["error"] as? [String: Any])?["code"] as? Int == -32002)
            try session.request(2, "initialize", ["capabilities": [:]])
            #expect(try session.response(2)?["result"] != nil)
            session.sendRaw(Array("Content-Length: many\r\n\r\n".utf8))
            #expect((try session.receive()?["error"] as? [String: Any])?["code"] as? Int == -32700)
            session.sendRaw(Array("Content-Length: 5\r\n\r\n{bad}".utf8))
            #expect((try session.receive()?["error"] as? [String: Any])?["code"] as? Int == -32700)
            try session.request(3, "workspace/unknownThing")
            #expect((try session.response(3)?["error"] as? [String: Any])?["code"] as? Int == -32601)
            try session.notify("textDocument/didChange", ["textDocument": ["uri": "file:///never/opened.yaml", "version": 2], "contentChanges": [["text": "x"]]])
            try open(session, "steps:\n  - nope\n")
            #expect(try session.diagnostics(version: 1)?.count == 1)
            // The editor goes away without shutting the server down: it ends, with 1.
            #expect(session.finish() == 1)
        }
    }

    @Test("a thousand changes in a row, a workflow nested 10,000 levels deep, and a text of a megabyte: the last version's diagnostics come, and the server still answers")
    func storms() async throws {
        try await BlockingWork.run { _ in
            let (session, _) = try started()
            try open(session, "steps:\n  - text: a\n")
            for version in 2...1_001 {
                let text = version.isMultiple(of: 2) ? "steps:\n  - nope\(version)\n" : "steps:\n  - text: \(version)\n"
                try session.notify("textDocument/didChange", ["textDocument": ["uri": "file:///work/flow.yaml", "version": version], "contentChanges": [["text": text]]])
            }
            let last = try #require(try session.diagnostics(version: 1_001))
            #expect(last.isEmpty, "\(last.map(described))")
            let deep = "steps:\n  - text: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "\n"
            try open(session, deep, uri: "file:///work/deep.yaml")
            #expect(try session.diagnostics(version: 1)?.isEmpty == false)
            let big = "steps:\n  - text: \"" + String(repeating: "word ", count: 200_000) + "\"\n  - nope\n"
            try open(session, big, uri: "file:///work/big.yaml")
            let found = try #require(try session.diagnostics(version: 1))
            #expect(found.map(described).first?.hasPrefix("2:4-2:8 1 ") == true, "\(found.map(described))")
            // Over a workflow file's limit: refused, as relay check refuses the file.
            let huge = "steps:\n  - text: \"" + String(repeating: "word ", count: Limits.workflowBytes / 5 + 10) + "\"\n"
            try open(session, huge, uri: "file:///work/huge.yaml")
            let refused = try #require(try session.diagnostics(version: 1)).map(described)
            #expect(refused.count == 1 && refused.first?.contains("a workflow file may be at most") == true, "\(refused.map { $0.prefix(200) })")
            try session.request(5, "shutdown")
            #expect(try session.response(5) != nil)
            try session.notify("exit")
            #expect(session.finish() == 0)
        }
    }

    @Test("Neovim's own client, headless, set up as Docs/Editors.md says, starts relay lsp for a workflow and shows its diagnostic")
    func neovim() async throws {
        guard let nvim = ["/usr/bin/nvim", "/usr/local/bin/nvim"].first(where: FileManager.default.isExecutableFile) else {
            print("skipped: the editor test needs Neovim (neovim, Scripts/install-dependencies)")
            return
        }
        let flow = home.appendingPathComponent("flow.yaml"), out = home.appendingPathComponent("seen.txt")
        try "steps:\n  - text: hello\n  - chnage-case: upper\n".write(to: flow, atomically: true, encoding: .utf8)
        // Docs/Editors.md's setting, as a user's init.lua: it starts `relay lsp` (found on PATH)
        // when the workflow is opened.
        let docs = try String(contentsOf: RelayProcess.root.appendingPathComponent("Docs/Editors.md"), encoding: .utf8)
        let setting = try #require(docs.components(separatedBy: "```lua\n").dropFirst().first?.components(separatedBy: "```").first)
        let initFile = home.appendingPathComponent("init.lua")
        try setting.write(to: initFile, atomically: true, encoding: .utf8)
        // Once diagnostics come, what Neovim holds is written out (after 30 s without: none).
        let script = home.appendingPathComponent("check.lua")
        try """
            local found = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 20)
            local lines = {}
            for _, d in ipairs(vim.diagnostic.get(0)) do
              table.insert(lines, string.format('%d:%d-%d:%d %d %s', d.lnum, d.col, d.end_lnum, d.end_col, d.severity, d.message))
            end
            if not found then table.insert(lines, 'no diagnostics') end
            -- Opened again, the buffer is served by the same one client, with completion and keys set.
            vim.cmd('edit')
            vim.wait(500)
            local attached = 0
            for _ in pairs(vim.lsp.buf_get_clients(0)) do attached = attached + 1 end
            table.insert(lines, string.format('clients %d attached %d omnifunc %s K %s', #vim.lsp.get_active_clients(), attached,
              vim.bo.omnifunc, vim.fn.maparg('K', 'n') ~= '' and 'mapped' or 'unmapped'))
            vim.fn.writefile(lines, vim.env.OUT)
            for _, client in ipairs(vim.lsp.get_active_clients()) do client.stop() end
            vim.wait(5000, function() return #vim.lsp.get_active_clients() == 0 end, 20)
            vim.cmd('qa!')
            """.write(to: script, atomically: true, encoding: .utf8)
        let path = RelayProcess.executable.deletingLastPathComponent().path + ":/usr/bin:/bin"
        let result = try await BlockingWork.run { _ in
            try RelayProcess.run(
                ["HOME=\(home.path)", "PATH=\(path)", "OUT=\(out.path)", nvim, "--headless", "-u", initFile.path, "-i", "NONE", "-n", "-c", "luafile \(script.path)", flow.path],
                in: home, program: URL(fileURLWithPath: "/usr/bin/env"))
        }
        #expect(result.status == 0, "\(result.standardError)")
        let seen = try String(contentsOf: out, encoding: .utf8)
        #expect(seen == "2:4-2:15 1 unknown action 'chnage-case'; did you mean 'change-case'?\nclients 1 attached 1 omnifunc v:lua.vim.lsp.omnifunc K mapped\n", "\(seen)")
    }

    /// The labels of the completion items at a place.
    private func labels(_ session: EditorSession, id: Int, line: Int, character: Int) throws -> [String] {
        try session.request(id, "textDocument/completion", ["textDocument": ["uri": "file:///work/flow.yaml"], "position": ["line": line, "character": character]])
        let items = ((try session.response(id)?["result"] as? [String: Any])?["items"] as? [[String: Any]]) ?? []
        return items.compactMap { $0["label"] as? String }
    }

    @Test("completion of an action's name (with a snippet of its required parameters), its parameters, a parameter's choices, and the variables set before; hover of an action; a variable's definition; a did-you-mean as a quick fix")
    func assistance() async throws {
        try await BlockingWork.run { _ in
            let (session, answer) = try started()
            let capabilities = (answer["result"] as? [String: Any])?["capabilities"] as? [String: Any]
            #expect(capabilities?["hoverProvider"] as? Bool == true && capabilities?["completionProvider"] != nil)
            let text = """
                secrets:
                  - API_TOKEN
                steps:
                  - text: hello
                    as: greeting
                  - change-case: up
                  - save-file:
                      to: out.txt
                      ov
                  - cha
                  - text: "${gr}"
                  - text: "${secrets.}"
                  - chnage-case: upper
                  - text: "${greeting}"

                """
            try open(session, text)
            _ = try session.diagnostics(version: 1)
            // `- cha|`: actions, each with its summary; `change-case` has a snippet.
            let names = try labels(session, id: 10, line: 9, character: 7)
            #expect(names.contains("change-case") && names.contains("save-file") && names.contains("repeat"), "\(names.prefix(5))")
            // `  ov|` under `save-file:`: its parameters.
            let parameters = try labels(session, id: 11, line: 8, character: 8)
            #expect(parameters.contains("overwrite") && parameters.contains("to") && !parameters.contains("case"), "\(parameters)")
            // Beside `save-file:` (column 4): the modifiers.
            try session.notify("textDocument/didChange", ["textDocument": ["uri": "file:///work/flow.yaml", "version": 2], "contentChanges": [["text": text.replacingOccurrences(of: "      ov\n", with: "    a\n")]]])
            let modifiers = try labels(session, id: 12, line: 8, character: 5)
            #expect(modifiers.contains("as") && modifiers.contains("retry") && !modifiers.contains("overwrite"), "\(modifiers)")
            // `change-case: up|`: its choices.
            let choices = try labels(session, id: 13, line: 5, character: 19)
            #expect(choices.contains("upper") && choices.contains("lower"), "\(choices)")
            // `${gr|`: the variables set before, and Relay's own; `${secrets.|`: the secrets declared.
            let variables = try labels(session, id: 14, line: 10, character: 15)
            #expect(variables.contains("greeting") && variables.contains("previous"), "\(variables)")
            #expect(try labels(session, id: 15, line: 11, character: 21) == ["API_TOKEN"])
            // Hover over `save-file`: its `relay describe`.
            try session.request(16, "textDocument/hover", ["textDocument": ["uri": "file:///work/flow.yaml"], "position": ["line": 6, "character": 8]])
            let hover = ((try session.response(16)?["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
            #expect(hover.contains("save-file — Save File"), "\(hover)")
            // `${greeting}`'s definition: its `as:`.
            try session.request(17, "textDocument/definition", ["textDocument": ["uri": "file:///work/flow.yaml"], "position": ["line": 13, "character": 15]])
            let range = (try session.response(17)?["result"] as? [String: Any])?["range"] as? [String: [String: Int]]
            #expect(range?["start"]?["line"] == 4 && range?["start"]?["character"] == 8 && range?["end"]?["character"] == 16, "\(range ?? [:])")
            // The did-you-mean of `chnage-case` as a quick fix that writes `change-case` in its place.
            let diagnostic: [String: Any] = [
                "range": ["start": ["line": 12, "character": 4], "end": ["line": 12, "character": 15]], "severity": 1,
                "message": "unknown action 'chnage-case'; did you mean 'change-case'?",
            ]
            try session.request(18, "textDocument/codeAction", ["textDocument": ["uri": "file:///work/flow.yaml"], "range": diagnostic["range"]!, "context": ["diagnostics": [diagnostic]]])
            let fixes = (try session.response(18)?["result"] as? [[String: Any]]) ?? []
            let changes = ((fixes.first?["edit"] as? [String: Any])?["changes"] as? [String: [[String: Any]]])?["file:///work/flow.yaml"]
            #expect(fixes.first?["title"] as? String == "Change 'chnage-case' to 'change-case'")
            #expect(changes?.first?["newText"] as? String == "change-case")
            // A place past the document's end, or a document never opened: an empty answer, not an error.
            #expect(try labels(session, id: 19, line: 400, character: 2).isEmpty)
            try session.request(20, "textDocument/hover", ["textDocument": ["uri": "file:///never.yaml"], "position": ["line": 0, "character": 0]])
            #expect(try session.response(20)?["error"] == nil)
            _ = session.finish()
        }
    }

    /// The hover text at a place, or nil.
    private func hovered(_ session: EditorSession, id: Int, line: Int, character: Int) throws -> String? {
        try session.request(id, "textDocument/hover", ["textDocument": ["uri": "file:///work/flow.yaml"], "position": ["line": line, "character": character]])
        return ((try session.response(id)?["result"] as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String
    }

    @Test("types: variables completed with the type the check found, a property list after '${name.', hover of a variable, a property and a secret; in a 'where:', the properties, a property's comparators")
    func types() async throws {
        try await BlockingWork.run { _ in
            let (session, _) = try started()
            let text = """
                secrets: [API_TOKEN]
                steps:
                  - find-files: .
                    where: { extension: png }
                    as: pictures
                  - number: 5
                    as: n
                  - text: "${pictures.count} ${n} ${secrets.API_TOKEN} ${pictures.first.name}"
                  - text: "${pi}"
                  - find-files: .
                    where: { size: { gr
                  - find: photos
                    where:
                      wi
                      height:
                        at

                """
            // The types of the text as it last parsed: the one written so far, before the `where:` being typed.
            try open(session, text.split(separator: "\n")[...8].joined(separator: "\n") + "\n")
            _ = try session.diagnostics(version: 1)
            try session.notify("textDocument/didChange", ["textDocument": ["uri": "file:///work/flow.yaml", "version": 2], "contentChanges": [["text": text]]])
            _ = try session.diagnostics(version: 2)
            // `${pi|`: each variable with its type and where it is set.
            try session.request(10, "textDocument/completion", ["textDocument": ["uri": "file:///work/flow.yaml"], "position": ["line": 8, "character": 15]])
            let items = ((try session.response(10)?["result"] as? [String: Any])?["items"] as? [[String: Any]]) ?? []
            let pictures = items.first { $0["label"] as? String == "pictures" }
            #expect(pictures?["detail"] as? String == "a list of files, set on line 3", "\(pictures ?? [:])")
            #expect(items.first { $0["label"] as? String == "n" }?["detail"] as? String == "a number, set on line 6")
            // `${pictures.|`: a list's own properties, then its files'.
            try session.notify(
                "textDocument/didChange",
                ["textDocument": ["uri": "file:///work/flow.yaml", "version": 3], "contentChanges": [["text": text.replacingOccurrences(of: "${pi}", with: "${pictures.}")]]])
            _ = try session.diagnostics(version: 3)
            let properties = try labels(session, id: 11, line: 8, character: 22)
            #expect(properties.prefix(3) == ["count", "first", "last"] && properties.contains("modified") && properties.contains("extension"), "\(properties)")
            #expect(!properties.contains("pictures") && !properties.contains("previous"), "\(properties)")
            // Hover: a variable's type and line, a property's type, a secret's name and never a value.
            #expect(try hovered(session, id: 12, line: 7, character: 15) == "```text\npictures: a list of files, set on line 3\n```")
            #expect(try hovered(session, id: 13, line: 7, character: 23) == "```text\npictures.count: a number\n```")
            #expect(try hovered(session, id: 14, line: 7, character: 31) == "```text\nn: a number, set on line 6\n```")
            #expect(try hovered(session, id: 15, line: 7, character: 45)?.contains("API_TOKEN: the secret 'API_TOKEN' — its value is never shown") == true)
            let chained = try hovered(session, id: 16, line: 7, character: 74)
            #expect(chained == "```text\npictures.first.name: a text\n```", "\(chained ?? "nil")")
            // In `where: { size: { gr|`: the comparators that fit a number; under `where:`, a photo's properties; under a property, its comparators.
            let comparators = try labels(session, id: 17, line: 10, character: 25)
            #expect(comparators.contains("greater-than") && comparators.contains("between") && !comparators.contains("begins-with"), "\(comparators)")
            let photo = try labels(session, id: 18, line: 13, character: 8)
            #expect(photo.contains("width") && photo.contains("dateAdded") && photo.contains("title"), "\(photo)")
            let height = try labels(session, id: 19, line: 15, character: 10)
            #expect(height.contains("at-least") && !height.contains("is-today"), "\(height)")
            let files = try labels(session, id: 20, line: 10, character: 15)
            #expect(files.contains("size") && files.contains("extension"), "\(files)")
            _ = session.finish()
        }
    }

    @Test("go to definition of a run-workflow's file and of a packages: entry (its Package.swift), relative to the workflow's folder; nothing for one that is not there")
    func namedFiles() async throws {
        let kit = home.appendingPathComponent("kits/Kit"), helpers = home.appendingPathComponent("helpers")
        try FileManager.default.createDirectory(at: kit, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: helpers, withIntermediateDirectories: true)
        try "// swift-tools-version:6.0\n".write(to: kit.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "steps:\n  - text: hi\n".write(to: helpers.appendingPathComponent("resize.yaml"), atomically: true, encoding: .utf8)
        let uri = home.appendingPathComponent("flow.yaml").absoluteString
        try await BlockingWork.run { _ in
            let (session, _) = try started()
            let text = "packages: [./kits/Kit, ./kits/Gone]\nsteps:\n  - run-workflow: helpers/resize.yaml\n  - run-workflow:\n      path: \"helpers/resize.yaml\"\n  - run-workflow: helpers/gone.yaml\n  - run-workflow: /dev/zero\n"
            try open(session, text, uri: uri)
            _ = try session.diagnostics(version: 1)
            func target(_ id: Int, _ line: Int, _ character: Int) throws -> String? {
                try session.request(id, "textDocument/definition", ["textDocument": ["uri": uri], "position": ["line": line, "character": character]])
                return (try session.response(id)?["result"] as? [String: Any])?["uri"] as? String
            }
            #expect(try target(10, 0, 14) == kit.appendingPathComponent("Package.swift").absoluteString)
            #expect(try target(11, 0, 28) == nil)
            #expect(try target(12, 2, 24) == helpers.appendingPathComponent("resize.yaml").absoluteString)
            #expect(try target(13, 4, 16) == helpers.appendingPathComponent("resize.yaml").absoluteString)
            #expect(try target(14, 5, 24) == nil)
            // A device, or the system's own files, are no file to go to.
            #expect(try target(15, 6, 22) == nil)
            try open(session, "steps:\n  - run-workflow: /proc/self/environ\n", uri: uri, version: 2)
            _ = try session.diagnostics(version: 2)
            #expect(try target(16, 1, 22) == nil)
            _ = session.finish()
        }
    }

    @Test("a shortcut file gets the diagnostics relay check gives of it, read from the file whatever text the editor holds; a signed one that checks gets none")
    func shortcuts() async throws {
        let speak = home.appendingPathComponent("speak.shortcut")
        let actions = [("gettext", ["WFTextActionText": "hi"]), ("speaktext", [:])].map {
            ["WFWorkflowActionIdentifier": "is.workflow.actions." + $0.0, "WFWorkflowActionParameters": $0.1]
        }
        try PropertyListSerialization.data(fromPropertyList: ["WFWorkflowActions": actions], format: .binary, options: 0).write(to: speak)
        let signed = RelayProcess.root.appendingPathComponent("Tests/Shortcuts/greeting-signed.shortcut")
        try await BlockingWork.run { _ in
            let (session, _) = try started()
            try open(session, "bplist00\u{FFFD}\u{FFFD}", uri: speak.absoluteString)
            let found = try #require(try session.diagnostics(version: 1)).map(described)
            #expect(found.count == 1, "\(found)")
            #expect(found.first?.hasPrefix("0:0-0:0 1 action 2 (Speak Text, is.workflow.actions.speaktext): Speak Text works only on Apple's devices") == true, "\(found)")
            try open(session, "AEA1", uri: signed.absoluteString)
            #expect(try session.diagnostics(version: 1)?.isEmpty == true)
            _ = session.finish()
        }
    }

    /// The completion items at a place, whole.
    private func items(_ session: EditorSession, id: Int, line: Int, character: Int) throws -> [[String: Any]] {
        try session.request(id, "textDocument/completion", ["textDocument": ["uri": "file:///work/flow.yaml"], "position": ["line": line, "character": character]])
        return ((try session.response(id)?["result"] as? [String: Any])?["items"] as? [[String: Any]]) ?? []
    }

    @Test("completion as editors take it: each item replaces the whole word typed, hyphens and all; snippets only for an editor that takes them; parameters beside a step's name and in its { } mapping; loop variables typed; a YAML file that is no workflow left alone")
    func editorsCompletion() async throws {
        let text = """
            secrets: [API_TOKEN, OTHER]
            steps:
              - find-files: .
                where: { extension: png }
                as: files
              - for-each: "${files}"
                as: f
                do:
                  - text: "${f}"
              - text: "${secrets.API_TOKEN}"

            """
        let typing = text + "  - change-c\n  - find-files: ~/Documents\n    wh\n  - save-file: { to: a.txt, ov }\n  - text: \"${f.}${secrets.}\"\n"
        try await BlockingWork.run { _ in
            let (session, answer) = try started()
            let triggers = ((answer["result"] as? [String: Any])?["capabilities"] as? [String: Any])?["completionProvider"] as? [String: Any]
            #expect((triggers?["triggerCharacters"] as? [String])?.contains(".") == true)
            try open(session, text)
            _ = try session.diagnostics(version: 1)
            try session.notify("textDocument/didChange", ["textDocument": ["uri": "file:///work/flow.yaml", "version": 2], "contentChanges": [["text": typing]]])
            _ = try session.diagnostics(version: 2)
            // `  - change-c|`: the whole `change-c` is replaced; with no snippets, a plain name.
            let names = try items(session, id: 10, line: 10, character: 12)
            let change = try #require(names.first { $0["label"] as? String == "change-case" })
            let edit = change["textEdit"] as? [String: Any]
            let range = edit?["range"] as? [String: [String: Int]]
            #expect(range?["start"]?["character"] == 4 && range?["end"]?["character"] == 12, "\(edit ?? [:])")
            #expect(edit?["newText"] as? String == "change-case: " && change["insertTextFormat"] == nil, "\(change)")
            let replace = try #require(names.first { $0["label"] as? String == "replace-text" })
            #expect((replace["textEdit"] as? [String: Any])?["newText"] as? String == "replace-text: ", "\(replace)")
            // Beside `- find-files: ~/Documents`: its parameters (not its primary one) with the modifiers.
            let beside = try labels(session, id: 11, line: 12, character: 6)
            #expect(beside.contains("where") && beside.contains("limit") && beside.contains("as") && !beside.contains("in"), "\(beside)")
            // `- save-file: { to: a.txt, ov|`: its parameters.
            #expect(try labels(session, id: 12, line: 13, character: 30).contains("overwrite"))
            // `${f.|` inside the loop's lines... here outside it, f is not a file: nothing known.
            #expect(try labels(session, id: 13, line: 14, character: 15).isEmpty)
            // `${secrets.|` with `secrets: [A, B]`.
            #expect(try labels(session, id: 14, line: 14, character: 26) == ["API_TOKEN", "OTHER"])
            // Inside the loop, f is each file: its properties, and its type on hover.
            try session.notify(
                "textDocument/didChange",
                ["textDocument": ["uri": "file:///work/flow.yaml", "version": 3], "contentChanges": [["text": typing.replacingOccurrences(of: "\"${f}\"", with: "\"${f.}\"")]]])
            _ = try session.diagnostics(version: 3)
            let properties = try labels(session, id: 15, line: 8, character: 19)
            #expect(properties.contains("size") && properties.contains("modified"), "\(properties)")
            #expect(try hovered(session, id: 16, line: 9, character: 25)?.contains("secrets.API_TOKEN: the secret") == true)
            // A YAML file that is not a workflow (no `steps:` at the left edge) gets no diagnostics
            // and no completion; a workflow whose key is quoted, or written as JSON, is checked.
            try open(session, "services:\n  web:\n    image: nginx\n", uri: "file:///work/compose.yaml")
            #expect(try session.diagnostics(version: 1)?.isEmpty == true)
            try open(session, "jobs:\n  build:\n    steps:\n      - uses: actions/checkout@v4\n", uri: "file:///work/ci.yaml")
            #expect(try session.diagnostics(version: 1)?.isEmpty == true)
            try session.request(30, "textDocument/completion", ["textDocument": ["uri": "file:///work/compose.yaml"], "position": ["line": 1, "character": 2]])
            #expect(try session.response(30)?["result"] is NSNull)
            for (index, hidden) in ["\"steps\":\n  - nope\n", "{\"steps\": [\"nope\"]}\n", "\u{FEFF}steps :\n  - nope\n"].enumerated() {
                try open(session, hidden, uri: "file:///work/hidden-\(index).yaml")
                let found = try #require(try session.diagnostics(version: 1)).map(described)
                #expect(found.contains { $0.contains("unknown action 'nope'") }, "\(hidden): \(found)")
            }
            _ = session.finish()
        }
        try await BlockingWork.run { _ in
            let (session, _) = try started(snippets: true)
            try open(session, "steps:\n  - repl\n")
            _ = try session.diagnostics(version: 1)
            let replace = try #require(try items(session, id: 10, line: 1, character: 8).first { $0["label"] as? String == "replace-text" })
            #expect(replace["insertTextFormat"] as? Int == 2)
            #expect(((replace["textEdit"] as? [String: Any])?["newText"] as? String)?.contains("\n      find: ${1}") == true, "\(replace)")
            _ = session.finish()
        }
    }

    @Test("document symbols: the steps as a tree, labels and output names shown, a control step's branches under it")
    func symbols() async throws {
        try await BlockingWork.run { _ in
            let (session, _) = try started()
            try open(session, """
                steps:
                  - text: hello
                    as: greeting
                  - if: ${greeting} == hello
                    then:
                      - change-case: upper
                        label: shout
                    else:
                      - text: quiet
                  - for-each: [1, 2]
                    do:
                      - calculate: ${item} * 2

                """)
            try session.request(30, "textDocument/documentSymbol", ["textDocument": ["uri": "file:///work/flow.yaml"]])
            let symbols = (try session.response(30)?["result"] as? [[String: Any]]) ?? []
            func tree(_ symbols: [[String: Any]]) -> String {
                symbols.map { symbol in
                    let children = symbol["children"] as? [[String: Any]] ?? []
                    let detail = (symbol["detail"] as? String).map { " (\($0))" } ?? ""
                    let line = ((symbol["selectionRange"] as? [String: [String: Int]])?["start"]?["line"]).map { "@\($0)" } ?? ""
                    return "\(symbol["name"] ?? "?")\(detail)\(line)" + (children.isEmpty ? "" : "[" + tree(children) + "]")
                }.joined(separator: ", ")
            }
            #expect(tree(symbols) == "text (as greeting)@1, if@3[then@5[shout@5], else@8[text@8]], for-each@9[calculate@11]", "\(tree(symbols))")
            _ = session.finish()
        }
    }

    @Test("'add the grants this workflow needs' writes the permissions: block relay check --permissions finds, before steps:, and the workflow then checks without a warning")
    func grants() async throws {
        let folder = home.appendingPathComponent("flows")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("perm.yaml")
        let text = """
            name: backup
            steps:
              - find-files: { in: ~/Pictures, where: { type: image } }
              - copy-file: ~/relay-examples/
              - get-contents-of-url: https://api.example.com/status
              - open: mailto:a@b.c
              - read-file: notes.txt

            """
        try text.write(to: file, atomically: true, encoding: .utf8)
        let uri = file.absoluteString
        let inserted: String = try await BlockingWork.run { _ in
            let (session, _) = try started()
            try open(session, text, uri: uri)
            // Offered once the text has been checked.
            _ = try session.diagnostics(version: 1)
            try session.request(40, "textDocument/codeAction", ["textDocument": ["uri": uri], "range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]], "context": ["diagnostics": []]])
            let actions = (try session.response(40)?["result"] as? [[String: Any]]) ?? []
            let grants = try #require(actions.first { $0["title"] as? String == "Add the grants this workflow needs" })
            let edit = try #require(((grants["edit"] as? [String: Any])?["changes"] as? [String: [[String: Any]]])?[uri]?.first)
            #expect((edit["range"] as? [String: [String: Int]])?["start"]?["line"] == 1)
            _ = session.finish()
            return edit["newText"] as? String ?? ""
        }
        #expect(inserted == """
            permissions:
              read: [~/Pictures, ./notes.txt]
              write: [~/relay-examples]
              net: [api.example.com]
              open: [mailto]

            """, "\(inserted)")
        try text.replacingOccurrences(of: "steps:\n", with: inserted + "steps:\n").write(to: file, atomically: true, encoding: .utf8)
        let checked = try await RelayProcess.running(["check", file.path], environment: ["HOME": home.path])
        #expect(checked.status == 0 && checked.standardError.isEmpty, "\(checked.standardError)")
    }

    @Test("after shutdown requests are refused; an id that is neither a number nor a text is refused; an edit the text cannot take is said, and nothing is checked until the whole text comes; a false length over the limit is answered at once")
    func protocolEdges() async throws {
        try await BlockingWork.run { _ in
            let (session, _) = try started()
            try session.send(["id": ["a": 1], "method": "textDocument/hover", "params": [:]])
            let refusedId = try session.receive()
            #expect((refusedId?["error"] as? [String: Any])?["code"] as? Int == -32600 && refusedId?["id"] is NSNull, "\(refusedId ?? [:])")
            try open(session, "steps:\n  - text: a\n")
            #expect(try session.diagnostics(version: 1)?.isEmpty == true)
            try session.notify("textDocument/didChange", [
                "textDocument": ["uri": "file:///work/flow.yaml", "version": 2],
                "contentChanges": [["range": ["start": ["line": 99, "character": 0], "end": ["line": 99, "character": 1]], "text": "x"]],
            ])
            let lost = try #require(try session.diagnostics(version: 2))
            #expect((lost.first?["message"] as? String)?.contains("could not apply the editor's change") == true, "\(lost)")
            try session.notify("textDocument/didChange", ["textDocument": ["uri": "file:///work/flow.yaml", "version": 3], "contentChanges": [["text": "steps:\n  - nope\n"]]])
            #expect(try session.diagnostics(version: 3)?.count == 1)
            // A length over the limit, never to come: the parse error is sent at once.
            session.sendRaw(Array("Content-Length: 9223372036854775807\r\n\r\n".utf8))
            #expect((try session.receive()?["error"] as? [String: Any])?["code"] as? Int == -32700)
            _ = session.finish()
        }
        try await BlockingWork.run { _ in
            let (session, _) = try started()
            try session.request(2, "shutdown")
            _ = try session.response(2)
            try session.request(3, "textDocument/hover", ["textDocument": ["uri": "file:///work/flow.yaml"], "position": ["line": 0, "character": 0]])
            #expect((try session.response(3)?["error"] as? [String: Any])?["code"] as? Int == -32600)
            try session.notify("exit")
            #expect(session.finish() == 0)
        }
    }

    @Test("a workflow that names a package that is not there: the error relay check gives, no action called unknown that may be a package's, and the rest checked")
    func packages() async throws {
        try await BlockingWork.run { _ in
            let (session, _) = try started()
            try open(session, "packages: [./TrailKit]\nsteps:\n  - suggest-trails: summit\n  - text: \"${nope}\"\n")
            let found = try #require(try session.diagnostics(version: 1)).map(described)
            #expect(found.count == 2, "\(found)")
            #expect(found.first?.hasPrefix("0:11-0:21 1 cannot load the package './TrailKit': there is no Swift package at '/work/TrailKit'") == true, "\(found)")
            #expect(found.last?.hasPrefix("3:13-3:17 1 undefined variable 'nope'") == true, "\(found)")
            _ = session.finish()
        }
    }
}
