import Foundation
import Testing

@testable import RelayCLI

/// `relay serve`: workflows run by their triggers, through the one run pipeline, into the history.
@Suite("Serving workflows")
struct ServeTests: ServeFixture {
    let folder: URL

    init() throws { folder = try Self.freshFolder("relay-serve") }

    @Test("a schedule of every second runs its workflow again and again, each run kept with its trigger; SIGTERM ends the server with 143")
    func everySecond() async throws {
        try write("tick.yaml", "on:\n  - schedule: { every: 1s }\nsteps:\n  - show: shown\n  - text: \"tick ${trigger.kind}\"\n")
        try write("needs.yaml", "on:\n  - schedule: { every: 1s }\nsteps:\n  - save-file: /tmp/relay-serve-never/out.txt\n")
        let (server, log) = try serve(["flows"])
        let kept = try await waitForRuns { $0.filter { ($0["status"] as? String) == "succeeded" }.count >= 2 }
        kill(server.processIdentifier, SIGTERM)
        await RelayProcess.waitForExit(server)
        #expect(server.terminationStatus == 143)
        #expect(kept.allSatisfy { ($0["trigger"] as? String) == "schedule" }, "\(kept)")
        // The workflow that needs a grant it was not given never ran, and the log says why.
        #expect(kept.allSatisfy { ($0["workflow"] as? String)?.hasSuffix("tick.yaml") == true }, "\(kept)")
        let said = try String(contentsOf: log, encoding: .utf8)
        #expect(said.contains("needs.yaml needs grants, and is not served: write /tmp/relay-serve-never/out.txt"), "\(said)")
        #expect(said.contains("of \(folder.appendingPathComponent("flows/tick.yaml").path) (schedule): succeeded"), "\(said)")
        // What a served run shows is not printed: nobody watches it, and the history keeps it.
        #expect(try String(contentsOfFile: log.path + ".out", encoding: .utf8) == "")
        let shown = try await RelayProcess.running(["runs", "show", "last"], in: folder, environment: environment)
        #expect(shown.standardOutput.contains("started by: schedule (relay serve)"), "\(shown.standardOutput)")
        #expect(shown.standardOutput.contains("run by hand as: relay run ") && !shown.standardOutput.contains("command:"), "\(shown.standardOutput)")
        // Filtered by what started them: every run here, none by a watched folder.
        let scheduled = try await RelayProcess.running(["runs", "--trigger", "schedule", "--json"], in: folder, environment: environment)
        let watched = try await RelayProcess.running(["runs", "--trigger", "watch", "--json"], in: folder, environment: environment)
        #expect(scheduled.standardOutput.contains("\"trigger\": \"schedule\"") && watched.standardOutput == "[]\n", "\(scheduled.standardOutput)\(watched.standardOutput)")
        let misspelt = try await RelayProcess.running(["runs", "--trigger", "schedul"], in: folder, environment: environment)
        #expect(misspelt.status == 64 || misspelt.status == 2, "\(misspelt.status)")
        #expect(misspelt.standardError.contains("did you mean 'schedule'"), "\(misspelt.standardError)")
        #expect(shown.standardOutput.contains("→ text \"tick schedule\""), "\(shown.standardOutput)")
    }

    @Test("SIGTERM during a run: the run may finish for the grace period, then is stopped and kept as stopped; a firing while it runs is skipped")
    func stoppedRun() async throws {
        try write("slow.yaml", "on:\n  - schedule: { every: 1s }\n    concurrency: skip\nsteps:\n  - wait: 300\n")
        let (server, log) = try serve(["flows/slow.yaml", "--grace", "0.5"])
        _ = try await waitForRuns { $0.contains { ($0["status"] as? String) == "running" } }
        // Once a firing found the run under way.
        try await waitFor("skipped", in: log)
        kill(server.processIdentifier, SIGTERM)
        await RelayProcess.waitForExit(server)
        #expect(server.terminationStatus == 143)
        let kept = try await runs()
        #expect(kept.count == 1 && (kept.first?["status"] as? String) == "stopped", "\(kept)")
        let said = try String(contentsOf: log, encoding: .utf8)
        #expect(said.contains("schedule skipped: a run is under way (concurrency: skip)"), "\(said)")
        #expect(said.contains("stopping the runs still under way"), "\(said)")
    }

