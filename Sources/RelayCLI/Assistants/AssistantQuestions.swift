import Foundation
import MCP
import RelayEngine
import RelayKit
import RelayRuntime
import Synchronization

/// How a tool call's steps ask (Docs/Assistants.md, "Questions"): through the assistant's client,
/// which asks the person (MCP's elicitation), when it says it can; else nobody is asked — a
/// confirmation is yes only with `relay mcp --yes`, and a question or a choice takes its default
/// or ends the call.
struct AssistantQuestions: Interaction, PermissionAsker {
    let server: MCP.Server
    /// Whether the client said, when the session started, that it asks its person.
    let clientAsks: Bool
    let assumeYes: Bool
    /// The flag that answers yes to confirmations a client cannot ask, when the server has one
    /// (`relay mcp --yes`).
    var yesFlag: String? = "relay mcp --yes"
    /// Whether a permission question goes to the person too (`relay mcp`'s, not `/mcp`'s).
    var asksPermissions = true

    /// Nobody is at a terminal: a package's action that only runs in front of a person is refused.
    var mode: RunMode { .background }

    /// A person answers, through the client, or `--yes` does: an action that may need a person runs.
    var suppliesAnswers: Bool { clientAsks || assumeYes }

    /// Why a question went unanswered, in an assistant's words (not a terminal's flags).
    private func unanswered(_ prompt: String, confirmation: Bool = false) -> IntentError {
        let how =
            confirmation
            ? yesFlag.map { "; start \($0) to answer yes to every confirmation" } ?? "; a confirmation needs a client that asks"
            : ", and the step has no default"
        return IntentError("no answer for '\(Self.masked(prompt))': the assistant's client cannot ask its person (it offers no elicitation)\(how)")
    }

    func confirm(_ prompt: String, keys: [String]) async throws -> Bool {
        guard clientAsks else {
            if assumeYes { return true }
            throw unanswered(prompt, confirmation: true)
        }
        let shown = Self.masked(prompt)
        let schema = Elicitation.RequestSchema(
            properties: ["confirm": ["type": "boolean", "title": "Go ahead?", "description": .string(shown)]], required: ["confirm"])
        let answer = try await elicit(shown, schema)
        return answer?["confirm"]?.boolValue ?? false
    }

    func ask(_ question: Question, keys: [String]) async throws -> RelayKit.Value {
        guard clientAsks else {
            if let defaultValue = question.defaultValue { return defaultValue }
            throw unanswered(question.prompt)
        }
        let shown = Self.masked(question.prompt)
        var field: [String: MCP.Value] = ["title": .string(shown)]
        switch question.type {
        case .number: field["type"] = "number"
        case .boolean: field["type"] = "boolean"
        default: field["type"] = "string"
        }
        // A default made from a secret is not shown (the person's answer may still be it).
        if let defaultValue = question.defaultValue, Self.offered(defaultValue.textValue) == defaultValue.textValue,
            let json = WorkflowTool.json(defaultValue)
        {
            field["default"] = json
        }
        let answer = try await elicit(shown, Elicitation.RequestSchema(properties: ["answer": .object(field)], required: ["answer"]))
        guard let given = answer?["answer"], let value = WorkflowTool.relayValue(given) else {
            if let defaultValue = question.defaultValue { return defaultValue }
            throw IntentError("no answer for '\(question.prompt)': the assistant's person gave none")
        }
        return try value.coerced(to: question.type)
    }

    func choose(_ request: ChoiceRequest, keys: [String]) async throws -> [Int] {
        guard clientAsks else {
            if assumeYes, let index = request.defaultIndex { return [index] }
            // Which of several entities a text names: the candidates, which an identifier tells apart.
            if let unanswered = request.unanswered { throw IntentError(Self.masked(unanswered)) }
            throw unanswered(request.prompt)
        }
        // Options are shown masked; when masking made any two alike, each is numbered to tell them apart.
        var shownOptions = request.options.map(Self.offered)
        if shownOptions != request.options, Set(shownOptions).count != shownOptions.count {
            shownOptions = shownOptions.enumerated().map { "\($0.offset + 1). \($0.element)" }
        }
        let shown = Self.masked(request.prompt)
        let options = MCP.Value.array(shownOptions.map { .string($0) })
        let field: MCP.Value =
            request.allowsMultiple
            ? ["type": "array", "title": .string(shown), "items": ["type": "string", "enum": options]]
            : ["type": "string", "title": .string(shown), "enum": options]
        let answer = try await elicit(shown, Elicitation.RequestSchema(properties: ["choice": field], required: ["choice"]))
        let chosen: [String] =
            switch answer?["choice"] {
            case .string(let one)?: [one]
            case .array(let many)? where request.allowsMultiple: many.compactMap(\.stringValue)
            default: []
            }
        let indices = chosen.compactMap { shownOptions.firstIndex(of: $0) }
        guard !indices.isEmpty, indices.count == chosen.count else {
            throw IntentError("no answer for '\(shown)': the assistant's person chose none of its options")
        }
        return request.allowsMultiple ? indices : [indices[0]]
    }

