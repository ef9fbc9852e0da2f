import Foundation
import RelayKit
import RelayEngine
import RelayLanguage
import RelayRuntime
import Testing

@testable import RelayCLI

/// The one run type every front end hands a run to, driven in process as a front end would:
/// it gives the file, the input, the grants and whether a terminal asks, and gets back the output
/// and the exit status.
@Suite("One run pipeline")
struct WorkflowRunTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-pipeline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// What a run wrote, in order.
    private final class Captured: RunConsole, @unchecked Sendable {
        private let lock = NSLock()
        private var written: [String] = []
        var outputs: [String] { lock.withLock { written.filter { $0.hasPrefix("out:") }.map { String($0.dropFirst(4)) } } }
        var errors: String { lock.withLock { written.filter { $0.hasPrefix("err:") }.map { String($0.dropFirst(4)) }.joined() } }
        func output(_ text: String) { lock.withLock { written.append("out:" + text) } }
        func error(_ text: String) { lock.withLock { written.append("err:" + text) } }
        func report(_ diagnostics: [Diagnostic], masking secrets: RunSecrets?) {
            error(DiagnosticRenderer().render(diagnostics))
        }
    }

    private func run(_ yaml: String, input: WorkflowRun.Input = .none, granted: [Capability: GrantScope] = [:]) throws -> (WorkflowRun, Captured) {
        let file = folder.appendingPathComponent("flow.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let console = Captured()
        var run = WorkflowRun(file: file.path)
        run.input = input
        run.granted = granted
        run.keepsHistory = false
        run.commandLine = ["run", file.path]
        run.console = console
        run.stateFolder = folder.appendingPathComponent("state")
        return (run, console)
    }

    @Test("the output comes back to the front end and to its console, once, with status 0")
    func output() async throws {
        let (run, console) = try run("steps:\n  - change-case: upper\n", input: .text("hello"))
        let outcome = await run.run()
        #expect(outcome.status == 0, "\(console.errors)")
        #expect(outcome.output == "HELLO\n")
        #expect(console.outputs == ["HELLO\n"])
    }

    @Test("without a terminal nothing is asked: a need is denied before the first step, with the line that grants it")
    func nobodyAsks() async throws {
        let target = folder.appendingPathComponent("out.txt")
        let (run, console) = try run("steps:\n  - text: hi\n  - save-file: \(target.path)\n")
        let outcome = await run.run()
        #expect(outcome.status == ExitStatus.permissionDenied.rawValue)
        #expect(outcome.output == nil)
        #expect(console.errors.contains("--allow-write="), "\(console.errors)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
        // Granted by the front end, the same run writes it.
        let (granted, grantedConsole) = try self.run("steps:\n  - text: hi\n  - save-file: \(target.path)\n", granted: [.write: .only([folder.path])])
        let done = await granted.run()
        #expect(done.status == 0, "\(grantedConsole.errors)")
        #expect(FileManager.default.fileExists(atPath: target.path))
    }

    @Test("a kept run comes back with its ID in the history of the state folder the front end gave")
    func recorded() async throws {
        var (run, console) = try run("steps:\n  - text: kept\n")
        run.keepsHistory = true
        run.arguments = [run.file]
        let outcome = await run.run()
        #expect(outcome.status == 0, "\(console.errors)")
        let id = try #require(outcome.runID)
        let history = try RunHistory(path: folder.appendingPathComponent("state/history.sqlite").path)
        let kept = try #require(try history.run(id))
        #expect(kept.status == .succeeded)
        #expect(kept.arguments == [run.file])
    }

    @Test("an invalid workflow ends with status 2, its diagnostics on the console, and nothing run")
    func invalid() async throws {
        let (run, console) = try run("steps:\n  - chnage-case: upper\n", input: .text("x"))
        let outcome = await run.run()
        #expect(outcome.status == ExitStatus.invalid.rawValue)
        #expect(console.errors.contains("change-case"), "\(console.errors)")
        #expect(console.outputs.isEmpty)
    }

    /// A run, field by field: its grants sorted (a dictionary's order differs from one to another).
    private func described(_ run: WorkflowRun) -> String {
        var run = run
        let grants = run.granted.map { "\($0.key): \($0.value)" }.sorted()
        run.granted = [:]
        return "\(grants) \(run)"
    }

    /// The run a parsed `relay run` command line asks for, described field by field.
    private func parsedRun(_ arguments: [String]) throws -> String {
        let parsed = try #require(RelayCommand.parseAsRoot(arguments) as? RunCommand)
        return RelayCommand.$givenArguments.withValue(arguments) { described(parsed.workflowRun()) }
    }

    @Test(
        "'relay run FILE', made without the parser, is the run the parser makes of it",
        arguments: ["flow.yaml", "folder with spaces/a.yaml", "runs", "./-x.yaml"])
    func plainRunIsTheParsedOne(file: String) throws {
        let plain = try #require(RunCommand.plainRun(["run", file]))
        #expect(described(plain) == (try parsedRun(["run", file])))
    }

    @Test("any other command line is left to the parser, and 'relay run … OPTIONS' parsed alone is what the root parses")
    func otherCommandLinesAreParsed() throws {
        for arguments in [["run"], ["run", "-"], ["run", "a.yaml", "-"], ["run", "--json", "a.yaml"], ["run", "help"], ["check", "a.yaml"], ["run", "a.yaml", "b.yaml"]] {
            #expect(RunCommand.plainRun(arguments) == nil, "\(arguments)")
        }
        for arguments in [
            ["run", "a.yaml", "--json", "--set", "n=5", "--allow-read=/tmp", "--timeout", "3"], ["run", "a.yaml", "-", "--no-history", "--trace"],
            ["run", "--input", "hi", "a.yaml", "--yes", "--package", "p", "--allow-all"],
        ] {
            let alone = try #require(RelayCommand.parse(arguments) as? RunCommand)
            let aloneRun = RelayCommand.$givenArguments.withValue(arguments) { described(alone.workflowRun()) }
            #expect(aloneRun == (try parsedRun(arguments)), "\(arguments)")
        }
        // What the run command alone cannot take is parsed from the root, with the root's usage line.
        do {
            _ = try RelayCommand.parse(["run", "a.yaml", "--nope"])
            Issue.record("an unknown option parsed")
        } catch {
            let message = RelayCommand.fullMessage(for: error)
            #expect(message.contains("'--nope'") && message.contains("Usage: relay run"), "\(message)")
        }
    }
}
