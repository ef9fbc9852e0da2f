import Foundation
import MCP
import RelayKit
import RelayRuntime

/// How a tool call's steps ask (Docs/Assistants.md, "Questions"): through the assistant's client,
/// which asks the person (MCP's elicitation), when it says it can; else nobody is asked — a
/// confirmation is yes only with `relay mcp --yes`, and a question or a choice takes its default
/// or ends the call.
struct AssistantQuestions: Interaction {
    let server: MCP.Server
    /// Whether the client said, when the session started, that it asks its person.
    let clientAsks: Bool
    let assumeYes: Bool

    /// Nobody is at a terminal: a package's action that only runs in front of a person is refused.
    var mode: RunMode { .background }

    /// Nobody's answers, for a client that cannot ask.
    private var unasked: Answers { Answers(answers: [], assumeYes: assumeYes, interactive: false) }

    func confirm(_ prompt: String, keys: [String]) async throws -> Bool {
        guard clientAsks else { return try await unasked.confirm(prompt, keys: keys) }
        let schema = Elicitation.RequestSchema(
            properties: ["confirm": ["type": "boolean", "title": "Go ahead?", "description": .string(prompt)]], required: ["confirm"])
        let answer = try await elicit(prompt, schema)
        return answer?["confirm"]?.boolValue ?? false
    }

    func ask(_ question: Question, keys: [String]) async throws -> RelayKit.Value {
        guard clientAsks else { return try await unasked.ask(question, keys: keys) }
        var field: [String: MCP.Value] = ["title": .string(question.prompt)]
        switch question.type {
        case .number: field["type"] = "number"
        case .boolean: field["type"] = "boolean"
        default: field["type"] = "string"
        }
        if let defaultValue = question.defaultValue, let json = WorkflowTool.json(defaultValue) { field["default"] = json }
        let answer = try await elicit(question.prompt, Elicitation.RequestSchema(properties: ["answer": .object(field)], required: ["answer"]))
        guard let given = answer?["answer"], let value = WorkflowTool.relayValue(given) else {
            if let defaultValue = question.defaultValue { return defaultValue }
            throw IntentError("no answer for '\(question.prompt)': the assistant's person gave none")
        }
        return try value.coerced(to: question.type)
    }

    func choose(_ request: ChoiceRequest, keys: [String]) async throws -> [Int] {
        guard clientAsks else { return try await unasked.choose(request, keys: keys) }
        let options = MCP.Value.array(request.options.map { .string($0) })
        let field: MCP.Value =
            request.allowsMultiple
            ? ["type": "array", "title": .string(request.prompt), "items": ["type": "string", "enum": options]]
            : ["type": "string", "title": .string(request.prompt), "enum": options]
        let answer = try await elicit(request.prompt, Elicitation.RequestSchema(properties: ["choice": field], required: ["choice"]))
        let chosen: [String] =
            switch answer?["choice"] {
            case .string(let one)?: [one]
            case .array(let many)?: many.compactMap(\.stringValue)
            default: []
            }
        let indices = chosen.compactMap { request.options.firstIndex(of: $0) }
        guard !indices.isEmpty, indices.count == chosen.count else {
            throw IntentError("no answer for '\(request.prompt)': the assistant's person chose none of its options")
        }
        return request.allowsMultiple ? indices : [indices[0]]
    }

    /// The person's answer, through the client; nil when they declined; the run is cancelled
    /// when they cancelled.
    private func elicit(_ message: String, _ schema: Elicitation.RequestSchema) async throws -> [String: MCP.Value]? {
        let result = try await server.requestElicitation(message: message, requestedSchema: schema)
        switch result.action {
        case .accept: return result.content ?? [:]
        case .decline: return nil
        case .cancel: throw RunCancelled("the person cancelled '\(message)' in their assistant")
        }
    }
}