    /// A permission question, through the client: once, always (when `allowsAlways`) or no; a
    /// client that cannot ask, a decline or a cancel is a no.
    func askPermission(_ question: String, allowsAlways: Bool) async -> GrantAnswer {
        guard clientAsks, asksPermissions else { return .no }
        let choices: [MCP.Value] = allowsAlways ? ["once", "always", "no"] : ["once", "no"]
        let meaning =
            allowsAlways
            ? "once: for this call; always: for every run of this workflow until its file changes; no: refuse"
            : "once: for this call; no: refuse"
        // Its secrets masked as a terminal's question has them (not hidden whole: the person must see what is asked).
        let shown = AccessGate.running?.secrets.redact(question) ?? question
        let schema = Elicitation.RequestSchema(
            properties: ["answer": ["type": "string", "title": "Allow?", "description": .string(meaning), "enum": .array(choices)]],
            required: ["answer"])
        switch (try? await elicit(shown, schema))??["answer"]?.stringValue {
        case "once": return .once
        case "always" where allowsAlways: return .always
        default: return .no
        }
    }

    /// `text` with the run's secrets masked, as a terminal shows a prompt (Docs/Runs.md, "Secrets").
    static func masked(_ text: String) -> String {
        AccessGate.running?.secrets.redact(text) ?? text
    }

    /// What a step made from a secret offers (its options, its default) hidden whole, as on a
    /// terminal: a secret split into pieces is found in none of them.
    static func offered(_ text: String) -> String {
        SecretLabels.step.isEmpty ? masked(text) : RunSecrets.mask
    }

    /// The person's answer, through the client; nil when they declined; the run is cancelled
    /// when they cancelled, and when the run is stopped while the question waits (its time
    /// bound, the client's cancellation, the client going away), whatever the client does.
    private func elicit(_ message: String, _ schema: Elicitation.RequestSchema) async throws -> [String: MCP.Value]? {
        let waiting = WaitingAnswer()
        let server = self.server
        let result = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiting.slot.withLock { $0 = continuation }
                if Task.isCancelled {
                    waiting.slot.withLock { $0.take() }?.resume(throwing: RunCancelled("the run was stopped while it waited for an answer"))
                    return
                }
                Task {
                    do {
                        let result = try await server.requestElicitation(message: message, requestedSchema: schema)
                        waiting.slot.withLock { $0.take() }?.resume(returning: result)
                    } catch {
                        waiting.slot.withLock { $0.take() }?.resume(throwing: Self.unanswered(message, error))
                    }
                }
            }
        } onCancel: {
            waiting.slot.withLock { $0.take() }?.resume(throwing: RunCancelled("the run was stopped while it waited for an answer"))
        }
        switch result.action {
        case .accept: return result.content ?? [:]
        case .decline: return nil
        case .cancel: throw RunCancelled("the person cancelled '\(message)' in their assistant")
        }
    }
}

extension AssistantQuestions {
    /// Why `message` got no answer from the client, in words: its error, or a reply that is not
    /// one (not the protocol's own words for a type that did not decode).
    static func unanswered(_ message: String, _ error: any Error) -> any Error {
        switch error {
        case is CancellationError, is RunCancelled: error
        case let error as MCPError: IntentError("no answer for '\(message)': the assistant's client could not ask: \(error.localizedDescription)")
        default: IntentError("no answer for '\(message)': the assistant's client replied with something that is not an answer")
        }
    }
}

/// Where a question's continuation waits, resumed once: by the client's answer or by the run
/// being stopped, whichever comes first.
private final class WaitingAnswer: Sendable {
    let slot = Mutex<CheckedContinuation<CreateElicitation.Result, any Error>?>(nil)
}
