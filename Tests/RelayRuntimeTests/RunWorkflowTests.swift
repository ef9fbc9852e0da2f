import Foundation
import RelayKit
import RelayLanguage
import Testing

@testable import RelayRuntime

@Suite("run-workflow")
struct RunWorkflowTests {
    private func runFile(_ file: URL) async throws -> Value {
        let loader = WorkflowLoader(registry: registry)
        let (workflow, diagnostics) = loader.load(path: file.path)
        guard let workflow else { throw DiagnosticsError(diagnostics) }
        let environment = RunEnvironment(
            interaction: ScriptedInteraction(), output: CollectedOutput(), loader: loader, gate: gate(for: file.path))
        return try await Interpreter(workflow: workflow, environment: environment).run(input: .nothing)
    }

    @Test("runs a file relative to the caller with an input; its stop returns to the caller, which goes on")
    func nested() async throws {
        let main = try writeWorkflow("""
            steps:
              - set: { secret: caller }
              - run-workflow: lib/double.yaml
                input: 21
              - text: "${previous} then ${secret}"
            """)
        let folder = main.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("lib"), withIntermediateDirectories: true)
        _ = try writeWorkflow("""
            input: number
            steps:
              - calculate: "${input} * 2"
              - stop: "${previous}"
              - text: never
            """, named: "lib/double.yaml", in: folder)
        #expect(try await runFile(main) == "42 then caller")
    }

    @Test("a loaded workflow is checked once per text: the same file again is not parsed again; a changed one is")
    func loadedOnce() throws {
        let file = try writeWorkflow("steps:\n  - text: one\n", named: "w.yaml")
        let loader = WorkflowLoader(registry: registry)
        let first = try #require(loader.load(path: file.path).workflow)
        let again = try #require(loader.load(path: file.path).workflow)
        #expect(first.steps.first === again.steps.first, "the same text gives the same checked steps")
        try "steps:\n  - text: two\n  - nope\n".write(to: file, atomically: true, encoding: .utf8)
        let changed = loader.load(path: file.path)
        #expect(changed.workflow == nil)
        #expect(changed.diagnostics.contains { $0.message.contains("unknown action 'nope'") })
    }

    @Test("a workflow that runs itself forever stops at the depth limit with the chain named")
    func recursion() async throws {
        let file = try writeWorkflow("steps:\n  - run-workflow: loop.yaml\n", named: "loop.yaml")
        do {
            _ = try await runFile(file)
            Issue.record("expected an error")
        } catch let error as RuntimeError {
            #expect(error.message.contains("nested more than 32 deep"))
            #expect(error.message.contains("loop.yaml → loop.yaml"))
            #expect(error.notes.count == 1)
        }
    }

    @Test("a missing or invalid workflow is an error of the calling step")
    func invalid() async throws {
        // Written literally, a missing file is a check error (the malformed corpus); computed, a run-time one.
        let main = try writeWorkflow("steps:\n  - text: missing.yaml\n  - run-workflow: \"${previous}\"\n  - run-workflow: bad.yaml\n")
        _ = try writeWorkflow("steps:\n  - nope\n", named: "bad.yaml", in: main.deletingLastPathComponent())
        do {
            _ = try await runFile(main)
            Issue.record("expected an error")
        } catch let error as RuntimeError {
            #expect(error.stepName == "run-workflow")
            #expect(error.notes.joined().contains("no such file"))
        }
        let onlyBad = try writeWorkflow("steps:\n  - run-workflow: bad.yaml\n", in: main.deletingLastPathComponent())
        do {
            _ = try await runFile(onlyBad)
            Issue.record("expected an error")
        } catch let error as RuntimeError {
            #expect(error.message.contains("'bad.yaml' is not a valid workflow"))
            #expect(error.notes.joined().contains("unknown action 'nope'"))
        }
    }
}
