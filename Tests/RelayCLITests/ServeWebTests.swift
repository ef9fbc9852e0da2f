import Foundation
import RelayKit
import Testing

@testable import RelayCLI

/// `relay serve` over HTTP: webhooks, and the page of workflows and runs.
@Suite("Serving webhooks and the page")
struct ServeWebTests: ServeFixture {
    let folder: URL

    init() throws { folder = try Self.freshFolder("relay-web") }

    /// `relay serve token NAME`'s token.
    private func token(_ name: String) async throws -> String {
        let made = try await RelayProcess.running(["serve", "token", name], in: folder, environment: environment)
        #expect(made.status == 0, "\(made.standardError)")
        return made.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func stop(_ server: Process) async {
        kill(server.processIdentifier, SIGTERM)
        await RelayProcess.waitForExit(server)
    }

    @Test("a webhook with its token answers the run's output as JSON; without it, or with a wrong one, 401 and no run; a token in the URL is refused")
    func webhookAnswers() async throws {
        try write(
            "invoice.yaml",
            "on:\n  - webhook: invoice\n    limit: 8\nsteps:\n  - text: \"${trigger.query.who} owes ${input.total} (${trigger.request.type})\"\n")
        let token = try await token("invoice")
        #expect(token.hasPrefix("relay_") && token.count > 40, "\(token)")
        try write("needy.yaml", "on:\n  - webhook: needy\nsteps:\n  - save-file: /tmp/relay-web-never/out.txt\n")
        let needyToken = try await self.token("needy")
        let (server, log) = try serve(["flows"])
        let port = try await port(from: log)
        let json = ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]
        let answer = await HTTPExchange.send("POST", "/hooks/invoice?who=Ann%20Lee", port: port, headers: json, body: "{\"total\": 12.5}")
        #expect(answer.status == 200 && answer.headers["content-type"] == "application/json", "\(answer)")
        #expect(answer.body == "\"Ann Lee owes 12.5 (application/json)\"\n", "\(answer)")
        let id = answer.headers["relay-run"]
        // Nothing else runs: no token, a wrong one, one in the URL, a body that is not what it says.
        let missing = await HTTPExchange.send("POST", "/hooks/invoice", port: port, headers: ["Content-Type": "application/json"], body: "{}")
        #expect(missing.status == 401 && missing.headers["www-authenticate"] == "Bearer", "\(missing)")
        let wrong = await HTTPExchange.send("POST", "/hooks/invoice", port: port, headers: ["Authorization": "Bearer \(token)x"], body: "{}")
        #expect(wrong.status == 401, "\(wrong)")
        let inURL = await HTTPExchange.send("POST", "/hooks/invoice?token=\(token)", port: port)
        #expect(inURL.status == 400 && inURL.body.contains("Authorization header"), "\(inURL)")
        let sneaked = await HTTPExchange.send("POST", "/hooks/invoice?t=\(token)", port: port)
        #expect(sneaked.status == 400, "\(sneaked)")
        let broken = await HTTPExchange.send("POST", "/hooks/invoice", port: port, headers: json, body: "{\"total\": ")
        #expect(broken.status == 400 && broken.body.contains("not JSON"), "\(broken)")
        let unknown = await HTTPExchange.send("POST", "/hooks/invoices", port: port, headers: json, body: "{}")
        #expect(unknown.status == 404, "\(unknown)")
        // A workflow that needs grants it was not given is not run; its caller is told why.
        let needy = await HTTPExchange.send("POST", "/hooks/needy", port: port, headers: ["Authorization": "Bearer \(needyToken)"])
        #expect(needy.status == 503 && needy.body.contains("write /tmp/relay-web-never/out.txt"), "\(needy)")
        // A body over 16 MiB, said so by its length or found so as it comes.
        let said = await HTTPExchange.raw(
            Data("POST /hooks/invoice HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nContent-Length: \(WebServer.largestBody + 1)\r\n\r\n".utf8), port: port)
        #expect(said.status == 413, "\(said)")
        let chunked = await HTTPExchange.raw(
            Data("POST /hooks/invoice HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nTransfer-Encoding: chunked\r\n\r\n\(String(WebServer.largestBody + 1, radix: 16))\r\n".utf8)
                + Data(count: WebServer.largestBody + 1) + Data("\r\n0\r\n\r\n".utf8), port: port)
        #expect(chunked.status == 413, "\(chunked)")
        let kept = try await runs()
        #expect(kept.count == 1 && (kept.first?["trigger"] as? String) == "webhook" && (kept.first?["id"] as? Int).map(String.init) == id, "\(kept)")
        // More than `limit:` calls a minute: 429, with when to try again.
        var statuses: [Int] = []
        for _ in 0..<8 { statuses.append(await HTTPExchange.send("POST", "/hooks/invoice?who=x", port: port, headers: json, body: "{}").status) }
        let limited = statuses.firstIndex(of: 429)
        #expect(limited != nil && statuses[..<(limited ?? 0)].allSatisfy { $0 == 200 }, "\(statuses)")
        await stop(server)
        let logged = try String(contentsOf: log, encoding: .utf8)
        #expect(logged.contains("refused a token in the URL") && !logged.contains(token), "\(logged)")
    }

