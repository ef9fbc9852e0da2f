import Foundation
import RelayKit
import Testing

@testable import RelayLanguage

/// `on:` — what starts a run under `relay serve` — and the cron schedules it takes.
@Suite("Triggers and schedules")
struct TriggerTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-triggers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: folder.appendingPathComponent("notes.txt"))
    }

    private func parsed(_ on: String) -> (workflow: Workflow?, diagnostics: [Diagnostic]) {
        WorkflowParser.parse(SourceFile(path: folder.appendingPathComponent("w.yaml").path, text: "on:\n\(on)\nsteps:\n  - text: hi\n"))
    }

    @Test("a schedule, a folder to watch and a webhook, with their options")
    func valid() throws {
        let (workflow, diagnostics) = parsed(
            """
              - schedule: "30 7 * * 1-5"
                catch-up: true
              - schedule: { every: 10m }
                concurrency: skip
              - schedule: "@daily"
              - watch: inbox
                glob: "*.pdf"
                events: [created, changed]
              - webhook: invoice
                wait: 2
                limit: 5
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.summary))")
        let triggers = try #require(workflow?.triggers)
        #expect(triggers.map(\.word) == ["schedule", "schedule", "schedule", "watch", "webhook"])
        #expect(triggers[0].catchUp && triggers[1].concurrency == .skip && triggers[2].concurrency == .queue)
        guard case .schedule(.every(let seconds)) = triggers[1].kind else { Issue.record("not every"); return }
        #expect(seconds == 600)
        guard case .watch(let watch) = triggers[3].kind else { Issue.record("not a watch"); return }
        #expect(watch.path == folder.appendingPathComponent("inbox").standardizedFileURL.path)
        #expect(watch.glob == "*.pdf" && watch.events == [.created, .changed])
        guard case .webhook(let hook) = triggers[4].kind else { Issue.record("not a webhook"); return }
        #expect(hook.name.text == "invoice" && hook.wait == 2 && hook.limit == 5)
    }

    @Test("bad triggers are located errors, with a did-you-mean where one fits", arguments: [
        ("  - schedule: \"61 * * * *\"", "2:15: schedule '61 * * * *': minute 61 is out of range: it goes from 0 to 59"),
        ("  - schedule: \"0 7 * *\"", "2:15: schedule '0 7 * *': a schedule has five fields"),
        ("  - schedule: \"0 0 31 2 *\"", "2:15: the schedule '0 0 31 2 *' never comes"),
        ("  - schedule: \"@dayly\"", "did you mean '@daily'"),
        ("  - schedule: { every: 0s }", "2:24: 'every' takes a time greater than 0"),
        ("  - schedule: { every: -5m }", "2:24: 'every' takes a time greater than 0"),
        ("  - schedule: { evry: 5m }", "did you mean 'every'"),
        ("  - schedule: { every: 5m, at: 5 }", "2:28: unknown key 'at' in a schedule"),
        ("  - every: 5m", "2:5: unknown key 'every' in a trigger"),
        ("  - watch: missing-folder", "2:12: 'watch': there is no folder 'missing-folder'"),
        ("  - watch: notes.txt", "'watch' takes a folder, and 'notes.txt' is a file; watch its folder with glob: \"notes.txt\""),
        ("  - webhook: \"../x\"", "2:14: a webhook's name is a word of letters, digits, '-' and '_'"),
        ("  - webhook: a\n    concurrency: skp", "3:18: 'concurrency' takes skip, queue, parallel, not 'skp'; did you mean 'skip'?"),
        ("  - webhook: a\n    glob: \"*.pdf\"", "3:5: 'glob' belongs to a watch trigger, not a webhook one"),
        ("  - webhook: a\n    schedule: \"@daily\"", "a trigger has one of schedule:, watch: or webhook:, not schedule and webhook"),
        ("  - watch: inbox\n    events: [create]", "did you mean 'created'"),
    ])
    func invalid(_ entry: String, _ expected: String) {
        let (_, diagnostics) = parsed(entry)
        #expect(diagnostics.contains { $0.summary.contains(expected) }, "\(diagnostics.map(\.summary))")
    }

    private static let berlin = TimeZone(identifier: "Europe/Berlin")!

    private static func instant(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    @Test("the next time of a schedule: weekdays, steps, names, the day of the month or of the week")
    func nextTimes() throws {
        let utc = TimeZone(identifier: "UTC")!
        // Friday 2026-11-27 08:00: the next weekday 7:30 is Monday's.
        #expect(try CronSchedule("30 7 * * 1-5").next(after: Self.instant("2026-11-27T08:00:00Z"), in: utc) == Self.instant("2026-11-30T07:30:00Z"))
        #expect(try CronSchedule("*/15 * * * *").next(after: Self.instant("2026-11-27T08:07:10Z"), in: utc) == Self.instant("2026-11-27T08:15:00Z"))
        #expect(try CronSchedule("0 9 * jan-mar mon").next(after: Self.instant("2026-11-27T08:00:00Z"), in: utc) == Self.instant("2027-01-04T09:00:00Z"))
        // Both days limited: either matches, as in every cron.
        #expect(try CronSchedule("0 0 1 * sun").next(after: Self.instant("2026-11-27T08:00:00Z"), in: utc) == Self.instant("2026-11-29T00:00:00Z"))
        #expect(try CronSchedule("0 0 29 2 *").next(after: Self.instant("2026-11-27T08:00:00Z"), in: utc) == Self.instant("2028-02-29T00:00:00Z"))
        #expect(try CronSchedule("@hourly").next(after: Self.instant("2026-11-27T08:00:00Z"), in: utc) == Self.instant("2026-11-27T09:00:00Z"))
    }

    @Test("a change of the clock neither skips nor doubles a run: a skipped time runs at the jump, a repeated one at its first")
    func clockChanges() throws {
        let daily = try CronSchedule("30 2 * * *")
        // Summer time starts in Berlin on 2026-03-29 at 02:00 (01:00 UTC): 02:30 does not happen.
        #expect(daily.next(after: Self.instant("2026-03-28T23:00:00Z"), in: Self.berlin) == Self.instant("2026-03-29T01:00:00Z"))
        #expect(daily.next(after: Self.instant("2026-03-29T01:00:00Z"), in: Self.berlin) == Self.instant("2026-03-30T00:30:00Z"))
        // It ends on 2026-10-25 at 03:00 (01:00 UTC): 02:30 happens twice, and runs at the first.
        #expect(daily.next(after: Self.instant("2026-10-24T23:00:00Z"), in: Self.berlin) == Self.instant("2026-10-25T00:30:00Z"))
        #expect(daily.next(after: Self.instant("2026-10-25T00:30:00Z"), in: Self.berlin) == Self.instant("2026-10-26T01:30:00Z"))
        // Every quarter of an hour through both changes: no wall time twice, none missed but the jump's.
        let quarter = try CronSchedule("*/15 * * * *")
        for (start, end) in [("2026-03-28T23:00:00Z", "2026-03-29T03:00:00Z"), ("2026-10-24T23:00:00Z", "2026-10-25T04:00:00Z")] {
            var times: [Date] = []
            var now = Self.instant(start)
            while let next = quarter.next(after: now, in: Self.berlin), next < Self.instant(end) {
                times.append(next)
                now = next
            }
            let walls = times.map { WallTime($0, in: Self.berlin) }
            #expect(Set(walls.map { "\($0.hour):\($0.minute)" }).count == walls.count, "\(walls)")
            #expect(zip(times, times.dropFirst()).allSatisfy { $1 > $0 })
        }
    }
}