    @Test("a file copied into a watched folder runs its workflow once with the file as input; 50 at once make 50 runs, one at a time; what a run writes there starts nothing")
    func watchedFolder() async throws {
        let inbox = folder.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        // Each run writes a copy of its file beside it, in the watched folder, with a name the glob takes.
        try write(
            "inbox.yaml",
            "permissions: { write: [../inbox] }\non:\n  - watch: ../inbox\n    glob: \"*.txt\"\ninput: file\nsteps:\n"
                + "  - get-text\n  - save-file: \"../inbox/copy-${trigger.file.name}\"\n  - text: \"${trigger.event} ${trigger.file.name}\"\n")
        let granted = try await RelayProcess.running(["permissions", "flows/inbox.yaml", "--grant"], in: folder, environment: environment)
        #expect(granted.status == 0, "\(granted.standardError)")
        let (server, log) = try serve(["flows/inbox.yaml"])
        // Once it is watching.
        try await waitFor("serving 1 workflow", in: log)
        try "one".write(to: inbox.appendingPathComponent("first.txt"), atomically: false, encoding: .utf8)
        let first = try await waitForRuns { $0.count >= 1 && $0.allSatisfy { ($0["status"] as? String) != "running" } }
        #expect((first.first?["trigger"] as? String) == "watch", "\(first)")
        let shown = try await RelayProcess.running(["runs", "show", "last"], in: folder, environment: environment)
        #expect(shown.standardOutput.contains("→ text \"created first.txt\""), "\(shown.standardOutput)")
        #expect(try String(contentsOf: inbox.appendingPathComponent("copy-first.txt"), encoding: .utf8) == "one\n")
        for index in 1...50 {
            try "file \(index)".write(to: inbox.appendingPathComponent("burst-\(index).txt"), atomically: false, encoding: .utf8)
        }
        let all = try await waitForRuns { $0.count >= 51 && $0.allSatisfy { ($0["status"] as? String) != "running" } }
        // A moment for a copy's events, which must start nothing.
        try await Task.sleep(for: .milliseconds(500))
        kill(server.processIdentifier, SIGTERM)
        await RelayProcess.waitForExit(server)
        let kept = try await runs()
        let said = try String(contentsOf: log, encoding: .utf8)
        #expect(kept.count == 51, "\(kept.count) runs: \(said)")
        // Each run's line names its file.
        #expect(said.contains("(watch: \(inbox.appendingPathComponent("first.txt").path)): succeeded"), "\(said)")
        #expect(all.allSatisfy { ($0["status"] as? String) == "succeeded" }, "\(all)")
        for index in 1...50 { #expect(FileManager.default.fileExists(atPath: inbox.appendingPathComponent("copy-burst-\(index).txt").path)) }
        // One at a time (concurrency: queue): each run started after the one before ended.
        let history = try RunHistory(path: folder.appendingPathComponent("state/relay/history.sqlite").path)
        let spans = try history.runs(matching: RunHistory.Filter()).compactMap { run in run.ended.map { (run.started, $0) } }.sorted { $0.0 < $1.0 }
        #expect(spans.count == 51)
        #expect(zip(spans, spans.dropFirst()).allSatisfy { $1.0 >= $0.1 }, "\(spans)")
    }

    @Test("a link, a pipe or a name that is not UTF-8 moved into a watched folder starts nothing; a link put in the folder's place is not followed")
    func hostileWatchedFolder() async throws {
        let inbox = folder.appendingPathComponent("inbox")
        let outside = folder.appendingPathComponent("outside")
        for made in [inbox, outside] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        try "private".write(to: outside.appendingPathComponent("key.txt"), atomically: true, encoding: .utf8)
        try write("inbox.yaml", "on:\n  - watch: ../inbox\ninput: file\nsteps:\n  - get-text\n")
        let (server, log) = try serve(["flows/inbox.yaml"])
        try await waitFor("serving 1 workflow", in: log)
        // Made elsewhere and moved in: a link to a private file, a pipe, a name that is not UTF-8.
        let staging = folder.appendingPathComponent("staging")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: staging.appendingPathComponent("link.txt").path, withDestinationPath: outside.appendingPathComponent("key.txt").path)
        #expect(mkfifo(staging.appendingPathComponent("pipe.txt").path, 0o600) == 0)
        let odd = staging.path + "/odd\u{FF}.txt"
        let oddBytes = Array(staging.path.utf8) + Array("/odd".utf8) + [0xFF] + Array(".txt".utf8)
        _ = odd
        let descriptor = oddBytes.withUnsafeBufferPointer { buffer in
            (Array(buffer) + [0]).withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o600) }
        }
        #expect(descriptor >= 0)
        close(descriptor)
        for name in ["link.txt", "pipe.txt"] {
            #expect(rename(staging.appendingPathComponent(name).path, inbox.appendingPathComponent(name).path) == 0)
        }
        let target = Array(inbox.path.utf8) + Array("/odd".utf8) + [0xFF] + Array(".txt".utf8)
        let moved = (oddBytes + [0]).withUnsafeBufferPointer { from in
            (target + [0]).withUnsafeBufferPointer { to in
                rename(UnsafeRawPointer(from.baseAddress!).assumingMemoryBound(to: CChar.self), UnsafeRawPointer(to.baseAddress!).assumingMemoryBound(to: CChar.self))
            }
        }
        #expect(moved == 0)
        // Then a plain file, which runs: the ones before it were passed over, not queued ahead of it.
        try "plain".write(to: inbox.appendingPathComponent("plain.txt"), atomically: true, encoding: .utf8)
        let kept = try await waitForRuns { $0.count >= 1 && $0.allSatisfy { ($0["status"] as? String) != "running" } }
        let shown = try await RelayProcess.running(["runs", "show", "last"], in: folder, environment: environment)
        #expect(shown.standardOutput.contains("→ text \"plain\""), "\(shown.standardOutput)")
        // A name that holds a line break and what looks like a line of the log: shown, not believed.
        try "forged".write(to: inbox.appendingPathComponent("x\n2026-01-01T00:00:00Z run 999 of INJECTED.txt"), atomically: true, encoding: .utf8)
        _ = try await waitForRuns { $0.count >= 2 && $0.allSatisfy { ($0["status"] as? String) != "running" } }
        // The folder swapped for a link to another: not watched there.
        try FileManager.default.removeItem(at: inbox)
        try FileManager.default.createSymbolicLink(atPath: inbox.path, withDestinationPath: outside.path)
        try await waitFor("leads elsewhere now", in: log)
        try "new".write(to: outside.appendingPathComponent("new.txt"), atomically: true, encoding: .utf8)
        try await Task.sleep(for: .milliseconds(1_500))
        kill(server.processIdentifier, SIGTERM)
        await RelayProcess.waitForExit(server)
        #expect(server.terminationStatus == 143)
        let all = try await runs()
        #expect(all.count == 2 && kept.count == 1, "\(all)")
        let said = try String(contentsOf: log, encoding: .utf8)
        #expect(said.contains("link.txt is not a plain file") && said.contains("pipe.txt is not a plain file"), "\(said)")
        #expect(said.contains("leads elsewhere now"), "\(said)")
        #expect(!said.split(separator: "\n").contains { $0.hasPrefix("2026-01-01T00:00:00Z run 999") } && said.contains("INJECTED.txt"), "\(said)")
    }

    @Test("a watched folder removed while served is said so, and watched again once it is back")
    func folderComesBack() async throws {
        let inbox = folder.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try write("inbox.yaml", "on:\n  - watch: ../inbox\ninput: file\nsteps:\n  - get-text\n")
        let (server, log) = try serve(["flows/inbox.yaml"])
        try await waitFor("serving 1 workflow", in: log)
        try FileManager.default.removeItem(at: inbox)
        try await waitFor("is gone; it is watched again when it is back", in: log)
        // The page says so too, while it lasts.
        let port = try await port(from: log)
        let gone = await HTTPExchange.send("GET", "/", port: port)
        #expect(gone.body.contains("<p class=\"step-error trouble\">the watched folder \(inbox.path) is ") && gone.body.contains("it is watched again when it is back</p>"), "\(gone.body)")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try await waitFor("is back, and watched again", in: log)
        let back = await HTTPExchange.send("GET", "/", port: port)
        #expect(back.status == 200 && !back.body.contains("trouble"), "\(back.body)")
        try "again".write(to: inbox.appendingPathComponent("later.txt"), atomically: true, encoding: .utf8)
        let kept = try await waitForRuns { $0.count == 1 && ($0.first?["status"] as? String) == "succeeded" }
        kill(server.processIdentifier, SIGTERM)
        await RelayProcess.waitForExit(server)
        let said = try String(contentsOf: log, encoding: .utf8)
        #expect(kept.count == 1, "\(said)")
    }

    @Test("a watched workflow read again and again leaves no descriptors open behind it")
    func rereadsLeaveNothingOpen() async throws {
        let inbox = folder.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let flow = "on:\n  - watch: ../inbox\nsteps:\n  - text: VERSION\n"
        try write("inbox.yaml", flow.replacingOccurrences(of: "VERSION", with: "0"))
        let (server, log) = try serve(["flows/inbox.yaml"])
        let said = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        for _ in 0..<600 where !said().contains("serving 1 workflow") { try await Task.sleep(for: .milliseconds(100)) }
        let open = { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.processIdentifier)/fd").count) ?? 0 }
        let before = open()
        for version in 1...12 {
            try write("inbox.yaml", flow.replacingOccurrences(of: "VERSION", with: String(version)))
            for _ in 0..<600 where said().ranges(of: "changed: read again").count < version { try await Task.sleep(for: .milliseconds(50)) }
        }
        // A moment for the last watches' threads to end.
        try await Task.sleep(for: .milliseconds(500))
        let after = open()
        kill(server.processIdentifier, SIGTERM)
        await RelayProcess.waitForExit(server)
        #expect(after <= before + 2, "\(before) descriptors open, then \(after) after 12 readings")
    }

    @Test("a workflow that needs grants is armed within seconds of their being given, the server running")
    func grantedWhileServing() async throws {
        try write("needs.yaml", "permissions: { write: [../out] }\non:\n  - schedule: { every: 1s }\nsteps:\n  - text: hi\n  - save-file: ../out/hi.txt\n")
        let (server, log) = try serve(["flows/needs.yaml"])
        try await waitFor("needs grants", in: log)
        let granted = try await RelayProcess.running(["permissions", "flows/needs.yaml", "--grant"], in: folder, environment: environment)
        #expect(granted.status == 0, "\(granted.standardError)")
        let kept = try await waitForRuns { $0.contains { ($0["status"] as? String) == "succeeded" } }
        kill(server.processIdentifier, SIGTERM)
        await RelayProcess.waitForExit(server)
        let said = try String(contentsOf: log, encoding: .utf8)
        #expect(!kept.isEmpty && said.contains("has its grants now: 1 trigger armed"), "\(said)")
        #expect(said.contains("run 'relay permissions") && !said.contains("declare them"), "\(said)")
    }

    @Test("a served file that changes is read again: what it says now runs; one that no longer checks is disarmed, and the log says why")
    func rereads() async throws {
        let flow = "on:\n  - schedule: { every: 1s }\nsteps:\n  - text: VERSION\n"
        try write("flow.yaml", flow.replacingOccurrences(of: "VERSION", with: "first"))
        let (server, log) = try serve(["flows"])
        _ = try await waitForRuns { $0.contains { ($0["status"] as? String) == "succeeded" } }
        try write("flow.yaml", flow.replacingOccurrences(of: "VERSION", with: "second"))
        try await waitFor("changed: read again, 1 trigger armed", in: log)
        // A run of what it says now.
        var second = false
        for _ in 0..<600 where !second {
            let shown = try await RelayProcess.running(["runs", "show", "last"], in: folder, environment: environment)
            second = shown.standardOutput.contains("→ text \"second\"")
            if !second { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(second)
        try write("flow.yaml", "on:\n  - schedule: { every: 1s }\nsteps:\n  - chnage-case: upper\n")
        try await waitFor("no longer checks", in: log)
        let before = try await runs().count
        // Two firings' time: none comes while it does not check (one under way may end).
        try await Task.sleep(for: .milliseconds(2_500))
        let after = try await runs().count
        kill(server.processIdentifier, SIGTERM)
        await RelayProcess.waitForExit(server)
        #expect(after <= before + 1, "\(before) → \(after)")
        let said = try String(contentsOf: log, encoding: .utf8)
        #expect(said.contains("no longer checks: its triggers are disarmed until it does"), "\(said)")
        #expect(said.contains("unknown action 'chnage-case'"), "\(said)")
    }

    @Test("serve --check lists each workflow's triggers and next times, what it needs (exit 4), and what does not check (exit 2)")
    func check() async throws {
        try write("daily.yaml", "on:\n  - schedule: \"30 7 * * 1-5\"\nsteps:\n  - text: hi\n")
        try write("plain.yaml", "steps:\n  - text: hi\n")
        let good = try await RelayProcess.running(["serve", "--check", "flows"], in: folder, environment: environment)
        #expect(good.status == 0, "\(good.standardError)")
        #expect(good.standardOutput.contains("daily.yaml: served\n  schedule \"30 7 * * 1-5\" — next "), "\(good.standardOutput)")
        #expect(good.standardOutput.contains("plain.yaml: no triggers ('on:'), runs only when an assistant calls it at /mcp"), "\(good.standardOutput)")
        try write("needs.yaml", "on:\n  - schedule: \"@daily\"\nsteps:\n  - text: hi\n  - save-file: /tmp/relay-serve-never/x.txt\n")
        let needy = try await RelayProcess.running(["serve", "--check", "flows"], in: folder, environment: environment)
        #expect(needy.status == 4, "\(needy.standardOutput)")
        #expect(needy.standardOutput.contains("needs.yaml: needs grants, and does not run until it has them"), "\(needy.standardOutput)")
        try write("bad.yaml", "on:\n  - schedule: \"61 * * * *\"\nsteps:\n  - text: hi\n")
        let bad = try await RelayProcess.running(["serve", "--check", "flows"], in: folder, environment: environment)
        #expect(bad.status == 2)
        #expect(bad.standardOutput.contains("bad.yaml: does not check, and is not served"), "\(bad.standardOutput)")
        #expect(bad.standardOutput.contains("bad.yaml:2:15: error: schedule '61 * * * *': minute 61 is out of range"), "\(bad.standardOutput)")
        // Run by hand, a workflow that reads what started it is told why that is nothing.
        try write("byhand.yaml", "on:\n  - watch: .\nsteps:\n  - text: \"${trigger.file}\"\n")
        let byHand = try await RelayProcess.running(["run", "flows/byhand.yaml"], in: folder, environment: environment)
        #expect(byHand.status == 1 && byHand.standardError.contains("note: 'trigger' is nothing when a person runs the workflow"), "\(byHand.standardError)")
        try FileManager.default.removeItem(at: folder.appendingPathComponent("flows/byhand.yaml"))
        // The example in workflows/ is served as its comment says.
        let example = RelayProcess.root.appendingPathComponent("workflows/morning-note.yaml").path
        let shown = try await RelayProcess.running(["serve", "--check", example], in: folder, environment: environment)
        #expect(shown.status == 0, "\(shown.standardError)")
        #expect(shown.standardOutput.contains("morning-note.yaml: served\n  schedule \"30 7 * * 1-5\" — next "), "\(shown.standardOutput)")
        #expect(shown.standardOutput.contains("  schedule every 1 h — next "), "\(shown.standardOutput)")
        #expect(shown.standardOutput.contains("(concurrency: skip)"), "\(shown.standardOutput)")
        // A unit for systemd runs the same server, by absolute paths.
        let unit = try await RelayProcess.running(
            ["serve", "--print-unit", "flows", "--allow-net=example.com", "--allow-write=out", "--grace", "5"], in: folder, environment: environment)
        #expect(unit.status == 0, "\(unit.standardError)")
        #expect(
            unit.standardOutput.contains(
                "ExecStart=\(RelayProcess.executable.resolvingSymlinksInPath().path) serve \(folder.appendingPathComponent("flows").path) --allow-write=\(folder.appendingPathComponent("out").path) --allow-net=example.com --grace=5\n"),
            "\(unit.standardOutput)")
        #expect(unit.standardOutput.contains("Environment=XDG_STATE_HOME=\(folder.appendingPathComponent("state").path)\n"), "\(unit.standardOutput)")
        #expect(unit.standardOutput.contains("[Install]\nWantedBy=default.target"), "\(unit.standardOutput)")
        let missing = try await RelayProcess.running(["serve", "--check", "nowhere"], in: folder, environment: environment)
        #expect(missing.status == 2 && missing.standardError.contains("there is no file or folder 'nowhere' to serve"), "\(missing.standardError)")
    }
}