    @Test("a webhook's body is its input: text as text, a form as a dictionary, anything else as a file; a run longer than 'wait:' is answered 202 with its ID")
    func webhookBodies() async throws {
        try write("text.yaml", "on:\n  - webhook: text\nsteps:\n  - text: \"text: ${input}\"\n")
        try write("form.yaml", "on:\n  - webhook: form\nsteps:\n  - text: \"${input.a} and ${input.b}\"\n")
        try write("file.yaml", "on:\n  - webhook: file\ninput: file\nsteps:\n  - text: \"file ${input.extension} ${input.size}\"\n")
        try write("slow.yaml", "on:\n  - webhook: slow\n    wait: 0.2\nsteps:\n  - wait: 1\n  - text: done\n")
        let text = try await token("text"), form = try await token("form"), file = try await token("file"), slow = try await token("slow")
        let (server, log) = try serve(["flows"])
        let port = try await port(from: log)
        let said = await HTTPExchange.send(
            "POST", "/hooks/text", port: port, headers: ["Authorization": "Bearer \(text)", "Content-Type": "text/plain; charset=utf-8"], body: "héllo")
        #expect(said.status == 200 && said.body == "\"text: héllo\"\n", "\(said)")
        let filled = await HTTPExchange.send(
            "POST", "/hooks/form", port: port, headers: ["Authorization": "Bearer \(form)", "Content-Type": "application/x-www-form-urlencoded"],
            body: "a=1&b=x+y%21")
        #expect(filled.status == 200 && filled.body == "\"1 and x y!\"\n", "\(filled)")
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: "/tmp").filter { $0.hasPrefix("relay-hook-") })
        let pdf = await HTTPExchange.send(
            "POST", "/hooks/file", port: port, headers: ["Authorization": "Bearer \(file)", "Content-Type": "application/pdf"], body: "%PDF-1.4 x")
        #expect(pdf.status == 200 && pdf.body == "\"file pdf 10\"\n", "\(pdf)")
        let notText = await HTTPExchange.send(
            "POST", "/hooks/text", port: port, headers: ["Authorization": "Bearer \(text)", "Content-Type": "text/plain"], body: Data([0xff, 0xfe, 0x41]))
        #expect(notText.status == 400, "\(notText)")
        // The file given is gone once the run is over.
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: "/tmp").filter { $0.hasPrefix("relay-hook-") })
        #expect(after.subtracting(before).isEmpty, "\(after.subtracting(before))")
        let accepted = await HTTPExchange.send("POST", "/hooks/slow", port: port, headers: ["Authorization": "Bearer \(slow)"])
        #expect(accepted.status == 202, "\(accepted)")
        let id = accepted.body.split(separator: "\"run\": ").last.map { Int($0.prefix { $0.isNumber }) } ?? nil
        #expect(id != nil && accepted.headers["location"] == "/runs/\(id ?? 0)", "\(accepted)")
        let kept = try await waitForRuns { runs in runs.contains { ($0["id"] as? Int) == id && ($0["status"] as? String) == "succeeded" } }
        #expect(kept.count == 4, "\(kept)")
        await stop(server)
    }

    @Test("an acknowledged webhook call waiting its turn is in the history as queued; the server killed, it is marked interrupted")
    func queuedSurvivesAKill() async throws {
        try write("one.yaml", "on:\n  - webhook: one\n    wait: 0\nsteps:\n  - wait: 300\n")
        let one = try await token("one")
        let (server, log) = try serve(["flows"])
        let port = try await port(from: log)
        let first = await HTTPExchange.send("POST", "/hooks/one", port: port, headers: ["Authorization": "Bearer \(one)"])
        let second = await HTTPExchange.send("POST", "/hooks/one", port: port, headers: ["Authorization": "Bearer \(one)"])
        #expect(first.status == 202 && second.status == 202 && second.body.contains("\"queued\""), "\(first) \(second)")
        let waiting = try await runs()
        #expect(waiting.map { $0["status"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") } == ["queued", "running"], "\(waiting)")
        kill(server.processIdentifier, SIGKILL)
        await RelayProcess.waitForExit(server)
        let after = try await runs()
        #expect(after.count == 2 && after.allSatisfy { ($0["status"] as? String) == "interrupted" }, "\(after)")
    }

    @Test("two workflows on one webhook name: the second is refused at the name, located")
    func oneNameOneWorkflow() async throws {
        try write("a.yaml", "on:\n  - webhook: same\nsteps:\n  - text: a\n")
        try write("b.yaml", "on:\n  - webhook: same\nsteps:\n  - text: b\n")
        let checked = try await RelayProcess.running(["serve", "--check", "flows"], in: folder, environment: environment)
        #expect(checked.status == 2, "\(checked.standardOutput)")
        #expect(checked.standardOutput.contains("b.yaml:2:14: error: webhook 'same' is served by \(folder.path)/flows/a.yaml already"), "\(checked.standardOutput)")
        #expect(checked.standardOutput.contains("webhook /hooks/same — no token yet: make one with 'relay serve token same'"), "\(checked.standardOutput)")
        _ = try await token("same")
        let again = try await RelayProcess.running(["serve", "--check", "flows/a.yaml"], in: folder, environment: environment)
        #expect(again.status == 0 && again.standardOutput.contains("  webhook /hooks/same\n"), "\(again.standardOutput)")
    }

    @Test("the page lists the served workflows, says why one is not run, and runs one with Run now; a form from elsewhere or another host name is refused")
    func page() async throws {
        try write("hello.yaml", "on:\n  - schedule: \"0 7 * * *\"\nsteps:\n  - text: \"hello <b>there</b>\"\n  - set: { zero: 0 }\n  - calculate: \"1 / ${zero}\"\n")
        try write("needy.yaml", "on:\n  - schedule: \"0 7 * * *\"\nsteps:\n  - save-file: /tmp/relay-web-never/out.txt\n")
        let (server, log) = try serve(["flows"])
        let port = try await port(from: log)
        let page = await HTTPExchange.send("GET", "/", port: port)
        #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8", "\(page)")
        #expect(page.body.contains("hello.yaml") && page.body.contains("next 20"), "\(page.body)")
        #expect(page.body.contains("needs grants") && page.body.contains("write /tmp/relay-web-never/out.txt"), "\(page.body)")
        // Another site's name for this address (DNS rebinding) gets nothing.
        let rebound = await HTTPExchange.send("GET", "/", port: port, host: "attacker.example:\(port)")
        #expect(rebound.status == 421, "\(rebound)")
        // A form without this page's token runs nothing.
        let forged = await HTTPExchange.send(
            "POST", "/workflows/0/run", port: port, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "form=guess")
        #expect(forged.status == 403, "\(forged)")
        #expect(try await runs().isEmpty)
        let form = page.body.range(of: "name=\"form\" value=\"").map { String(page.body[$0.upperBound...].prefix { $0 != "\"" }) } ?? ""
        let pressed = await HTTPExchange.send(
            "POST", "/workflows/0/run", port: port, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "form=\(form)")
        #expect(pressed.status == 303 && pressed.headers["location"]?.hasPrefix("/runs/") == true, "\(pressed)")
        _ = try await waitForRuns { $0.count == 1 && ($0.first?["status"] as? String) == "failed" }
        let run = await HTTPExchange.send("GET", pressed.headers["location"] ?? "/", port: port)
        #expect(run.status == 200 && run.body.contains("started by</dt><dd>page (relay serve)"), "\(run.body)")
        #expect(run.body.contains("hello &lt;b&gt;there&lt;/b&gt;") && !run.body.contains("<b>there"), "\(run.body)")
        #expect(run.body.contains("<li class=\"step failed\"><div class=\"head\"><span class=\"name\">calculate</span>"), "\(run.body)")
        // The list of runs, filtered.
        let failed = await HTTPExchange.send("GET", "/?status=failed&trigger=page", port: port)
        #expect(failed.body.contains("<tr class=\"failed\">"), "\(failed.body)")
        let none = await HTTPExchange.send("GET", "/?status=succeeded", port: port)
        #expect(none.body.contains("No runs match"), "\(none.body)")
        await stop(server)
    }

    /// Runs `steps` in a real headless Chromium (Tests/Browser/drive.py): what each `eval` step
    /// gave, in order; nil when no browser can start here (said so).
    private func browse(_ steps: [[String]]) async throws -> [Any]? {
        let script = RelayProcess.root.appendingPathComponent("Tests/Browser/drive.py").path
        let steps = String(decoding: try JSONSerialization.data(withJSONObject: steps), as: UTF8.self)
        let result = try await running("/usr/bin/env", ["python3", script, steps])
        let lines = result.1.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        if result.0 == 2 {
            print("skipped: the page test needs a headless Chromium (chromium-headless-shell, Scripts/install-dependencies): \(lines.first?["error"].map { "\($0)" } ?? result.1)")
            return nil
        }
        #expect(result.0 == 0, "\(result.1)")
        return lines.compactMap { $0["eval"] }
    }

    @Test("in a real browser: the page lists the workflows, a failed run's failing step is marked failed, and Run now runs the workflow")
    func inABrowser() async throws {
        try write("greet.yaml", "on:\n  - schedule: { every: 1d }\nsteps:\n  - text: hello\n")
        try write("broken.yaml", "on:\n  - schedule: { every: 1d }\nsteps:\n  - text: \"<script>alert(1)</script>\"\n  - set: { zero: 0 }\n  - calculate: \"1 / ${zero}\"\n")
        let (server, log) = try serve(["flows"])
        defer { kill(server.processIdentifier, SIGTERM) }
        let port = try await port(from: log)
        let base = "http://127.0.0.1:\(port)"
        guard
            let seen = try await browse([
                ["goto", base + "/"],
                ["eval", "[...document.querySelectorAll('.workflow .name')].map(e => e.firstChild.textContent.trim())"],
                ["click", "form[action='/workflows/0/run'] button"],
                ["eval", "location.pathname"],
                // The run's page loads itself again until the run is over.
                ["wait", "document.querySelector('h1 .status').textContent == 'failed'"],
                ["eval", "[...document.querySelectorAll('.step.failed .name')].map(e => e.textContent)"],
                ["eval", "document.querySelectorAll('script').length"],
                ["click", "nav a"],
                ["click", "form[action='/workflows/1/run'] button"],
                ["wait", "document.querySelector('h1 .status').textContent != 'running'"],
                ["eval", "document.querySelector('h1 .status').textContent"],
            ])
        else { return }
        #expect(seen.count == 5, "\(seen)")
        guard seen.count == 5 else { return }
        #expect((seen[0] as? [String]) == ["broken.yaml", "greet.yaml"], "\(seen)")
        #expect((seen[1] as? String)?.hasPrefix("/runs/") == true, "\(seen)")
        #expect((seen[2] as? [String]) == ["calculate"], "\(seen)")
        // What the workflow says is shown, never run.
        #expect((seen[3] as? Int) == 0, "\(seen)")
        #expect((seen[4] as? String) == "succeeded", "\(seen)")
        let kept = try await waitForRuns { $0.count == 2 && $0.allSatisfy { ($0["status"] as? String) != "running" } }
        #expect(kept.allSatisfy { ($0["trigger"] as? String) == "page" }, "\(kept)")
    }

    /// The server's resident memory, in bytes.
    private func resident(_ process: Process) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1_024
    }

    @Test("hostile callers: 1,000 connections holding half a request, a huge header, garbage; the server stays up, answers, and stays under 100 MB")
    func hostileCallers() async throws {
        try write("hello.yaml", "on:\n  - webhook: hello\nsteps:\n  - text: hello\n")
        let (server, log) = try serve(["flows"])
        defer { kill(server.processIdentifier, SIGTERM) }
        let port = try await port(from: log)
        // Slow callers: each sends the start of a request, and then nothing.
        var held: [Int32] = []
        defer { for socket in held { close(socket) } }
        for _ in 0..<1_000 {
            let socket = HTTPExchange.connect(port: port)
            guard socket >= 0 else { break }
            let start = "POST /hooks/hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
            _ = start.withCString { send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            held.append(socket)
        }
        #expect(held.count == 1_000)
        let page = await HTTPExchange.send("GET", "/", port: port)
        #expect(page.status == 200, "\(page.status)")
        // A header larger than the bounds, and bytes that are not HTTP.
        let huge = await HTTPExchange.send("GET", "/", port: port, headers: ["X-Huge": String(repeating: "a", count: 200_000)])
        #expect(huge.status == 400 || huge.status == 431 || !huge.answered, "\(huge.status)")
        let garbage = await HTTPExchange.raw(Data((0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }), port: port)
        #expect(garbage.status == 400 || !garbage.answered, "\(garbage.status)")
        let again = await HTTPExchange.send("GET", "/", port: port)
        #expect(again.status == 200, "\(again.status)")
        let memory = resident(server)
        #expect(memory > 0 && memory < 100 << 20, "\(memory) bytes resident")
        print("relay serve holding 1,000 connections: \(memory >> 20) MiB resident")
        #expect(server.isRunning)
    }

    @Test("listening beyond loopback needs --token-file, and then the page asks for the token: in the header, or once in its form, kept as a cookie")
    func pageToken() async throws {
        try write("hello.yaml", "on:\n  - schedule: \"0 7 * * *\"\nsteps:\n  - text: hello\n")
        // Loopback is an address, not a name that starts like one.
        #expect(["127.0.0.1", "127.1.2.3", "localhost", "::1"].allSatisfy(WebServer.isLoopback))
        #expect(!["127.attacker.example", "127.0.0.1.nip.io", "1270.0.0.1", "127.0.0.256", "0.0.0.0"].contains(where: WebServer.isLoopback))
        let named = try await RelayProcess.running(["serve", "flows", "--listen", "127.attacker.example", "--check"], in: folder, environment: environment)
        #expect(named.status == 2 && named.standardError.contains("--token-file"), "\(named.standardError)")
        let refused = try await RelayProcess.running(["serve", "flows", "--listen", "0.0.0.0", "--check"], in: folder, environment: environment)
        #expect((refused.status == 2 || refused.status == 64) && refused.standardError.contains("--token-file"), "\(refused.standardError)")
        let secret = "correct-horse-battery-staple"
        try (secret + "\n").write(to: folder.appendingPathComponent("page-token"), atomically: true, encoding: .utf8)
        let (server, log) = try serve(["flows", "--listen", "0.0.0.0", "--token-file", "page-token"])
        defer { kill(server.processIdentifier, SIGTERM) }
        let port = try await port(from: log, listening: "0.0.0.0")
        let bare = await HTTPExchange.send("GET", "/", port: port, host: "relay.example:\(port)")
        #expect(bare.status == 401 && bare.body.contains("name=\"token\""), "\(bare)")
        let wrong = await HTTPExchange.send("GET", "/", port: port, headers: ["Authorization": "Bearer \(secret)x"])
        #expect(wrong.status == 401, "\(wrong.status)")
        // Guessed call by call: after ten wrong tokens in a minute, only the right one opens it.
        var guessed: [Int] = []
        for guess in 0..<10 { guessed.append(await HTTPExchange.send("GET", "/", port: port, headers: ["Authorization": "Bearer guess\(guess)-abcdefghijkl"]).status) }
        #expect(guessed.last == 429 && guessed.dropLast().allSatisfy { $0 == 401 }, "\(guessed)")
        let header = await HTTPExchange.send("GET", "/", port: port, headers: ["Authorization": "Bearer \(secret)"], host: "relay.example:\(port)")
        #expect(header.status == 200 && header.body.contains("hello.yaml"), "\(header.status)")
        let login = await HTTPExchange.send(
            "POST", "/login", port: port, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "token=\(secret)")
        let cookie = login.headers["set-cookie"] ?? ""
        #expect(login.status == 303 && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(login)")
        let withCookie = await HTTPExchange.send("GET", "/", port: port, headers: ["Cookie": String(cookie.prefix { $0 != ";" })])
        #expect(withCookie.status == 200, "\(withCookie.status)")
        // The token is not in the log, nor in the unit that runs the server.
        #expect(!(try String(contentsOf: log, encoding: .utf8)).contains(secret))
    }

    @Test("the examples in workflows/ for a webhook and a watched folder do what their descriptions say, served")
    func examples() async throws {
        for name in ["order-received.yaml", "inbox-word-count.yaml"] {
            try FileManager.default.copyItem(
                at: RelayProcess.root.appendingPathComponent("workflows/\(name)"), to: folder.appendingPathComponent("flows/\(name)"))
        }
        let inbox = folder.appendingPathComponent("flows/data/inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let order = try await token("order")
        let (server, log) = try serve(["flows"])
        defer { kill(server.processIdentifier, SIGTERM) }
        let port = try await port(from: log)
        try await waitFor("serving 2 workflows", in: log)
        let answer = await HTTPExchange.send(
            "POST", "/hooks/order", port: port, headers: ["Authorization": "Bearer \(order)", "Content-Type": "application/json"],
            body: "{\"id\": 7, \"customer\": \"Ann\", \"quantity\": 3, \"price\": 2.5}")
        #expect(answer.status == 200 && answer.body == "\"order 7 for Ann: 7.5\"\n", "\(answer)")
        try "one two three".write(to: inbox.appendingPathComponent("memo.txt"), atomically: true, encoding: .utf8)
        _ = try await waitForRuns { $0.count == 2 && $0.allSatisfy { ($0["status"] as? String) == "succeeded" } }
        let shown = try await RelayProcess.running(["runs", "show", "last"], in: folder, environment: environment)
        #expect(shown.standardOutput.contains("memo.txt: 3 words"), "\(shown.standardOutput)")
    }

    @Test("another user of this machine is refused the page and Run now; webhooks still answer their tokens")
    func otherUsers() async throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            print("skipped: the test of another user needs root and setpriv (util-linux) to be that user")
            return
        }
        try write("hello.yaml", "on:\n  - webhook: hello\nsteps:\n  - text: hello\n")
        let hello = try await token("hello")
        let (server, log) = try serve(["flows"])
        defer { kill(server.processIdentifier, SIGTERM) }
        let port = try await port(from: log)
        // As nobody: the page, a run's page, Run now; then the webhook with its token.
        let script = """
            import urllib.request, urllib.error, sys
            def status(path, method="GET", headers={}, data=None):
                try:
                    return urllib.request.urlopen(urllib.request.Request("http://127.0.0.1:\(port)" + path, method=method, headers=headers, data=data)).status
                except urllib.error.HTTPError as e:
                    return e.code
            print(status("/"), status("/runs/1"), status("/workflows/0/run", "POST", data=b"form=x"),
                  status("/hooks/hello", "POST", {"Authorization": "Bearer \(hello)"}))
            """
        let result = try await running("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script]).output
        #expect(result == "403 403 403 200\n", "\(result)")
        // This user still has it.
        let own = await HTTPExchange.send("GET", "/", port: port)
        #expect(own.status == 200, "\(own.status)")
    }

    @Test("bounds on what callers hold: parallel runs of one workflow at most 16 at once, bodies waiting in memory at most 32 MiB, and a run that reads a secret never says how it ended")
    func callerBounds() async throws {
        try write("many.yaml", "on:\n  - webhook: many\n    wait: 0\n    limit: 1000\n    concurrency: parallel\nsteps:\n  - wait: 300\n")
        try write("big.yaml", "on:\n  - webhook: big\n    wait: 0\nsteps:\n  - wait: 300\n")
        try write(
            "oracle.yaml",
            "secrets: [PIN]\non:\n  - webhook: oracle\n    wait: 10\nsteps:\n  - if: \"${secrets.PIN} contains ${input}\"\n    then:\n      - calculate: \"1 / ${zero}\"\n    else:\n      - text: no\nvariables: { zero: 0 }\n")
        let many = try await token("many"), big = try await token("big"), oracle = try await token("oracle")
        var environment = self.environment
        environment["PIN"] = "4711"
        let (server, log) = try serve(["flows"], environment: environment)
        defer { kill(server.processIdentifier, SIGTERM) }
        let port = try await port(from: log)
        for _ in 0..<20 { _ = await HTTPExchange.send("POST", "/hooks/many", port: port, headers: ["Authorization": "Bearer \(many)"]) }
        let kept = try await waitForRuns { $0.filter { ($0["status"] as? String) == "running" }.count >= 16 }
        let statuses = kept.compactMap { $0["status"] as? String }
        #expect(statuses.filter { $0 == "running" }.count == 16 && statuses.filter { $0 == "queued" }.count == 4, "\(statuses)")
        // Two bodies of 15 MiB wait; a third would pass the bound.
        let text = ["Authorization": "Bearer \(big)", "Content-Type": "text/plain"]
        let body = String(repeating: "a", count: 15 << 20)
        let first = await HTTPExchange.send("POST", "/hooks/big", port: port, headers: text, body: body)
        let second = await HTTPExchange.send("POST", "/hooks/big", port: port, headers: text, body: body)
        let third = await HTTPExchange.send("POST", "/hooks/big", port: port, headers: text, body: body)
        #expect(first.status == 202 && second.status == 202 && third.status == 503, "\(first.status) \(second.status) \(third.status)")
        // Whether the secret holds what is sent is not told: every call is 202 alike.
        let yes = await HTTPExchange.send("POST", "/hooks/oracle", port: port, headers: ["Authorization": "Bearer \(oracle)", "Content-Type": "text/plain"], body: "47")
        let no = await HTTPExchange.send("POST", "/hooks/oracle", port: port, headers: ["Authorization": "Bearer \(oracle)", "Content-Type": "text/plain"], body: "99")
        #expect(yes.status == 202 && no.status == 202 && !yes.body.contains("fail") && yes.headers["relay-run"] == nil, "\(yes) \(no)")
    }

    @Test("a workflow file added to a served folder is served from then on; the page offers Run now only to what needs no input; runs started there are listed by --trigger page")
    func addedWhileServing() async throws {
        try write("tick.yaml", "on:\n  - schedule: \"0 7 * * *\"\nsteps:\n  - text: tick\n")
        let (server, log) = try serve(["flows"])
        defer { kill(server.processIdentifier, SIGTERM) }
        let port = try await port(from: log)
        try await waitFor("serving 1 workflow", in: log)
        let token = try await token("late")
        try write("late.yaml", "on:\n  - webhook: late\nsteps:\n  - text: late\n")
        try await waitFor("late.yaml is new: read, 1 trigger armed", in: log)
        let answer = await HTTPExchange.send("POST", "/hooks/late", port: port, headers: ["Authorization": "Bearer \(token)"])
        #expect(answer.status == 200 && answer.body == "\"late\"\n", "\(answer)")
        let wrong = await HTTPExchange.send("POST", "/hooks/late", port: port, headers: ["Authorization": "Bearer relay_not-it"])
        #expect(wrong.status == 401 && wrong.body.contains("the token is not this webhook's"), "\(wrong)")
        let page = await HTTPExchange.send("GET", "/", port: port)
        #expect(page.body.contains("late.yaml") && page.body.contains("Run now is not offered"), "\(page.body)")
        #expect(page.body.components(separatedBy: "<button type=\"submit\">Run now</button>").count == 2, "\(page.body)")
        let refused = await HTTPExchange.send(
            "POST", "/workflows/1/run", port: port, headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: "form=\(page.body.range(of: "name=\"form\" value=\"").map { String(page.body[$0.upperBound...].prefix { $0 != "\"" }) } ?? "")")
        #expect(refused.status == 409, "\(refused.status)")
        let byPage = try await RelayProcess.running(["runs", "--trigger", "page"], in: folder, environment: environment)
        #expect(byPage.status == 0, "\(byPage.standardError)")
    }
}
