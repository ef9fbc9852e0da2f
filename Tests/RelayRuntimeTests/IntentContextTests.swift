import Foundation
import RelayKit
import RelayLanguage
import Synchronization
import Testing

@testable import RelayRuntime

/// Asks to archive or delete, with a cancel option.
struct Tidy: Intent {
    static let summary = "Archives or deletes."
    static let output = OutputType.text

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let choice = try await context.requestChoice(
            "What should happen to the trail?",
            between: [ChoiceOption("Archive", role: .default), ChoiceOption("Delete", role: .destructive), .cancel()])
        return .value(.text(choice.title.lowercased() + "d"))
    }
}

/// Needs a person: only runs in the foreground.
struct Interview: Intent {
    static let summary = "Asks a person."
    static let output = OutputType.nothing
    static let supportedModes: IntentModes = [.foreground]
    func perform(_ context: any IntentContext) async throws -> IntentResult { .nothing }
}

/// Reports progress in quarters.
struct Count: Intent {
    static let name = "count-to-four"
    static let summary = "Counts to four."
    static let output = OutputType.number

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        for step in 1...4 { await context.reportProgress(Double(step) / 4, "step \(step)") }
        await context.reportProgress(7, nil)
        return .value(.number(4))
    }
}

enum Chores: IntentPackage {
    static let name = "chores"
    static let intents: [any Intent.Type] = [Tidy.self, Interview.self, Count.self]
}

/// Records the progress reports.
final class ProgressLog: RunOutput, Sendable {
    private let reports = Mutex<[String]>([])
    var all: [String] { reports.withLock { $0 } }
    func show(_ value: Value) {}
    func trace(_ line: String) {}
    func progress(_ fraction: Double, label: String?, step: String) {
        reports.withLock { $0.append("\(step) \(fraction) \(label ?? "-")") }
    }
}

@Suite("What intents ask of the run: choices, modes, progress")
struct IntentContextTests {
    private static let choresRegistry = registry(with: [Chores.self])

    @Test("requestChoice returns the option picked; a cancel option ends the run as cancelled")
    func choices() async throws {
        let prompt = "What should happen to the trail?"
        let archive = try await run(steps: "- tidy", registry: Self.choresRegistry, interaction: ScriptedInteraction(answers: [prompt: "Archive"]))
        #expect(archive.textValue == "archived")
        let delete = try await run(steps: "- tidy", registry: Self.choresRegistry, interaction: ScriptedInteraction(answers: [prompt: "Delete"]))
        #expect(delete.textValue == "deleted")
        await #expect(throws: RunCancelled.self) {
            try await run(steps: "- tidy", registry: Self.choresRegistry, interaction: ScriptedInteraction(answers: [prompt: "Cancel"]))
        }
    }

    @Test("an intent that may need a person fails before the run starts without a terminal or answers, and runs with either")
    func modes() async throws {
        do {
            _ = try await run(steps: "- interview", registry: Self.choresRegistry)
            Issue.record("a background run performed a foreground-only intent")
        } catch let error as RuntimeError {
            #expect(error.message.contains("'interview' may need a person to answer it, and this run has no terminal"), "\(error.message)")
        }
        let interactive = ScriptedInteraction(mode: .interactive)
        #expect(try await run(steps: "- interview", registry: Self.choresRegistry, interaction: interactive) == .nothing)
        // Without a terminal, given answers, it runs.
        #expect(try await run(steps: "- interview", registry: Self.choresRegistry, interaction: ScriptedInteraction(assumeYes: true)) == .nothing)
    }

    @Test("progress reports reach the run's output, clamped to 0…1, with the step's name")
    func progress() async throws {
        let log = ProgressLog()
        _ = try await run(steps: "- count-to-four", registry: Self.choresRegistry, output: log)
        #expect(log.all == ["count-to-four 0.25 step 1", "count-to-four 0.5 step 2", "count-to-four 0.75 step 3", "count-to-four 1.0 step 4", "count-to-four 1.0 -"])
    }
}
