import Foundation
import MCP
import RelayEngine
import RelayKit
import RelayLanguage
import RelayRuntime

/// A workflow offered to an assistant as a tool (Docs/Assistants.md): named by its `name:` or its
/// file, described by its `description:`, taking its `input:` and its `variables:` as arguments.
/// A call is a run of the file through the one run pipeline (`WorkflowRun`), which nobody is asked
/// in: it runs with what was allowed always for the file and `relay mcp`'s `--allow-…`.
struct WorkflowTool: Sendable {
    let name: String
    let file: String
    let workflow: CheckedWorkflow
    /// What it needs that is not granted: a call is denied, and its error says how to grant it.
    let needs: String?
    /// The tool as the protocol lists it.
    let tool: Tool

    /// The name it would have alone: its `name:`'s, else its file's.
    let baseName: String

    /// The tool for `served`, named apart from `taken` — `preferring` the name it had, when that
    /// is still one of its own (`NAME` or `NAME-2`) —; nil when the file does not check.
    init?(_ served: ServedWorkflow, taken: Set<String>, preferring earlier: String? = nil, server: String = "relay mcp") {
        guard let workflow = served.workflow, served.problem == nil else { return nil }
        // What the file declares is what is offered, its secrets masked however they are written there.
        let mask = { (text: String) in served.secrets?.redact(text) ?? text }
        // A name of no ASCII letter or digit (`名前`) says nothing once cleaned, nor one with a
        // secret's value in it: the file's name does.
        let written = workflow.name.unicodeScalars.contains { $0.isASCII && CharacterSet.alphanumerics.contains($0) } && mask(workflow.name) == workflow.name
            ? workflow.name : URL(fileURLWithPath: served.file).deletingPathExtension().lastPathComponent
        baseName = Self.toolName(written)
        if let earlier, !taken.contains(earlier), Self.isOwn(earlier, base: baseName) {
            name = earlier
        } else {
            name = Self.toolName(written, apartFrom: taken)
        }
        file = served.file
        self.workflow = workflow
        needs = served.needs.isEmpty ? nil : ServeCommand.needs(of: served, server: server)
        // A title is one line; a description keeps its lines; neither carries an escape or a control.
        tool = Tool(
            name: name, title: TerminalText.visible(mask(workflow.name)),
            description: TerminalText.visible(
                mask(workflow.summary ?? "Runs the workflow \(URL(fileURLWithPath: served.file).lastPathComponent)."), keepingLineBreaks: true),
            inputSchema: Self.masked(Self.inputSchema(of: workflow), by: mask))
    }

    /// `value` with `mask` applied to every text in it.
    static func masked(_ value: MCP.Value, by mask: (String) -> String) -> MCP.Value {
        switch value {
        case .string(let text): .string(mask(text))
        case .array(let items): .array(items.map { masked($0, by: mask) })
        case .object(let entries): .object(entries.mapValues { masked($0, by: mask) })
        default: value
        }
    }

    /// A name the protocol takes: letters, digits, `_` and `-`, at most 64, with `-N` to tell
    /// two workflows of one name apart.
    /// The tool name of `name` that none of `taken` is: `NAME`, else `NAME-2`, `NAME-3` …
    static func toolName(_ name: String, apartFrom taken: Set<String>) -> String {
        var chosen = toolName(name)
        var suffix = 2
        while taken.contains(chosen) {
            chosen = toolName(name, suffix: suffix)
            suffix += 1
        }
        return chosen
    }

    /// Whether `name` is `base` or `base-N`.
    static func isOwn(_ name: String, base: String) -> Bool {
        guard name != base else { return true }
        return (2...999).contains { toolName(base, suffix: $0) == name }
    }

