import Foundation
import RelayActions
import RelayKit
import RelayEngine
import RelayLanguage

@testable import RelayRuntime

/// The built-in registry, made once.
let registry: ActionRegistry = {
    var registry = ActionRegistry()
    try? registry.register(BuiltinActions.self, prefixed: false)
    return registry
}()

/// A registry of the built-in packages and `packages`, unprefixed.
func registry(with packages: [any IntentPackage.Type]) -> ActionRegistry {
    var registry = ActionRegistry()
    try? registry.register(BuiltinActions.self, prefixed: false)
    for package in packages { try? registry.register(package, prefixed: false) }
    return registry
}

/// Runs `steps` (a list of steps, one per line, at the left margin) after `header` with `registry`.
func run(
    steps: String, registry: ActionRegistry, header: String = "", input: Value = .nothing,
    interaction: any Interaction = ScriptedInteraction(), output: any RunOutput = CollectedOutput(),
    granted: [Capability: GrantScope] = [:]
) async throws -> Value {
    let text = header + "steps:\n" + steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
    let loader = WorkflowLoader(registry: registry)
    let (workflow, diagnostics) = loader.load(SourceFile(path: "test.yaml", text: text))
    guard let workflow else { throw DiagnosticsError(diagnostics) }
    let environment = RunEnvironment(interaction: interaction, output: output, loader: loader, gate: gate(for: "test.yaml", granted))
    return try await Interpreter(workflow: workflow, environment: environment).run(input: input)
}

/// Answers from a table keyed by prompt or `as` name; no terminal unless `mode` says so.
struct ScriptedInteraction: Interaction {
    var answers: [String: String] = [:]
    var assumeYes = false
    var mode: RunMode = .background
    var suppliesAnswers: Bool { assumeYes || !answers.isEmpty }
    /// The prompts of the choices asked, in order.
    var asked: [String] { log.lock.withLock { log.prompts } }
    private let log = PromptLog()

    private final class PromptLog: @unchecked Sendable {
        let lock = NSLock()
        var prompts: [String] = []
    }

    func ask(_ question: Question, keys: [String]) async throws -> Value {
        if let answer = answers[question.prompt] ?? keys.lazy.compactMap({ answers[$0] }).first { return .text(answer) }
        if let value = question.defaultValue { return value }
        throw IntentError("no answer for '\(question.prompt)'")
    }

    func choose(_ request: ChoiceRequest, keys: [String]) async throws -> [Int] {
        log.lock.withLock { log.prompts.append(request.prompt) }
        guard let answer = answers[request.prompt] ?? keys.lazy.compactMap({ answers[$0] }).first else {
            throw IntentError(request.unanswered ?? "no answer for '\(request.prompt)'")
        }
        return answer.split(separator: ",").compactMap { request.options.firstIndex(of: String($0)) }
    }

    func confirm(_ prompt: String, keys: [String]) async throws -> Bool {
        if let answer = answers[prompt] { return try Value.text(answer).booleanValue() }
        return assumeYes
    }
}

/// Collects what `show` prints.
final class CollectedOutput: RunOutput, @unchecked Sendable {
    private let lock = NSLock()
    private var shown: [Value] = []
    private var traced: [String] = []
    var values: [Value] { lock.withLock { shown } }
    /// The trace lines, when the run traced.
    var traces: [String] { lock.withLock { traced } }
    func show(_ value: Value) { lock.withLock { shown.append(value) } }
    func trace(_ line: String) { lock.withLock { traced.append(line) } }
}

/// A workflow file in a fresh temporary folder.
func writeWorkflow(_ yaml: String, named name: String = "main.yaml", in folder: URL? = nil) throws -> URL {
    let folder = folder ?? FileManager.default.temporaryDirectory.appendingPathComponent("relay-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let file = folder.appendingPathComponent(name)
    try yaml.write(to: file, atomically: true, encoding: .utf8)
    return file
}

/// Runs `yaml` (a whole workflow, or just its steps when it starts with `- `).
func run(
    _ yaml: String, input: Value = .nothing, answers: [String: String] = [:], output: CollectedOutput = CollectedOutput(),
    path: String = "test.yaml", variables: [String: Value] = [:], granted: [Capability: GrantScope] = [:], tracing: Bool = false
) async throws -> Value {
    let text = yaml.hasPrefix("- ") ? "steps:\n" + yaml.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n") : yaml
    let loader = WorkflowLoader(registry: registry)
    let (workflow, diagnostics) = loader.load(SourceFile(path: path, text: text), predefined: Set(variables.keys))
    guard let workflow else { throw DiagnosticsError(diagnostics) }
    let environment = RunEnvironment(
        interaction: ScriptedInteraction(answers: answers), output: output, loader: loader, tracing: tracing, gate: gate(for: path, granted))
    return try await Interpreter(workflow: workflow, environment: environment).run(input: input, variables: variables)
}

/// The gate of a run of the workflow at `path`, as `relay run` makes it: its folder free to read,
/// plus exactly what the test grants (no terminal to ask on).
func gate(for path: String, _ granted: [Capability: GrantScope] = [:]) -> AccessGate {
    let gate = AccessGate(granted: granted)
    gate.allowFreely(runOf: path)
    return gate
}

/// Writing in `folders` (which includes reading them).
func writing(_ folders: URL...) -> [Capability: GrantScope] { [.write: .only(folders.map(\.path))] }

/// The output of `yaml` as compact JSON, for exact comparisons.
func json(_ yaml: String, input: Value = .nothing, answers: [String: String] = [:]) async throws -> String {
    JSONWriter.string(for: try await run(yaml, input: input, answers: answers), pretty: false)
}

/// The message of the runtime error `yaml` fails with.
func failure(_ yaml: String, input: Value = .nothing, granted: [Capability: GrantScope] = [:]) async -> RuntimeError? {
    do {
        _ = try await run(yaml, input: input, granted: granted)
        return nil
    } catch let error as RuntimeError {
        return error
    } catch {
        return RuntimeError("unexpected \(error)")
    }
}

/// A stand-in package host: a shell script that runs `setup`, says hello (answering
/// `capabilities`), then answers every other request with `result`, a shell word (quoted as the
/// shell needs) that is the answer's JSON. Written as an executable file in `folder`.
func standInHost(in folder: URL, capabilities: [String], result: String, setup: String = "") throws -> URL {
    let script = """
        #!/bin/sh
        \(setup)
        while read -r line; do
          id=$(printf '%s' "$line" | sed -n 's/^{"id":\\([0-9]*\\).*/\\1/p')
          case "$line" in
            *'"method":"hello"'*) printf '{"id":%s,"result":{"protocol":\(HostProtocol.version),"capabilities":[\(capabilities.map { "\"\($0)\"" }.joined(separator: ","))]}}\\n' "$id" ;;
            *) printf '{"id":%s,"result":%s}\\n' "$id" \(result) ;;
          esac
        done
        """
    let executable = folder.appendingPathComponent("relay-host")
    try Data(script.utf8).write(to: executable)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)
    return executable
}
