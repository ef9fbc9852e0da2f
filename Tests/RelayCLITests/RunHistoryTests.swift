import Foundation
import RelayKit
import Testing

@testable import RelayCLI

/// The run history: what `relay runs` lists, shows and runs again (Docs/Runs.md, "Run history").
@Suite("Run history")
struct RunHistoryTests {
    /// A fresh folder with its own state folder, and `workflow` as `w.yaml` in it.
    private func sandbox(_ workflow: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("home"), withIntermediateDirectories: true)
        try workflow.write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        return folder
    }

    private func environment(_ folder: URL, _ extra: [String: String] = [:]) -> [String: String] {
        ["HOME": folder.appendingPathComponent("home").path, "XDG_STATE_HOME": folder.appendingPathComponent("state").path]
            .merging(extra) { $1 }
    }

    private func relay(_ arguments: [String], in folder: URL, input: String = "", _ extra: [String: String] = [:]) async throws -> RelayProcess.Result {
        try await RelayProcess.running(arguments, in: folder, input: input, environment: environment(folder, extra))
    }

    /// The runs as `relay runs --json` gives them.
    private func runs(in folder: URL, _ options: [String] = []) async throws -> [[String: Any]] {
        let listed = try await relay(["runs", "--json"] + options, in: folder)
        #expect(listed.status == 0, "\(listed.standardError)")
        let parsed = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8))
        return parsed as? [[String: Any]] ?? []
    }

    @Test("looking for runs not over reads two small indexes, not the whole table, whatever the history's length")
    func unfinishedByIndex() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-history-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let history = try RunHistory(path: folder.appendingPathComponent(RunHistory.fileName).path)
        let plan = try history.plan(of: RunHistory.unfinished)
        let reads = plan.filter { $0.contains("runs") }
        #expect(reads.count == 2 && reads.allSatisfy { $0.contains("USING INDEX runs_running") || $0.contains("USING INDEX runs_queued") }, "\(plan)")
    }

    @Test("runs show --html draws the workflow as nested blocks, each marked by what happened to it, everything from the run escaped")
    func runAsPage() async throws {
        let folder = try sandbox(
            """
            steps:
              - list: [1, 0]
              - for-each: ${previous}
                do:
                  - if: ${item > 5}
                    then:
                      - text: never
                  - calculate: "10 / ${item}"
                    on-error:
                      - text: "<script>alert('x')</script>"
              - text: "not a number"
              - number: "${previous}"
            """)
        let run = try await relay(["run", "w.yaml"], in: folder)
        #expect(run.status == 1, "\(run.standardError)")
        let page = try await relay(["runs", "show", "last", "--html"], in: folder)
        #expect(page.status == 0, "\(page.standardError)")
        let html = page.standardOutput
        #expect(html.hasPrefix("<!doctype html>"))
        // The branch never taken, the step that failed and was handled, the one that ended the run.
        #expect(html.contains("<li class=\"step not-run\"><div class=\"head\"><span class=\"name\">text</span> <span class=\"place\">line 7</span>"), "\(html)")
        #expect(html.contains("<li class=\"step handled\"><div class=\"head\"><span class=\"name\">calculate</span> <span class=\"place\">line 8</span>"), "\(html)")
        #expect(html.contains("<li class=\"step failed\"><div class=\"head\"><span class=\"name\">number</span> <span class=\"place\">line 12</span>"), "\(html)")
        #expect(html.contains("<span class=\"label\">on-error</span>") && html.contains("<span class=\"label\">then</span>"), "\(html)")
        #expect(html.contains("2 runs"), "\(html)")
        // What came from the run is text on the page, never markup.
        #expect(!html.contains("<script"), "\(html)")
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), "\(html)")
        let both = try await relay(["runs", "show", "last", "--html", "--json"], in: folder)
        #expect(both.status == 2)
    }

    @Test("a failed run's failing step, its error and the error's place are shown; rerun gives the same output")
    func failedRunShownAndRerun() async throws {
        let folder = try sandbox(
            """
            input: text
            steps:
              - text: "got ${input} and ${n}"
                as: said
              - repeat: 3
                do:
                  - calculate: "${index} * 2"
              - show: "${said}"
              - calculate: "${n} / 0"
            """)
        let first = try await relay(["run", "w.yaml", "-", "--set", "n=7"], in: folder, input: "piped text")
        #expect(first.status == 1)
        let listed = try await runs(in: folder)
        try #require(listed.count == 1)
        let run = listed[0]
        #expect(run["status"] as? String == "failed")
        #expect(run["exitStatus"] as? Int == 1)
        #expect((run["workflow"] as? String)?.hasSuffix("/w.yaml") == true)
        let steps = run["steps"] as? [[String: Any]] ?? []
        // The loop is one record with its body's step counted three times, in the file's order.
        #expect(steps.map { $0["place"] as? String ?? "" } == ["w.yaml:3:5", "w.yaml:5:5", "w.yaml:7:9", "w.yaml:8:5", "w.yaml:9:5"])
        #expect(steps[2]["runs"] as? Int == 3)
        #expect(steps[0]["preview"] as? String == "got piped text and 7")
        #expect(steps[4]["status"] as? String == "failed")
        #expect(steps[4]["error"] as? String == "division by zero")
        let id = try #require(run["id"] as? Int)

        let shown = try await relay(["runs", "show", String(id)], in: folder)
        #expect(shown.status == 0, "\(shown.standardError)")
        #expect(shown.standardOutput.contains("w.yaml:9:5 calculate — failed"), "\(shown.standardOutput)")
        #expect(shown.standardOutput.contains("division by zero (at w.yaml:9:5)"))
        #expect(shown.standardOutput.contains("w.yaml:9:5: error: step 'calculate': division by zero"))
        #expect(shown.standardOutput.contains("w.yaml:7:9 calculate — succeeded (3 runs"))
        #expect(shown.standardOutput.contains("input: text, 10 bytes, from standard input"))

        let again = try await relay(["runs", "rerun", String(id)], in: folder)
        #expect(again.status == first.status)
        #expect(again.standardOutput == first.standardOutput)
        #expect(again.standardError == first.standardError)
        #expect(try await runs(in: folder).count == 2)
        // `last` names the newest run: the rerun just made, the same as the first.
        let last = try await relay(["runs", "show", "last"], in: folder)
        #expect(last.status == 0, "\(last.standardError)")
        #expect(last.standardOutput.hasPrefix("run \(id + 1): "), "\(last.standardOutput)")
        // With its steps, as a run named by its number has them.
        #expect(last.standardOutput.contains("w.yaml:"), "\(last.standardOutput)")
        let lastJSON = try await relay(["runs", "show", "last", "--json"], in: folder)
        #expect(lastJSON.standardOutput.contains("\"place\""), "\(lastJSON.standardOutput)")
        #expect(try await relay(["runs", "rerun", "last"], in: folder).standardOutput == first.standardOutput)

        // Once the file has changed, a rerun says so.
        try "input: text\nsteps:\n  - text: \"changed: ${input}, ${n}\"\n".write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let changed = try await relay(["runs", "rerun", String(id)], in: folder)
        #expect(changed.status == 0)
        #expect(changed.standardOutput == "changed: piped text, 7\n")
        #expect(changed.standardError.contains("has changed since run \(id)"), "\(changed.standardError)")
    }

    @Test("rerun gives the run's grants again only while every sub-workflow it ran is unchanged: a replaced helper is asked about")
    func rerunPinsSubWorkflows() async throws {
        let folder = try sandbox("steps:\n  - run-workflow: helper.yaml\n")
        let helper = folder.appendingPathComponent("helper.yaml")
        // Outside the workflow's folder, which a run may read freely.
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("relay-history-private-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let secret = elsewhere.appendingPathComponent("private.txt")
        try "private".write(to: secret, atomically: true, encoding: .utf8)
        try "steps:\n  - text: harmless\n  - save-file: { to: out.txt, overwrite: true }\n".write(to: helper, atomically: true, encoding: .utf8)
        let first = try await relay(["run", "w.yaml", "--allow-write=\(folder.path)", "--allow-read=\(elsewhere.path)"], in: folder)
        #expect(first.status == 0, "\(first.standardError)")
        // Unchanged: the run's flags are given again.
        let same = try await relay(["runs", "rerun", "last"], in: folder)
        #expect(same.status == 0 && !same.standardError.contains("not given again"), "\(same.standardError)")
        // The helper swapped for one that reads what the first run was allowed to read.
        try "steps:\n  - read-file: \(secret.path)\n  - get-text\n".write(to: helper, atomically: true, encoding: .utf8)
        let swapped = try await relay(["runs", "rerun", "last"], in: folder)
        #expect(swapped.status == 4, "\(swapped.standardError)")
        #expect(swapped.standardError.contains("note: the workflow \(helper.path), which run"), "\(swapped.standardError)")
        #expect(swapped.standardError.contains("has changed since; the run's --allow flags are not given again"))
        #expect(!swapped.standardOutput.contains("private"))
    }

    @Test("rerun withdraws the run's flags when it comes to a sub-workflow the run did not execute")
    func rerunWithdrawsForUnexecuted() async throws {
        // The helper runs only when flag.txt says so; the first run does not run it.
        let folder = try sandbox(
            "steps:\n  - read-file: flag.txt\n  - get-text\n  - if: ${previous == 'go'}\n    then:\n      - run-workflow: helper.yaml\n  - text: done\n")
        let flag = folder.appendingPathComponent("flag.txt")
        try "stay".write(to: flag, atomically: true, encoding: .utf8)
        let helper = folder.appendingPathComponent("helper.yaml")
        try "steps:\n  - text: harmless\n".write(to: helper, atomically: true, encoding: .utf8)
        // Outside the workflow's folder, which a run may read freely.
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("relay-history-private-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let secret = elsewhere.appendingPathComponent("private.txt")
        try "private".write(to: secret, atomically: true, encoding: .utf8)
        let first = try await relay(["run", "w.yaml", "--allow-read=\(elsewhere.path)"], in: folder)
        #expect(first.status == 0 && first.standardOutput == "done\n", "\(first.standardError)")
        // The helper, never executed, is swapped for one that reads what the run was allowed to
        // read, and the flag now leads to it.
        try "steps:\n  - read-file: \(secret.path)\n  - get-text\n".write(to: helper, atomically: true, encoding: .utf8)
        try "go".write(to: flag, atomically: true, encoding: .utf8)
        let rerun = try await relay(["runs", "rerun", "last"], in: folder)
        #expect(rerun.status == 4, "\(rerun.standardError)")
        #expect(rerun.standardError.contains("note: the workflow \(helper.path), which run 1 did not execute, is about to run"), "\(rerun.standardError)")
        #expect(!rerun.standardOutput.contains("private"))
        // A rerun that executes only what the run did keeps its flags.
        try "stay".write(to: flag, atomically: true, encoding: .utf8)
        let same = try await relay(["runs", "rerun", "1"], in: folder)
        #expect(same.status == 0 && same.standardOutput == "done\n", "\(same.standardError)")
    }

    @Test("a run killed outright shows as interrupted, with the steps it got through, and the database stays readable")
    func killedRunIsInterrupted() async throws {
        let folder = try sandbox(
            """
            steps:
              - text: started
              - wait: 1.2
              - wait: 600
            """)
        // (The last wait is long enough that only the kill ends the run, however slowly a loaded
        // machine lets the steps be seen.)
        let process = try RelayProcess.start(running: "w.yaml", in: folder)
        // The second step's end saves the steps so far (at most a second apart).
        var saved = false
        for _ in 0..<200 where !saved {
            try await Task.sleep(for: .milliseconds(50))
            let listed = try await relay(["runs", "show", "1", "--json"], in: folder, ["HOME": folder.appendingPathComponent("home").path, "XDG_STATE_HOME": ""])
            saved = listed.standardOutput.contains("\"name\": \"wait\"")
        }
        #expect(saved)
        kill(process.processIdentifier, SIGKILL)
        await RelayProcess.waitForExit(process)
        let state = ["HOME": folder.appendingPathComponent("home").path, "XDG_STATE_HOME": ""]
        let listed = try await relay(["runs"], in: folder, state)
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(listed.standardOutput.contains("interrupted"), "\(listed.standardOutput)")
        let shown = try await relay(["runs", "show", "1"], in: folder, state)
        #expect(shown.standardOutput.contains("— interrupted"), "\(shown.standardOutput)")
        #expect(shown.standardOutput.contains("w.yaml:3:5 wait — succeeded"), "\(shown.standardOutput)")
        // The next run is recorded beside it.
        try "steps:\n  - text: after\n".write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let after = try await relay(["run", "w.yaml"], in: folder, state)
        #expect(after.status == 0 && after.standardError.isEmpty, "\(after.standardError)")
        let interrupted = try await relay(["runs", "--status", "interrupted"], in: folder, state)
        #expect(interrupted.standardOutput.split(separator: "\n").count == 2, "\(interrupted.standardOutput)")
    }

    @Test("runs at once are each recorded, without a warning; an unknown ID is an error")
    func runsAtOnce() async throws {
        let folder = try sandbox("steps:\n  - repeat: 200\n    do:\n      - calculate: \"${index} * 2\"\n  - text: done\n")
        let results = try await withThrowingTaskGroup(of: RelayProcess.Result.self) { group in
            for _ in 0..<6 { group.addTask { try await self.relay(["run", "w.yaml"], in: folder) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for result in results {
            #expect(result.status == 0 && result.standardOutput == "done\n")
            #expect(result.standardError.isEmpty, "\(result.standardError)")
        }
        let kept = try await runs(in: folder)
        #expect(kept.count == 6)
        #expect(kept.allSatisfy { $0["status"] as? String == "succeeded" })
        let unknown = try await relay(["runs", "show", "99"], in: folder)
        #expect(unknown.status == 1)
        #expect(unknown.standardError.contains("there is no run 99"), "\(unknown.standardError)")
    }

    @Test("retention keeps the newest runs of each workflow")
    func retentionDropsTheOldest() async throws {
        let folder = try sandbox("steps:\n  - text: hi\n")
        try "steps:\n  - text: other\n".write(to: folder.appendingPathComponent("other.yaml"), atomically: true, encoding: .utf8)
        _ = try await relay(["run", "other.yaml"], in: folder)
        for _ in 0..<5 { _ = try await relay(["run", "w.yaml"], in: folder, ["RELAY_HISTORY_RUNS": "3"]) }
        let kept = try await runs(in: folder)
        let ids = kept.compactMap { $0["id"] as? Int }
        // w.yaml's newest three (ids 4, 5, 6), and other.yaml's one run, which a run of w.yaml does not prune.
        #expect(ids == [6, 5, 4, 1], "\(ids)")
        let onlyW = try await runs(in: folder, ["--workflow", "w.yaml"])
        #expect(onlyW.count == 3)
        let bad = try await relay(["run", "w.yaml"], in: folder, ["RELAY_HISTORY_RUNS": "lots"])
        #expect(bad.status == 0)
        #expect(bad.standardError.contains("$RELAY_HISTORY_RUNS takes a whole number"), "\(bad.standardError)")
    }

    @Test("--no-history and a dry run leave nothing; a filter by status names the statuses")
    func noHistory() async throws {
        let folder = try sandbox("steps:\n  - text: hi\n")
        let run = try await relay(["run", "--no-history", "w.yaml"], in: folder)
        #expect(run.status == 0)
        _ = try await relay(["run", "--dry-run", "w.yaml"], in: folder)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("state/relay/history.sqlite").path))
        let status = try await relay(["runs", "--status", "faild"], in: folder)
        #expect(status.status == 2)
        #expect(status.standardError.contains("did you mean 'failed'?"), "\(status.standardError)")
        let since = try await relay(["runs", "--since", "a while"], in: folder)
        #expect(since.status == 2)
    }

    @Test("a damaged or unwritable history is a warning, and the run still runs")
    func damagedHistory() async throws {
        let folder = try sandbox("steps:\n  - text: hi\n")
        let state = folder.appendingPathComponent("state/relay")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try Data(repeating: 0x41, count: 8192).write(to: state.appendingPathComponent("history.sqlite"))
        let damaged = try await relay(["run", "w.yaml"], in: folder)
        #expect(damaged.status == 0)
        #expect(damaged.standardOutput == "hi\n")
        #expect(damaged.standardError.contains("warning: the run history:"), "\(damaged.standardError)")
        #expect(damaged.standardError.contains("this run is not recorded"))

        let locked = try sandbox("steps:\n  - text: hi\n")
        try FileManager.default.createDirectory(at: locked.appendingPathComponent("state"), withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: locked.appendingPathComponent("state").path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: locked.appendingPathComponent("state").path) }
        let unwritable = try await relay(["run", "w.yaml"], in: locked)
        #expect(unwritable.status == 0)
        #expect(unwritable.standardOutput == "hi\n")
        // Root may write anywhere; the warning is there only where the folder is really unwritable.
        if getuid() != 0 { #expect(unwritable.standardError.contains("warning:"), "\(unwritable.standardError)") }
    }

    @Test("a step with retry: has its attempts in the history; the grants used are kept")
    func attemptsAndGrants() async throws {
        let base = await LocalHTTPServer.base()
        let key = UUID().uuidString
        let folder = try sandbox(
            """
            steps:
              - get-contents-of-url: { url: "\(base)/flaky/\(key)/2" }
                retry: { times: 3, delay: 0.05 }
            """)
        let run = try await relay(["run", "w.yaml", "--allow-net=127.0.0.1"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        let listed = try await runs(in: folder)
        let step = try #require((listed.first?["steps"] as? [[String: Any]])?.first)
        #expect(step["attempts"] as? Int == 3)
        #expect(step["runs"] as? Int == 1)
        #expect(listed.first?["grants"] as? [String] == ["net 127.0.0.1"])
    }
}
