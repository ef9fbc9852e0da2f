import Foundation
import RelayKit
import Testing

@testable import RelayCLI

/// What an assistant reaches beyond calling tools: entities as resources, progress, tools that
/// follow their files, stopping on a signal, and the same over `relay serve`'s /mcp — each driven
/// by the official MCP Python SDK.
extension AssistantTests {
    /// Notes in the test's home folder (`~/Notes`), which `find: notes` reads.
    private func notes() throws -> URL {
        let notes = folder.appendingPathComponent("Notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        // A file beside the notes, and a link to it among them: neither is a note.
        try "outside the notes".write(to: folder.appendingPathComponent("outside.md"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: notes.appendingPathComponent("evil.md").path, withDestinationPath: folder.appendingPathComponent("outside.md").path)
        try "# Shopping\nmilk\n".write(to: notes.appendingPathComponent("shopping.md"), atomically: true, encoding: .utf8)
        try "# Ideas\nfly\n".write(to: notes.appendingPathComponent("ideas.md"), atomically: true, encoding: .utf8)
        try "hidden".write(to: notes.appendingPathComponent(".hidden.md"), atomically: true, encoding: .utf8)
        return notes
    }

    @Test("entity types are resources: listed and read by name where the grants let them be found; a tool's note argument takes a name, an identifier or a title")
    func entitiesAsResources() async throws {
        guard let python = Self.clientPython() else { return }
        let notes = try notes()
        try write("which.yaml", "description: Says which note it was given.\ninput: note\nsteps:\n  - text: \"${input.id}\"\n")
        let session = try await client(
            [
                ["tool": "which", "arguments": ["input": "relay://note/ideas.md"]],
                ["tool": "which", "arguments": ["input": "ideas.md"]],
                ["tool": "which", "arguments": ["input": "Shopping"]],
                ["tool": "which", "arguments": ["input": "relay://photo/ideas.md"]],
                ["tool": "which", "arguments": ["input": "../outside.md"]],
                ["tool": "which", "arguments": ["input": "relay://note/..%2Foutside.md"]],
                ["tool": "which", "arguments": ["input": "evil.md"]],
                ["tool": "which", "arguments": ["input": notes.appendingPathComponent(".hidden.md").path]],
            ], flags: ["--allow-read=\(notes.path)"], resources: ["relay://note/shopping.md", "relay://note/gone.md", "relay://nope/1"], python: python)
        // The listing and the reads come first, then the calls.
        try #require(session.results.count == 12, "\(session.results) \(session.errors)")
        let listed = session.results[0]
        #expect(listed["resources"] as? [String: String] == ["relay://note/ideas.md": "ideas", "relay://note/shopping.md": "shopping"], "\(listed)")
        #expect((listed["templates"] as? [String])?.contains("relay://note/{id}") == true, "\(listed)")
        // Read, a note is its properties, its body fetched.
        let read = session.results[1]["text"] as? String ?? ""
        let entity = try #require(try JSONSerialization.jsonObject(with: Data(read.utf8)) as? [String: Any], "\(session.results[1])")
        #expect(entity["id"] as? String == "shopping.md" && entity["body"] as? String == "# Shopping\nmilk\n", "\(entity)")
        #expect((session.results[2]["raised"] as? String ?? "").contains("there is no note 'gone.md'"), "\(session.results[2])")
        #expect((session.results[3]["raised"] as? String ?? "").contains("there is no entity type 'nope'"), "\(session.results[3])")
        // A note argument: by its resource name, its identifier, its title.
        #expect(session.results[4]["structured"] as? [String: String] == ["output": "ideas.md"], "\(session.results[4])")
        #expect(session.results[5]["structured"] as? [String: String] == ["output": "ideas.md"], "\(session.results[5])")
        #expect(session.results[6]["structured"] as? [String: String] == ["output": "shopping.md"], "\(session.results[6])")
        // The name of another type's entity is not a note.
        #expect(session.results[7]["error"] as? Bool == true && (session.results[7]["text"] as? String ?? "").contains("which names a photo"), "\(session.results[7])")
        // An identifier never leads out of the notes' folder: by '..', or by a link inside it.
        for result in session.results[8...] {
            #expect(result["error"] as? Bool == true && !"\(result)".contains("outside the notes"), "\(result)")
        }
        // Without a grant of the notes' folder, none is listed, and a read says what it needs.
        let ungranted = try await client(
            [["tool": "which", "arguments": ["input": notes.appendingPathComponent("shopping.md").path]]], resources: ["relay://note/shopping.md"],
            python: python)
        try #require(ungranted.results.count == 3, "\(ungranted.results) \(ungranted.errors)")
        // A note named by its path is found in the notes' folder as a title is: with its grant.
        #expect(ungranted.results[2]["error"] as? Bool == true && (ungranted.results[2]["text"] as? String ?? "").contains("--allow-read"), "\(ungranted.results[2])")
        #expect((ungranted.results[0]["resources"] as? [String: String])?.isEmpty == true, "\(ungranted.results[0])")
        #expect((ungranted.results[1]["raised"] as? String ?? "").contains("--allow-read"), "\(ungranted.results[1])")
        #expect(!(ungranted.results[1]["raised"] as? String ?? "").contains("milk"), "\(ungranted.results[1])")
    }

    @Test("a call's progress and what its steps show reach the assistant; a file edited while offered is offered as it is now, and one that stops checking answers with the checker's message")
    func progressAndFilesThatChange() async throws {
        guard let python = Self.clientPython() else { return }
        try write("count.yaml", "description: Counts.\nsteps:\n  - list: [a, b, c]\n  - for-each: ${previous}\n    do:\n      - wait: 0.15\n      - show: \"item ${item}\"\n  - text: done\n")
        try write("greet.yaml", "description: Greets.\nvariables:\n  who: World\nsteps:\n  - text: \"Hello, ${who}\"\n")
        let greet = folder.appendingPathComponent("flows/greet.yaml").path
        let session = try await client(
            [
                ["tool": "count", "progress": true],
                [
                    "tool": "greet", "arguments": ["name": "Ada"], "notice": 20,
                    "write": ["path": greet, "text": "description: Greets.\nvariables:\n  name: World\nsteps:\n  - text: \"Hi, ${name}\"\n"],
                ],
                ["tool": "greet", "arguments": [:], "write": ["path": greet, "text": "description: Greets.\nsteps:\n  - txet: Hi\n"]],
            ], python: python)
        try #require(session.results.count == 3, "\(session.results) \(session.errors)")
        let progress = session.results[0]["progress"] as? [String] ?? []
        #expect(progress.last?.hasPrefix("for-each: 3 of 3") == true && progress.count >= 2, "\(session.results[0])")
        #expect((session.results[0]["texts"] as? [String])?.last == "What the steps showed:\nitem a\nitem b\nitem c\n", "\(session.results[0])")
        // Edited: its new variable is an argument, and the call runs what the file says now.
        let properties = (session.results[1]["schema"] as? [String: Any])?["properties"] as? [String: Any]
        #expect(properties?.keys.sorted() == ["name"], "\(session.results[1])")
        #expect(session.results[1]["structured"] as? [String: String] == ["output": "Hi, Ada"], "\(session.results[1])")
        // The client was told the tools changed, without asking.
        #expect(session.results[1]["noticed"] as? Bool == true, "\(session.results[1])")
        // No longer checking: not listed, and its call is the checker's message.
        #expect(session.results[2]["schema"] is NSNull || session.results[2]["schema"] == nil, "\(session.results[2])")
        let broken = session.results[2]["text"] as? String ?? ""
        #expect(session.results[2]["error"] as? Bool == true && broken.contains("greet.yaml:3:5") && broken.contains("did you mean 'text'?"), "\(broken)")
    }

    @Test("SIGTERM to relay mcp stops the call under way: the assistant is told, and the run is kept as stopped")
    func signalStopsCalls() async throws {
        guard let python = Self.clientPython() else { return }
        try write("slow.yaml", "description: Takes its time.\nsteps:\n  - wait: 300\n")
        let session = try await client([["tool": "slow", "signal": 1]], python: python)
        let answer = session.results.first ?? [:]
        #expect(answer["error"] as? Bool == true && (answer["text"] as? String ?? "").contains("by SIGTERM"), "\(session.results) \(session.errors)")
        let kept = try await waitForRuns { runs in runs.contains { $0["trigger"] as? String == "mcp" && $0["status"] as? String != "running" } }
        #expect(kept.filter { $0["trigger"] as? String == "mcp" }.compactMap { $0["status"] as? String } == ["stopped"], "\(kept)")
    }

    @Test("relay serve offers its workflows at /mcp behind its token: listed, called, asked through the client, with progress; no token, no run; SIGTERM stops a call as stopped")
    func overHTTP() async throws {
        guard let python = Self.clientPython() else { return }
        try write("greet.yaml", "description: Greets.\ninput: text\nsteps:\n  - confirm: \"Greet ${input}?\"\n  - text: \"Hello, ${input}\"\n")
        try write("slow.yaml", "description: Takes its time.\nsteps:\n  - wait: 300\n")
        let (server, log) = try serve([folder.appendingPathComponent("flows").path, "--grace", "1"])
        defer { if server.isRunning { server.terminate() } }
        let port = try await port(from: log)
        let url = "http://127.0.0.1:\(port)/mcp"
        // Before its token is made: refused, and it says how to make one.
        let early = await HTTPExchange.send("POST", "/mcp", port: port, headers: ["Content-Type": "application/json"], body: "{}")
        #expect(early.status == 401 && early.body.contains("relay serve token --mcp"), "\(early)")
        let made = try await RelayProcess.running(["serve", "token", "--mcp"], in: folder, environment: environment)
        let token = made.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.hasPrefix("relay_"), "\(made)")
        // Asked by another name (a web page's DNS rebinding), even with the token: refused.
        let rebound = await HTTPExchange.send(
            "POST", "/mcp", port: port, headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"], body: Data("{}".utf8),
            host: "evil.example:\(port)")
        #expect(rebound.status == 421, "\(rebound)")
        let wrong = await HTTPExchange.send(
            "POST", "/mcp", port: port, headers: ["Authorization": "Bearer relay_wrong", "Content-Type": "application/json"], body: "{}")
        #expect(wrong.status == 401, "\(wrong)")
        let inQuery = await HTTPExchange.send("POST", "/mcp?token=\(token)", port: port, headers: ["Content-Type": "application/json"], body: "{}")
        #expect(inQuery.status == 400 && inQuery.body.contains("Authorization header"), "\(inQuery)")
        // A client without the token gets nothing: no list, no run.
        let refused = try await client(
            [["tool": "greet", "arguments": ["input": "Ada"]]], http: ["url": url, "token": "relay_wrong"], python: python, expectingSuccess: false)
        #expect(refused.tools.isEmpty, "\(refused)")
        let session = try await client(
            [["tool": "greet", "arguments": ["input": "Ada"], "progress": true]], asks: true,
            answers: [["match": "Greet Ada?", "action": "accept", "content": ["confirm": true]]], http: ["url": url, "token": token], python: python)
        #expect(Set(session.tools.keys) == ["greet", "slow"], "\(session.tools.keys) \(session.errors)")
        #expect(session.results.first?["structured"] as? [String: String] == ["output": "Hello, Ada"], "\(session.results)")
        #expect(session.results.first?["asked"] as? [String] == ["Greet Ada?"], "\(session.results)")
        // SIGTERM while a call runs: the call is told it was stopped, the server exits 143.
        let stopping = Task { () -> Data in
            let results = try await client([["tool": "slow"]], http: ["url": url, "token": token], python: python).results
            return try JSONSerialization.data(withJSONObject: results)
        }
        _ = try await waitForRuns { runs in runs.contains { ($0["workflow"] as? String ?? "").hasSuffix("slow.yaml") } }
        server.terminate()
        let stopped = try JSONSerialization.jsonObject(with: try await stopping.value) as? [[String: Any]] ?? []
        #expect(stopped.first?["error"] as? Bool == true && (stopped.first?["text"] as? String ?? "").contains("by SIGTERM"), "\(stopped)")
        server.waitUntilExit()
        #expect(server.terminationStatus == 143)
        let kept = try await runs().filter { $0["trigger"] as? String == "mcp" }
        #expect(kept.compactMap { $0["status"] as? String }.sorted() == ["stopped", "succeeded"], "\(kept)")
    }

    @Test("a client that answers a question with something that is no answer, or sends a line that is no message, is told so: the call ends with an error that says it, a line is answered with id null")
    func rawClient() async throws {
        try write("ask.yaml", "description: Asks.\nsteps:\n  - confirm: Go?\n  - text: went\n")
        let process = Process()
        process.executableURL = RelayProcess.executable
        process.arguments = ["mcp", folder.appendingPathComponent("flows/ask.yaml").path]
        process.environment = environment
        let (input, output) = (Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let lines = LineReader(output.fileHandleForReading)
        let send = { (line: String) in try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8)) }
        try send(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"elicitation":{}},"clientInfo":{"name":"raw","version":"1"}}}"#)
        _ = try await lines.next()
        try send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
        try send("not json at all")
        let refused = try await lines.next()
        #expect(refused["id"] is NSNull && (refused["error"] as? [String: Any])?["code"] as? Int == -32700, "\(refused)")
        try send(#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask","arguments":{}}}"#)
        let question = try await lines.next()
        #expect(question["method"] as? String == "elicitation/create", "\(question)")
        let id = try JSONSerialization.data(withJSONObject: [question["id"] ?? NSNull()])
        try send(#"{"jsonrpc":"2.0","id":"# + String(decoding: id.dropFirst().dropLast(), as: UTF8.self) + #","result":{"action":42}}"#)
        let answer = try await lines.next()
        let text = (((answer["result"] as? [String: Any])?["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        #expect(text.contains("replied with something that is not an answer") && !text.contains("TypeMismatch"), "\(answer)")
    }

    @Test("a permission question goes to the assistant's person: once lets the call run, always keeps it for the file, no denies it with nothing written; over HTTP it is never asked")
    func permissionQuestions() async throws {
        guard let python = Self.clientPython() else { return }
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try write("note.yaml", "description: Writes a note.\ninput: text\nsteps:\n  - save-file: { to: \(out.path)/note.txt, overwrite: true }\n")
        let note = out.appendingPathComponent("note.txt")
        let refused = try await client(
            [["tool": "note", "arguments": ["input": "no"]]], asks: true, answers: [["match": "Allow", "action": "accept", "content": ["answer": "no"]]],
            python: python)
        #expect(refused.results.first?["error"] as? Bool == true && (refused.results.first?["asked"] as? [String])?.count == 1, "\(refused.results)")
        #expect(!FileManager.default.fileExists(atPath: note.path))
        let once = try await client(
            [["tool": "note", "arguments": ["input": "once"]]], asks: true,
            answers: [["match": "Allow \"note\" to write", "action": "accept", "content": ["answer": "once"]]], python: python)
        #expect(once.results.first?["error"] as? Bool == false, "\(once.results) \(once.errors)")
        #expect((try? String(contentsOf: note, encoding: .utf8))?.trimmingCharacters(in: .newlines) == "once")
        // Once is for that call: the next asks again; always is kept, and the one after that is not asked.
        let always = try await client(
            [["tool": "note", "arguments": ["input": "always"]], ["tool": "note", "arguments": ["input": "kept"]]], asks: true,
            answers: [["match": "Allow", "action": "accept", "content": ["answer": "always"]]], python: python)
        #expect(always.results.first?["asked"] as? [String] != [], "\(always.results)")
        #expect(always.results.last?["asked"] as? [String] == [] && always.results.last?["error"] as? Bool == false, "\(always.results)")
        #expect((try? String(contentsOf: note, encoding: .utf8))?.trimmingCharacters(in: .newlines) == "kept")
        // Always is kept for the file as the run read it: one changed while the question waited is not granted.
        let swap = out.appendingPathComponent("swap.txt")
        try write("swap.yaml", "description: Writes a swap.\ninput: text\nsteps:\n  - save-file: { to: \(swap.path), overwrite: true }\n")
        let swapped = try await client(
            [["tool": "swap", "arguments": ["input": "swapped"]]], asks: true,
            answers: [[
                "match": "Allow", "action": "accept", "content": ["answer": "always"],
                "write": [
                    "path": folder.appendingPathComponent("flows/swap.yaml").path,
                    "text": "description: Writes a swap, changed.\ninput: text\nsteps:\n  - save-file: { to: \(swap.path), overwrite: true }\n",
                ],
            ]], python: python)
        #expect(swapped.results.first?["error"] as? Bool == false && swapped.results.first?["asked"] as? [String] != [], "\(swapped.results)")
        let afterSwap = try await client([["tool": "swap", "arguments": ["input": "after"]]], python: python)
        #expect(afterSwap.results.first?["error"] as? Bool == true, "\(afterSwap.results)")
        #expect((try? String(contentsOf: swap, encoding: .utf8))?.trimmingCharacters(in: .newlines) == "swapped")
        // Edited since, the file is not what was granted: the error says so.
        try write("note.yaml", "description: Writes a note, edited.\ninput: text\nsteps:\n  - save-file: { to: \(out.path)/note.txt, overwrite: true }\n")
        let edited = try await client([["tool": "note", "arguments": ["input": "edited"]]], python: python)
        #expect((edited.results.first?["text"] as? String ?? "").contains("changed since: grant it again"), "\(edited.results)")
        // Over HTTP nobody is asked about permissions: a need beyond the grants is the call's error.
        try write("other.yaml", "description: Writes elsewhere.\ninput: text\nsteps:\n  - save-file: { to: \(out.path)/other.txt, overwrite: true }\n")
        let (server, log) = try serve([folder.appendingPathComponent("flows").path])
        defer { server.terminate() }
        let port = try await port(from: log)
        let made = try await RelayProcess.running(["serve", "token", "--mcp"], in: folder, environment: environment)
        let http = try await client(
            [["tool": "other", "arguments": ["input": "x"]]], asks: true, answers: [["match": "Allow", "action": "accept", "content": ["answer": "always"]]],
            http: ["url": "http://127.0.0.1:\(port)/mcp", "token": made.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)], python: python)
        #expect(http.results.first?["error"] as? Bool == true && http.results.first?["asked"] as? [String] == [], "\(http.results)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("other.txt").path))
    }
}

/// Reads a process's standard output a line at a time, each a JSON object, without holding a
/// cooperative thread.
private final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next line, as a JSON object; an empty one at the end.
    func next() async throws -> [String: Any] {
        let line = try await BlockingWork.run { [self] _ in
            while true {
                if let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = buffer[buffer.startIndex..<end]
                    buffer = Data(buffer[buffer.index(after: end)...])
                    return Data(line)
                }
                let more = handle.availableData
                if more.isEmpty { return Data() }
                buffer.append(more)
            }
        }
        return (try? JSONSerialization.jsonObject(with: line) as? [String: Any]) ?? [:]
    }
}