    static func toolName(_ name: String, suffix: Int? = nil) -> String {
        // Accents dropped (`naïve` → `naive`); anything else not a letter, digit or `_` is one `-`
        // between words (`Split Bill! (v2)` → `Split-Bill-v2`).
        var cleaned = ""
        for scalar in name.folding(options: .diacriticInsensitive, locale: nil).unicodeScalars {
            if scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_") {
                cleaned.unicodeScalars.append(scalar)
            } else if !cleaned.isEmpty, !cleaned.hasSuffix("-") {
                cleaned += "-"
            }
        }
        while cleaned.hasSuffix("-") { cleaned.removeLast() }
        if !cleaned.unicodeScalars.contains(where: { CharacterSet.alphanumerics.contains($0) }) { cleaned = "workflow" }
        let end = suffix.map { "-\($0)" } ?? ""
        return String(cleaned.prefix(64 - end.count)) + end
    }

    /// The arguments it takes: `input` (when the workflow declares one) and each variable of its
    /// `variables:`, of its declared type, else typed by the value it starts with.
    static func inputSchema(of workflow: CheckedWorkflow) -> MCP.Value {
        var properties: [String: MCP.Value] = [:]
        var required: [MCP.Value] = []
        if let input = workflow.input {
            var schema = Self.schema(of: input.type.type)
            if let summary = input.summary { schema["description"] = .string(summary) }
            if let value = input.defaultValue?.literalValue, let json = json(value) { schema["default"] = json }
            properties["input"] = .object(schema)
            if input.defaultValue == nil { required.append("input") }
        }
        for variable in workflow.variables where workflow.variableTypes[variable.name.text] == nil {
            let initial = variable.value.literalValue
            var property = initial.map { Self.schema(of: $0.type) } ?? [:]
            if let initial, let json = json(initial) { property["default"] = json }
            properties[variable.name.text] = .object(property)
        }
        // A variable written with a type: its type, its description, its default or none (then required).
        for (name, declaration) in workflow.variableTypes.sorted(by: { $0.key < $1.key }) {
            var property = Self.schema(of: declaration.type.type)
            if let summary = declaration.summary { property["description"] = .string(summary) }
            if let value = declaration.defaultValue?.literalValue, let json = json(value) { property["default"] = json }
            properties[name] = .object(property)
            if declaration.defaultValue == nil { required.append(.string(name)) }
        }
        var schema: [String: MCP.Value] = ["type": "object", "properties": .object(properties), "additionalProperties": false]
        if !required.isEmpty { schema["required"] = .array(required) }
        return .object(schema)
    }

    /// The JSON Schema of a value of `type`, as an assistant gives it.
    static func schema(of type: ValueType) -> [String: MCP.Value] {
        switch type {
        case .text, .richText: ["type": "string"]
        case .number: ["type": "number"]
        case .boolean: ["type": "boolean"]
        case .date: ["type": "string", "description": "a date, as ISO 8601 or as Relay reads dates"]
        case .url: ["type": "string", "format": "uri"]
        case .file: ["type": "string", "description": "the path of a file the workflow is let read"]
        case .list: ["type": "array"]
        case .dictionary: ["type": "object"]
        case .entity(let name): ["type": "string", "description": "a \(name): its identifier or its title"]
        case .union(let names): ["type": "string", "description": "a \(names.joined(separator: " or ")): its identifier or its title"]
        default: [:]
        }
    }

    /// `value` as the protocol's JSON, as `relay run --json` writes it.
    static func json(_ value: RelayKit.Value) -> MCP.Value? {
        try? JSONDecoder().decode(MCP.Value.self, from: Data(JSONWriter.string(for: value, pretty: false).utf8))
    }

    /// `value`, an argument of a call, as a Relay value; nil for what JSON has no Relay value for.
    static func relayValue(_ value: MCP.Value, depth: Int = 0) -> RelayKit.Value? {
        guard depth < Limits.valueDepth else { return nil }
        switch value {
        case .null: return .nothing
        case .bool(let flag): return .boolean(flag)
        case .int(let number): return .number(Double(number))
        case .double(let number): return number.isFinite ? .number(number) : nil
        case .string(let text): return .text(text)
        case .data(_, let data): return .text(data.base64EncodedString())
        case .array(let items):
            var values: [RelayKit.Value] = []
            for item in items {
                guard let converted = relayValue(item, depth: depth + 1) else { return nil }
                values.append(converted)
            }
            return .list(values)
        case .object(let entries):
            var dictionary = ValueDictionary(minimumCapacity: entries.count)
            for key in entries.keys.sorted() {
                guard let entry = entries[key], let converted = relayValue(entry, depth: depth + 1) else { return nil }
                dictionary[key] = converted
            }
            return .dictionary(dictionary)
        }
    }

    /// Runs the workflow with `arguments`: its output as text and as structured content, or a
    /// tool error saying what went wrong (a denial names the grant that would let it run).
    func call(_ arguments: [String: MCP.Value], options: ToolRunOptions) async -> CallTool.Result {
        let known = (workflow.input == nil ? [] : ["input"]) + Set(workflow.variables.map(\.name.text)).union(workflow.variableTypes.keys).sorted()
        var (variables, refusal) = Self.values(of: arguments, known: known, tool: name)
        if let refusal { return refusal }
        // A variable typed by the number or yes-or-no it starts with is offered as one: held to it.
        for variable in workflow.variables where workflow.variableTypes[variable.name.text] == nil {
            let key = variable.name.text
            guard let given = variables[key], let initial = variable.value.literalValue, initial.type == .number || initial.type == .boolean else { continue }
            do {
                variables[key] = try given.coerced(to: initial.type)
            } catch {
                return Self.failure("argument '\(key)': wants \(initial.type.withArticle), found \(given.briefDescription)")
            }
        }
        // What it needs and was not given: said as the tool's arguments (not as `relay run`'s flags).
        let required = (workflow.input.map { $0.defaultValue == nil ? ["input"] : [] } ?? [])
            + workflow.variableTypes.filter { $0.value.defaultValue == nil }.keys.sorted()
        let missing = required.filter { arguments[$0] == nil || arguments[$0] == .null }
        if !missing.isEmpty {
            let listed = missing.map { name in
                let type = name == "input" ? workflow.input?.type.type : workflow.variableTypes[name]?.type.type
                return "'\(name)'" + (type.map { " (\($0.withArticle))" } ?? "")
            }
            return Self.failure("'\(self.name)' needs the argument\(missing.count == 1 ? "" : "s") \(listed.joined(separator: ", ")), which \(missing.count == 1 ? "has" : "have") no default")
        }
        let input = variables.removeValue(forKey: "input")
        return await Self.run(file, input: input, variables: variables, options: options, needs: needs, arguments: arguments)
    }

    /// `arguments` as Relay values, when the tool takes each of them (`known`); else the error.
    static func values(of arguments: [String: MCP.Value], known: [String], tool: String) -> ([String: RelayKit.Value], CallTool.Result?) {
        var values: [String: RelayKit.Value] = [:]
        for key in arguments.keys.sorted() {
            guard known.contains(key) else {
                let takes = known.isEmpty ? "it takes none" : "it takes \(known.joined(separator: ", "))"
                return ([:], failure("'\(tool)' takes no argument '\(key)'\(Suggestions.didYouMean(key, in: known)); \(takes)"))
            }
            guard let argument = arguments[key], let value = relayValue(argument) else {
                return ([:], failure("argument '\(key)': JSON Relay has no value for (nested past \(Limits.valueDepth) levels, or not a finite number)"))
            }
            if let problem = value.sizeProblem ?? value.nestingProblem { return ([:], failure("argument '\(key)': \(problem)")) }
            values[key] = value
        }
        return (values, nil)
    }

    /// Runs `file` as a tool call: its output as text and as structured content, or a tool error
    /// saying what went wrong (a denial says, with `needs`, how to grant what it needed).
    static func run(
        _ file: String, input: RelayKit.Value?, variables: [String: RelayKit.Value], options: ToolRunOptions, needs: String?,
        arguments: [String: MCP.Value]
    ) async -> CallTool.Result {
        var run = WorkflowRun(file: file)
        // The history keeps the call's arguments, as the assistant gave them, as the run's input.
        run.input = .given(input ?? .nothing, "an assistant's tool call: " + Self.described(arguments))
        run.variables = variables
        run.granted = options.granted
        run.grantsDeclared = options.grantsDeclared
        run.packages = options.packages
        run.json = true
        run.trigger = "mcp"
        run.ownsProcess = false
        run.stateFolder = options.stateFolder
        run.settings.caller = options.caller
        run.settings.shown = options.shown
        run.settings.permissionAsker = options.permissionAsker
        run.stopReason = options.stopReason
        // A denial says how to grant once, below, in the server's words.
        run.showsGrantingCommand = needs == nil
        run.commandLine = ["mcp"] + options.paths
        let console = CollectingConsole()
        run.console = console
        let began = Date()
        let outcome = await run.run()
        options.ended?(file, outcome, began)
        guard outcome.status == ExitStatus.success.rawValue else {
            var message = console.errors.trimmingCharacters(in: .whitespacesAndNewlines)
            if message.isEmpty { message = "the run ended with exit status \(outcome.status)" }
            // A denial says how to let the workflow run: grant it always, or start relay mcp so.
            if outcome.status == ExitStatus.permissionDenied.rawValue, let needs {
                // Granted once, but not as the file is now: said, since the grant seemed given.
                let store = GrantStore(root: options.stateFolder)
                if let refusal = store.refusal(forWorkflow: file) {
                    message += "\nWhat was allowed always for it is not used: \(refusal)"
                } else if store.entry(forWorkflow: file) != nil, store.grants(forWorkflow: file).isEmpty {
                    message += "\nIt was granted before, but the file (or what it runs) changed since: grant it again"
                }
                message += "\nIt needs " + needs
            }
            return CallTool.Result(content: [.text(text: message, annotations: nil, _meta: nil)] + shown(options), isError: true)
        }
        let text = outcome.output ?? ""
        let structured = (try? JSONDecoder().decode(MCP.Value.self, from: Data(text.utf8))) ?? .null
        // Structured content is an object: a workflow's output that is not one is its `output`.
        let content: MCP.Value = if case .object = structured { structured } else { .object(["output": structured]) }
        return CallTool.Result(
            content: [.text(text: text, annotations: nil, _meta: nil)] + shown(options), structuredContent: Optional(content), isError: false)
    }

    /// What the call's steps showed (`show`), as a text of its own after the output.
    private static func shown(_ options: ToolRunOptions) -> [Tool.Content] {
        guard let text = options.shown?.shownText, !text.isEmpty else { return [] }
        return [.text(text: "What the steps showed:\n" + text, annotations: nil, _meta: nil)]
    }

    /// A call's arguments as JSON, for the history (Docs/Assistants.md, "Runs"), which cuts them
    /// short once the run's secrets are masked in them: a secret cut first would not be found.
    static func described(_ arguments: [String: MCP.Value]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(arguments)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return Excerpt.start(of: json, limit: 8_192)
    }

    static func failure(_ message: String) -> CallTool.Result {
        CallTool.Result(content: [.text(text: message, annotations: nil, _meta: nil)], isError: true)
    }
}

