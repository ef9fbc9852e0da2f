import ArgumentParser
import Foundation
import MCP
import RelayEngine
import RelayKit
import RelayLanguage
import RelayRuntime
import Synchronization

/// `relay mcp [PATH…]`: offers workflows to an assistant as tools, over the Model Context
/// Protocol on standard input and output (Docs/Assistants.md).
struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Offer workflows to an AI assistant as tools, over the Model Context Protocol on standard input and output.",
        discussion: """
            Each workflow file named, and each .yaml and .yml file in the folders named (default: \
            $XDG_CONFIG_HOME/relay/workflows), is a tool: named by its 'name:' or its file, described by its \
            'description:', taking its 'input:' as the argument 'input' and each of its 'variables:' as an argument \
            of that name. A call runs the workflow as 'relay run' would, with nobody to ask: with what was allowed \
            always for its file ('relay permissions FILE --grant') and the --allow flags given here; a need beyond \
            them is the call's error, naming the grant, and nothing runs. Its output is the call's result, as text \
            and as JSON. A step's question goes to the assistant's person when its client can ask (else --yes \
            answers confirmations). --actions offers each action as a tool too, granted only the --allow flags. \
            Every call is kept in 'relay runs' (trigger mcp). Standard output is the protocol's; \
            notes go to standard error (Docs/Assistants.md).
            """)

    @Argument(help: ArgumentHelp("Workflow files and folders of them (default: $XDG_CONFIG_HOME/relay/workflows).", valueName: "path"))
    var paths: [String] = []
    @Flag(help: "Answer yes to every confirmation the assistant's client cannot ask its person.") var yes = false
    @Flag(help: "Offer the built-in actions, and those of the packages named by --package, as tools too.") var actions = false
    @OptionGroup var packageOptions: PackageOptions
    @OptionGroup var permissionOptions: PermissionOptions

    func run() async throws {
        let files = try ServedWorkflow.files(named: paths, doing: "offer")
        let base = try await packageOptions.loader()
        let stateFolder = UndoHistory.defaultRoot
        var tools: [WorkflowTool] = []
        for file in files {
            let served = await ServedWorkflow.load(
                file, base: base, granted: permissionOptions.granted, grantsDeclared: permissionOptions.declared, stateFolder: stateFolder)
            guard let tool = WorkflowTool(served, taken: Set(tools.map(\.name))) else {
                StandardStreams.writeError("relay mcp: \(file) does not check, and is not offered:\n\(served.problem ?? "")\n")
                continue
            }
            if tool.workflow.summary == nil {
                StandardStreams.writeError("relay mcp: warning: \(file) has no 'description:', which an assistant reads to know when to use it\n")
            }
            tools.append(tool)
        }
        StandardStreams.writeError("relay mcp: offering \(tools.count) workflow\(tools.count == 1 ? "" : "s") as tools: \(tools.map(\.name).joined(separator: ", "))\n")
        var actionTools: [ActionTool] = []
        if actions {
            var taken = Set(tools.map(\.name))
            // An action that runs only in front of a person could never run for an assistant.
            for definition in base.registry.actions where !definition.isForegroundOnly {
                let tool = ActionTool(definition, taken: taken)
                taken.insert(tool.name)
                actionTools.append(tool)
            }
            StandardStreams.writeError("relay mcp: and \(actionTools.count) actions as tools\n")
        }
        let offeredActions = actionTools
        let callFolder = stateFolder.appendingPathComponent("mcp-calls")
        let options = ToolRunOptions(
            granted: permissionOptions.granted, grantsDeclared: permissionOptions.declared, packages: packageOptions.paths, stateFolder: stateFolder,
            paths: paths)
        let offered = tools
        let server = MCP.Server(
            name: "relay", version: RelayCommand.versionNumber, capabilities: .init(tools: .init(listChanged: false)))
        // Whether the client asks its person (elicitation), as it says when the session starts.
        let clientAsks = Mutex(false)
        // The calls under way, stopped when the client goes away.
        let calls = Mutex<[UUID: Task<CallTool.Result, Never>]>([:])
        let yes = self.yes
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: offered.map(\.tool) + offeredActions.map(\.tool)) }
        await server.withMethodHandler(CallTool.self) { params in
            let tool = offered.first(where: { $0.name == params.name })
            let action = offeredActions.first(where: { $0.name == params.name })
            guard tool != nil || action != nil else {
                let names = offered.map(\.name) + offeredActions.map(\.name)
                throw MCPError.invalidParams("there is no tool '\(params.name)'\(Suggestions.didYouMean(params.name, in: names))")
            }
            var options = options
            options.caller = AssistantQuestions(server: server, clientAsks: clientAsks.withLock { $0 }, assumeYes: yes)
            // A task of its own, kept until it ends: cancelled by the client's cancellation, and
            // by the client going away, which ends the session.
            let call = Task {
                if let tool { return await tool.call(params.arguments ?? [:], options: options) }
                return await action?.call(params.arguments ?? [:], options: options, folder: callFolder) ?? WorkflowTool.failure("no such tool")
            }
            let id = UUID()
            calls.withLock { $0[id] = call }
            defer { _ = calls.withLock { $0.removeValue(forKey: id) } }
            return await withTaskCancellationHandler { await call.value } onCancel: { call.cancel() }
        }
        try await server.start(transport: LineTransport()) { _, capabilities in
            clientAsks.withLock { $0 = capabilities.elicitation != nil }
        }
        await server.waitUntilCompleted()
        // The client went away: each call's run is stopped, and kept in the history as stopped.
        let running = calls.withLock { Array($0.values) }
        for call in running { call.cancel() }
        for call in running { _ = await call.value }
    }
}
