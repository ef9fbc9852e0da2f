import Foundation
import MCP
import RelayEngine
import RelayKit
import RelayLanguage

/// An action offered to an assistant as a tool of its own (`relay mcp --actions`): its
/// parameters are the tool's arguments, made from the same declaration as `relay describe` and
/// the JSON Schema. A call runs a one-step workflow Relay writes for it, whose step reads each
/// argument from a variable (never from text it writes: an argument is a value, not a template),
/// with `relay mcp`'s `--allow-…` alone, since no file has grants remembered.
struct ActionTool: Sendable {
    let name: String
    let definition: ActionDefinition
    let tool: Tool

    init(_ definition: ActionDefinition, taken: Set<String>) {
        name = WorkflowTool.toolName(definition.name, apartFrom: taken)
        self.definition = definition
        var properties: [String: MCP.Value] = [:]
        var required: [MCP.Value] = []
        for parameter in definition.parameters {
            var property = WorkflowTool.schema(of: parameter.type)
            property["description"] = .string(parameter.summary.isEmpty ? parameter.title : parameter.summary)
            if !parameter.choices.isEmpty {
                let choices = parameter.choices + parameter.choices.compactMap { parameter.choiceTitles[$0] }
                let values = MCP.Value.array(choices.map { .string($0) })
                if parameter.type == .list { property["items"] = ["type": "string", "enum": values] } else {
                    property = ["type": "string", "enum": values, "description": property["description"] ?? .null]
                }
            }
            if let value = parameter.defaultValue, let json = WorkflowTool.json(value) { property["default"] = json }
            properties[parameter.name] = .object(property)
            if parameter.isRequired { required.append(.string(parameter.name)) }
        }
        var schema: [String: MCP.Value] = ["type": "object", "properties": .object(properties), "additionalProperties": false]
        if !required.isEmpty { schema["required"] = .array(required) }
        tool = Tool(
            name: name, title: definition.title, description: definition.summary.trimmingCharacters(in: .whitespacesAndNewlines),
            inputSchema: .object(schema))
    }

    /// Runs the action with `arguments`, as a workflow of one step written for the call in
    /// `folder` (removed after), whose step reads each argument from a variable.
    func call(_ arguments: [String: MCP.Value], options: ToolRunOptions, folder: URL) async -> CallTool.Result {
        let (values, refusal) = WorkflowTool.values(of: arguments, known: definition.parameters.map(\.name), tool: name)
        if let refusal { return refusal }
        // The workflow written for the call is gone after it: "always" would be kept for nothing.
        var options = options
        options.permissionAsker = options.permissionAsker.map { OnceOnly(base: $0) }
        var written: [String] = []
        var variables: [String: RelayKit.Value] = [:]
        for (index, parameter) in definition.parameters.enumerated() {
            guard let value = values[parameter.name] else { continue }
            let variable = "argument_\(index + 1)"
            variables[variable] = value
            written.append("\(parameter.name): \"${\(variable)}\"")
        }
        let step = written.isEmpty ? "  - \(definition.name)\n" : "  - \(definition.name): { \(written.joined(separator: ", ")) }\n"
        let declared = variables.keys.sorted().map { "  \($0): { type: any }\n" }.joined()
        let text = "# Written by relay mcp for an assistant's call of '\(name)' (Docs/Assistants.md).\n"
            + (declared.isEmpty ? "" : "variables:\n" + declared) + "steps:\n" + step
        return await Self.runWritten(text, named: name, variables: variables, options: options, folder: folder, arguments: arguments)
    }

    /// Runs `text`, a workflow written for an assistant's request, from a file of its own in
    /// `folder` (removed after), with `variables`; the history keeps `arguments` as its input.
    static func runWritten(
        _ text: String, named name: String, variables: [String: RelayKit.Value], options: ToolRunOptions, folder: URL, arguments: [String: MCP.Value]
    ) async -> CallTool.Result {
        // A folder of its own for each call, the file named by the tool: the history names the action.
        let own = folder.appendingPathComponent(UUID().uuidString)
        let file = own.appendingPathComponent("\(name).yaml")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try FileManager.default.createDirectory(at: own, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try Data(text.utf8).write(to: file, options: .withoutOverwriting)
        } catch {
            return WorkflowTool.failure("cannot write the call's workflow in \(folder.path): \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: own) }
        let result = await WorkflowTool.run(file.path, input: nil, variables: variables, options: options, needs: nil, arguments: arguments)
        guard result.isError == true else { return result }
        // The file written for the call is not the assistant's: its place and its lines are left out.
        let content = result.content.map { content -> Tool.Content in
            guard case .text(let text, let annotations, let meta) = content else { return content }
            return .text(text: Self.plain(text, file: file.path), annotations: annotations, _meta: meta)
        }
        return CallTool.Result(content: content, structuredContent: result.structuredContent, isError: true)
    }

    /// `text` without `file`'s places (`FILE:3:5: `) and the lines quoted from it.
    static func plain(_ text: String, file: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> String? in
            // A quoted line (`    5 |   - step`) and its marker (`      |     ^~~~`).
            let trimmed = line.drop { $0 == " " || $0.isNumber }
            if trimmed.hasPrefix("|"), line.first == " " { return nil }
            guard let range = line.range(of: file + ":") else { return String(line) }
            // FILE:LINE:COLUMN: is dropped, and what came before it (`error: `) kept.
            let after = line[range.upperBound...].drop { $0.isNumber || $0 == ":" }.drop { $0 == " " }
            return String(line[..<range.lowerBound]) + after
        }.joined(separator: "\n")
    }
}

/// A permission question about a call's own workflow, which is removed after it: once or no.
private struct OnceOnly: PermissionAsker {
    let base: any PermissionAsker
    func askPermission(_ question: String, allowsAlways: Bool) async -> GrantAnswer {
        await base.askPermission(question, allowsAlways: false)
    }
}