/// What every call of `relay mcp`'s tools runs with.
struct ToolRunOptions: Sendable {
    var granted: [Capability: GrantScope]
    var grantsDeclared: Bool
    var packages: [String]
    var stateFolder: URL
    /// The files and folders `relay mcp` was given, for the command line that grants more.
    var paths: [String]
    /// Who answers the steps' questions: the assistant's person, through its client.
    var caller: (any Interaction)?
    /// Where the steps' `show` and progress go: the assistant.
    var shown: AssistantOutput?
    /// Who answers a permission question: the assistant's person, when its client asks.
    var permissionAsker: (any PermissionAsker)?
    /// Why a call's run stopped when its task is cancelled.
    var stopReason: (@Sendable () -> RunStopper.Reason)?
    /// Told of each call's run as it ends (`relay serve` logs it): the file, how it ended, when it began.
    var ended: (@Sendable (String, WorkflowRun.Outcome, Date) -> Void)?
}

/// A console that keeps a run's errors for its caller (a tool call), and prints nothing: standard
/// output is the protocol's.
final class CollectingConsole: RunConsole, @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    var errors: String { lock.withLock { text } }
    var showsSteps: Bool { false }
    func output(_ text: String) {}
    func error(_ text: String) { lock.withLock { self.text += text } }
    func report(_ diagnostics: [Diagnostic], masking secrets: RunSecrets?) {
        let rendered = DiagnosticRenderer().render(diagnostics)
        lock.withLock { text += secrets?.redact(rendered) ?? rendered }
    }
}
