import Foundation
import RelayKit
import Testing

@testable import RelayCLI

/// `relay mcp`, driven by a real assistant's client: the official MCP Python SDK
/// (Tests/Assistants/mcp-client.py), installed by Scripts/install-dependencies.
@Suite("Assistants: relay mcp")
struct AssistantTests: ServeFixture {
    let folder: URL

    init() throws { folder = try Self.freshFolder("relay-mcp") }

    /// A python3 on PATH that has the MCP SDK, or nil.
    static let python: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/python3"
            guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: candidate)
            process.arguments = ["-c", "import mcp"]
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { continue }
            process.waitUntilExit()
            if process.terminationStatus == 0 { return candidate }
        }
        return nil
    }()

    /// The python3 to drive the client with, or nil, said, when none has the SDK.
    static func clientPython() -> String? {
        if python == nil { print("skipped: the assistant test needs the MCP Python SDK (pip's mcp, Scripts/install-dependencies)") }
        return python
    }

    /// Runs the client against `relay mcp flows` with `calls`: the tool list, then each call's result.
    /// With `asks`, the client answers the questions the server asks (elicitation) from `answers`.
    /// With `resources`, the client lists the resources and reads each of these; with `http`, it
    /// talks to `relay serve`'s /mcp at that URL and token; without `expectingSuccess`, it may fail.
    func client(
        _ calls: [[String: Any]], asks: Bool = false, answers: [[String: Any]] = [], flags: [String] = [], resources: [String]? = nil,
        http: [String: String]? = nil, python: String, environment extra: [String: String] = [:], expectingSuccess: Bool = true
    ) async throws -> (tools: [String: [String: Any]], results: [[String: Any]], errors: String) {
        let script = folder.appendingPathComponent("calls-\(UUID().uuidString).json")
        var written: [String: Any] = ["calls": calls, "asks": asks, "answers": answers, "flags": flags]
        if let resources { written["resources"] = resources }
        if let http { written["http"] = http }
        try JSONSerialization.data(withJSONObject: written).write(to: script)
        let client = RelayProcess.root.appendingPathComponent("Tests/Assistants/mcp-client.py").path
        let flows = folder.appendingPathComponent("flows").path
        let errorLog = folder.appendingPathComponent("client-errors.txt")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        let environment = self.environment.merging(extra) { $1 }
        let (status, output) = try await BlockingWork.run { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [client, RelayProcess.executable.path, flows, script.path]
            process.environment = environment
            process.currentDirectoryURL = folder
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = try FileHandle(forWritingTo: errorLog)
            try process.run()
            let data = readAll(pipe.fileHandleForReading)
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        let errors = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
        // A client refused (a wrong token) ends with an error, having listed nothing.
        if expectingSuccess { #expect(status == 0, "\(errors)") }
        let lines = output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let tools = lines.first?["tools"] as? [String: [String: Any]] ?? [:]
        return (tools, Array(lines.dropFirst()), errors)
    }

    @Test("an assistant lists the workflows as tools with their arguments, calls one and gets its output, is refused what was not granted, and every call is a run")
    func toolsAndCalls() async throws {
        guard let python = Self.clientPython() else { return }
        try write(
            "greet.yaml",
            "description: Greets someone by name.\ninput: { type: text, description: Who to greet }\nvariables:\n  greeting: Hello\n  times: 1\n  ending: { type: text, default: \"!\", description: How it ends }\nsteps:\n  - text: \"${greeting}, ${input}${ending}\"\n")
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try write("note.yaml", "description: Writes a note.\ninput: text\nsteps:\n  - save-file: { to: \(out.path)/note.txt, overwrite: true }\n")
        // A name of no ASCII letter or digit is told by its file's name.
        try write("diary-2024.yaml", "name: 日記\ndescription: Says hello.\nsteps:\n  - text: hello\n")
        let (tools, results, errors) = try await client(
            [
                ["tool": "greet", "arguments": ["input": "Ada", "greeting": "Hi"]],
                ["tool": "note", "arguments": ["input": "plans"]],
                ["tool": "greet", "arguments": ["input": "Ada", "greting": "Hi"]],
                ["tool": "nope", "arguments": [:]],
                ["tool": "greet", "arguments": ["greeting": "Hi"]],
            ], python: python)
        // The tools, with their descriptions and the arguments each takes.
        #expect(Set(tools.keys) == ["greet", "note", "diary-2024"], "\(tools) \(errors)")
        #expect(WorkflowTool.toolName("名前") == "workflow" && WorkflowTool.toolName("a.b c") == "a-b-c")
        #expect(WorkflowTool.toolName("Split Bill! (v2)") == "Split-Bill-v2" && WorkflowTool.toolName("Ünïcode naïve 名前") == "Unicode-naive")
        #expect(WorkflowTool.toolName(String(repeating: "x", count: 100), suffix: 2).count == 64)
        #expect(tools["greet"]?["description"] as? String == "Greets someone by name.")
        let schema = try #require(tools["greet"]?["schema"] as? [String: Any])
        let properties = try #require(schema["properties"] as? [String: [String: Any]])
        #expect(properties["input"]?["type"] as? String == "string" && properties["input"]?["description"] as? String == "Who to greet")
        #expect(properties["greeting"]?["default"] as? String == "Hello" && properties["times"]?["type"] as? String == "number")
        #expect(properties["ending"]?["description"] as? String == "How it ends" && properties["ending"]?["default"] as? String == "!", "\(properties)")
        #expect(schema["required"] as? [String] == ["input"] && schema["additionalProperties"] as? Bool == false)
        try #require(results.count == 5, "\(results) \(errors)")
        // The output, as text and as structured content.
        #expect(results[0]["error"] as? Bool == false && results[0]["structured"] as? [String: String] == ["output": "Hi, Ada!"], "\(results[0])")
        // What was not granted is the call's error, naming the grant; nothing is written.
        let refused = results[1]["text"] as? String ?? ""
        #expect(results[1]["error"] as? Bool == true && refused.contains("--allow-write=~/out/note.txt"), "\(results[1])")
        #expect(refused.contains("relay permissions \(folder.path)/flows/note.yaml --grant"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("note.txt").path))
        // An argument it does not take, with a did-you-mean; a tool that is not there.
        #expect(results[2]["error"] as? Bool == true && (results[2]["text"] as? String ?? "").contains("did you mean 'greeting'?"), "\(results[2])")
        #expect((results[3]["raised"] as? String ?? "").contains("there is no tool 'nope'; did you mean 'note'?"), "\(results[3])")
        // An argument it needs, missing: said as the tool's argument, not as a command line's flag.
        let missing = results[4]["text"] as? String ?? ""
        #expect(results[4]["error"] as? Bool == true && missing.contains("'greet' needs the argument 'input' (a text)") && !missing.contains("--"), "\(results[4])")
        // Each call that ran is a run in the history, started by mcp (one refused for its
        // arguments never started).
        let kept = try await runs().filter { $0["trigger"] as? String == "mcp" }
        #expect(kept.compactMap { $0["status"] as? String }.sorted() == ["denied", "succeeded"], "\(kept)")
        // With the call's arguments, as the assistant gave them.
        #expect(kept.contains { ($0["input"] as? String ?? "").contains(#"{"greeting":"Hi","input":"Ada"}"#) }, "\(kept)")
    }

    @Test("a confirmation is asked through the assistant's client and answered there; declined, the call is cancelled; a client that cannot ask gets yes only with --yes")
    func confirmationsThroughTheClient() async throws {
        guard let python = Self.clientPython() else { return }
        try write(
            "tidy.yaml",
            "description: Tidies the drafts, once the person says so.\ninput: text\nsteps:\n  - confirm: \"Delete the draft '${input}'?\"\n  - text: \"deleted ${input}\"\n")
        let asking = try await client(
            [["tool": "tidy", "arguments": ["input": "notes"]], ["tool": "tidy", "arguments": ["input": "plans"]]], asks: true,
            answers: [
                ["match": "'notes'", "action": "accept", "content": ["confirm": true]],
                ["match": "'plans'", "action": "decline"],
            ], python: python)
        try #require(asking.results.count == 2, "\(asking.results) \(asking.errors)")
        #expect(asking.results[0]["asked"] as? [String] == ["Delete the draft 'notes'?"], "\(asking.results[0])")
        #expect(asking.results[0]["structured"] as? [String: String] == ["output": "deleted notes"], "\(asking.results[0])")
        // A no ends the run as a no on a terminal does: cancelled (exit status 3).
        #expect(asking.results[1]["error"] as? Bool == true && asking.results[1]["asked"] as? [String] == ["Delete the draft 'plans'?"], "\(asking.results[1])")
        // A client that cannot ask: no confirmation is taken for a yes, unless relay mcp was given --yes.
        let unasked = try await client([["tool": "tidy", "arguments": ["input": "notes"]]], python: python)
        let unansweredText = unasked.results.first?["text"] as? String ?? ""
        #expect(unasked.results.first?["error"] as? Bool == true && unansweredText.contains("cannot ask its person"), "\(unasked.results)")
        #expect(unansweredText.contains("relay mcp --yes") && !unansweredText.contains("--answer"), "\(unansweredText)")
        let yes = try await client([["tool": "tidy", "arguments": ["input": "notes"]]], flags: ["--yes"], python: python)
        #expect(yes.results.first?["structured"] as? [String: String] == ["output": "deleted notes"], "\(yes.results)")
        let statuses = try await runs().filter { $0["trigger"] as? String == "mcp" }.compactMap { $0["status"] as? String }
        #expect(statuses.sorted() == ["failed", "stopped", "succeeded", "succeeded"], "\(statuses)")
    }

    @Test("a call the assistant gives up on, or one whose assistant goes away, is stopped and kept as stopped", arguments: ["timeout", "vanish"])
    func givingUpStopsTheRun(_ how: String) async throws {
        guard let python = Self.clientPython() else { return }
        try write("slow.yaml", "description: Takes its time.\nsteps:\n  - wait: 300\n  - text: done\n")
        let session = try await client([["tool": "slow", "arguments": [:], how: 1]], python: python)
        if how == "timeout" { #expect(session.results.first?["gave up"] as? Bool == true, "\(session.results) \(session.errors)") }
        let kept = try await waitForRuns { runs in runs.contains { $0["trigger"] as? String == "mcp" && $0["status"] as? String != "running" } }
        #expect(kept.filter { $0["trigger"] as? String == "mcp" }.compactMap { $0["status"] as? String } == ["stopped"], "\(kept)")
        // Said as what stopped it: the assistant, not a signal nobody sent.
        let said = kept.first { $0["trigger"] as? String == "mcp" }.map { "\($0)" } ?? ""
        #expect(said.contains(how == "timeout" ? "the assistant cancelled the call" : "the assistant went away") && !said.contains("SIGTERM"), "\(said)")
    }

    @Test("with --actions, each action is a tool too: its parameters are the arguments, each a value (never a template), behind the gate")
    func actionsAsTools() async throws {
        guard let python = Self.clientPython() else { return }
        let secret = folder.appendingPathComponent("private.txt")
        try "private".write(to: secret, atomically: true, encoding: .utf8)
        let session = try await client(
            [
                ["tool": "change-case", "arguments": ["text": "a ${input} b", "to": "upper"]],
                ["tool": "change-case", "arguments": ["text": "abc", "to": "sideways"]],
                ["tool": "read-file", "arguments": ["path": secret.path]],
            ], flags: ["--actions"], python: python)
        let schema = try #require(session.tools["change-case"]?["schema"] as? [String: Any], "\(session.tools.keys.sorted())")
        let to = (schema["properties"] as? [String: [String: Any]])?["to"]
        #expect((to?["enum"] as? [String])?.contains("upper") == true && schema["required"] as? [String] == ["to"], "\(schema)")
        try #require(session.results.count == 3, "\(session.results) \(session.errors)")
        // An argument is a value: what looks like a template in it is text.
        #expect(session.results[0]["structured"] as? [String: String] == ["output": "A ${INPUT} B"], "\(session.results[0])")
        #expect((session.results[1]["text"] as? String ?? "").contains("found 'sideways'"), "\(session.results[1])")
        // Nothing is granted to an action's call but relay mcp's --allow flags.
        #expect(session.results[2]["error"] as? Bool == true && (session.results[2]["text"] as? String ?? "").contains("--allow-read"), "\(session.results[2])")
        #expect(!(session.results[2]["text"] as? String ?? "").contains("\"private\""), "\(session.results[2])")
    }

    @Test("a question made from a secret reaches the assistant masked; one the person never answers stops with the run when the assistant goes away")
    func questionsKeepSecretsAndStop() async throws {
        guard let python = Self.clientPython() else { return }
        try write(
            "send.yaml",
            "description: Sends the token.\nsecrets: [MCP_TEST_TOKEN]\nsteps:\n  - confirm: \"Send ${secrets.MCP_TEST_TOKEN} now?\"\n  - list: [a, \"${secrets.MCP_TEST_TOKEN}\"]\n  - choose-from-list: { prompt: Which? }\n")
        try write("stall.yaml", "description: Asks and waits.\nsteps:\n  - confirm: Proceed?\n  - text: done\n")
        let token = "tok-\(UUID().uuidString)"
        let session = try await client(
            [["tool": "send", "arguments": [:]]], asks: true,
            answers: [["match": "now?", "action": "accept", "content": ["confirm": true]], ["match": "Which", "action": "accept", "content": ["choice": "a"]]],
            python: python, environment: ["MCP_TEST_TOKEN": token])
        let asked = session.results.first?["asked"] as? [String] ?? []
        #expect(asked.count == 2 && !asked.joined().contains(token), "\(session.results) \(session.errors)")
        #expect(!(session.results.first.map { "\($0)" } ?? "").contains(token))
        // The options of a list made from a secret are hidden whole: a secret in pieces is in none of them.
        let forms = session.results.first?["forms"] as? [String] ?? []
        #expect(forms.count == 2 && forms[1].contains("1. •••") && !forms[1].contains("\"a\""), "\(forms)")
        // A file that does not check, with the secret's value written in it, is said with the value
        // masked; one that has it in its description is not offered.
        try write("broken.yaml", "description: Broken.\nsecrets: [MCP_TEST_TOKEN]\nsteps:\n  - bogus-action: \"\(token)\"\n")
        try write("told.yaml", "description: \"\(token)\"\nsecrets: [MCP_TEST_TOKEN]\nsteps:\n  - text: hi\n")
        // Written escaped, the value is not found in the file, but it is masked where it is offered.
        let escaped = "\\u0074" + token.dropFirst()
        try write("hinted.yaml", "description: \"the key is \(escaped)\"\nsecrets: [MCP_TEST_TOKEN]\nsteps:\n  - text: hi\n")
        let broken = try await client([["tool": "broken", "arguments": [:]]], python: python, environment: ["MCP_TEST_TOKEN": token])
        #expect(broken.tools["told"] == nil && !"\(broken.tools)".contains(token), "\(broken.tools)")
        #expect(broken.tools["hinted"]?["description"] as? String == "the key is •••", "\(broken.tools)")
        #expect(broken.results.first?["error"] as? Bool == true && !"\(broken.results)".contains(token), "\(broken.results)")
        #expect((broken.results.first?["text"] as? String ?? "").contains("bogus-action") && !broken.errors.contains(token), "\(broken.results)")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("flows/broken.yaml"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("flows/told.yaml"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("flows/hinted.yaml"))
        // An argument that is the secret's value is kept in the history masked.
        try write("echo.yaml", "description: Echoes.\nsecrets: [MCP_TEST_TOKEN]\nvariables:\n  note: { type: text }\nsteps:\n  - text: \"${note}\"\n")
        _ = try await client([["tool": "echo", "arguments": ["note": token]]], python: python, environment: ["MCP_TEST_TOKEN": token])
        let echoed = try await runs().filter { ($0["workflow"] as? String ?? "").hasSuffix("echo.yaml") }
        #expect(echoed.count == 1 && !"\(echoed)".contains(token) && "\(echoed)".contains("note"), "\(echoed)")
        // The person never answers, and the assistant goes away: the run stops, kept as stopped.
        _ = try await client([["tool": "stall", "arguments": [:], "vanish": 1]], asks: true, answers: [["match": "Proceed", "action": "never"]], python: python)
        let kept = try await waitForRuns { runs in runs.contains { ($0["workflow"] as? String ?? "").hasSuffix("stall.yaml") && $0["status"] as? String != "running" } }
        #expect(kept.filter { ($0["workflow"] as? String ?? "").hasSuffix("stall.yaml") }.compactMap { $0["status"] as? String } == ["stopped"], "\(kept)")
    }

    @Test("the transport reads a message a line, whole however it arrives; one over the limit is refused, and the next is read")
    func linesOfTheTransport() async throws {
        var made: [Int32] = [0, 0]
        #expect(pipe(&made) == 0)
        let ends = made
        let long = String(repeating: "x", count: 150_000), tooLong = String(repeating: "y", count: 300_000)
        let text = "a\n\n" + long + "\n" + tooLong + "\nb\n"
        let writer = Thread {
            // In pieces of 7,000 bytes: lines end inside pieces and across them.
            let output = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
            let bytes = Array(text.utf8)
            for start in stride(from: 0, to: bytes.count, by: 7_000) {
                try? output.write(contentsOf: bytes[start..<min(start + 7_000, bytes.count)])
            }
            try? output.close()
        }
        writer.start()
        let lines = try await BlockingWork.run { _ in
            var lines: [String] = []
            LineTransport.readLines(from: ends[0], limit: 200_000) { lines.append(String(decoding: $0, as: UTF8.self)) }
            return lines
        }
        close(ends[0])
        #expect(lines.count == 4, "\(lines.map(\.count))")
        #expect(lines.first == "a" && lines.last == "b" && lines.dropFirst().first == long)
        #expect(lines.count == 4 && Data(lines[2].utf8) == LineTransport.overLimit)
    }

    @Test("a line that is no message is answered with the protocol's error and the id it gave, else null; a message is left to the SDK")
    func refusedLines() throws {
        let answer = { (line: String) -> [String: Any]? in
            LineTransport.refusal(of: Data(line.utf8)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        }
        for (line, code) in [
            ("not json", -32700), ("42", -32600), ("\"text\"", -32600), ("{}", -32600), ("{\"id\": {\"a\": 1}}", -32600), ("[]", -32600),
            (#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#, -32600), (#"{"jsonrpc":"2.0","id":true,"method":"tools/list"}"#, -32600),
            (#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#, -32600),
            (#"{"jsonrpc":"2.0","id":"a\ndata: x","method":"tools/list"}"#, -32600),
            ("{\"jsonrpc\":\"2.0\",\"id\":\"\(String(repeating: "i", count: 300))\",\"method\":\"tools/list\"}", -32600),
        ] {
            let refused = try #require(answer(line), "\(line)")
            #expect((refused["error"] as? [String: Any])?["code"] as? Int == code && refused["id"] is NSNull, "\(line): \(refused)")
        }
        #expect(answer("{\"id\": 7, \"params\": {}}")?["id"] as? Int == 7)
        #expect(answer("{\"id\": \"a\"}")?["id"] as? String == "a")
        #expect((answer(String(decoding: LineTransport.overLimit, as: UTF8.self))?["error"] as? [String: Any])?["code"] as? Int == -32700)
        #expect(answer("[1]")?["id"] is NSNull && answer(#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]"#) != nil)
        for line in [#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, #"{"jsonrpc":"2.0","id":"x","result":{}}"#] {
            #expect(answer(line) == nil, "\(line)")
        }
    }
}
