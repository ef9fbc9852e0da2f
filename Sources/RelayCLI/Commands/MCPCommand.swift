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
        let (granted, declared) = (permissionOptions.granted, permissionOptions.declared)
        let load: @Sendable (String) async -> ServedWorkflow = { file in
            await ServedWorkflow.load(file, base: base, granted: granted, grantsDeclared: declared, stateFolder: stateFolder)
        }
        var served: [ServedWorkflow] = []
        for file in files { served.append(await load(file)) }
        var actionTools: [ActionTool] = []
        if actions {
            // An action that runs only in front of a person could never run for an assistant.
            for definition in base.registry.actions where !definition.isForegroundOnly {
                let tool = ActionTool(definition, taken: Set(actionTools.map(\.name)))
                actionTools.append(tool)
            }
        }
        let offeredActions = actionTools
        let catalog = WorkflowCatalog(paths: paths, files: served, load: load)
        let first = await catalog.offered(actions: offeredActions)
        for workflow in served where workflow.problem != nil {
            StandardStreams.writeError("relay mcp: \(workflow.file) does not check, and is not offered until it does:\n\(workflow.problem ?? "")\n")
        }
        for tool in first.workflows where tool.name != tool.baseName {
            let other = first.workflows.first { $0.name == tool.baseName }.map { ": \($0.file) has that name" } ?? ""
            StandardStreams.writeError("relay mcp: warning: \(tool.file) is offered as '\(tool.name)', not '\(tool.baseName)'\(other)\n")
        }
        for tool in first.workflows where tool.workflow.summary == nil {
            StandardStreams.writeError("relay mcp: warning: \(tool.file) has no 'description:', which an assistant reads to know when to use it\n")
        }
        let count = first.workflows.count
        StandardStreams.writeError(
            "relay mcp: offering \(count) workflow\(count == 1 ? "" : "s") as tools"
                + (count == 0 ? "\n" : ": \(first.workflows.map(\.name).joined(separator: ", "))\n"))
        if actions { StandardStreams.writeError("relay mcp: and \(first.actions.count) actions as tools\n") }
        let options = ToolRunOptions(
            granted: granted, grantsDeclared: declared, packages: packageOptions.paths, stateFolder: stateFolder, paths: paths)
        let calls = RunningRuns()
        let assistant = AssistantServer(
            offered: { await catalog.offered(actions: offeredActions) }, options: options, assumeYes: yes,
            callFolder: stateFolder.appendingPathComponent("mcp-calls"), calls: calls, resources: EntityResources(base.registry.entityTypes))
        let server = try await assistant.start(on: LineTransport())
        // SIGTERM or SIGINT: the calls under way are stopped, and kept in the history as stopped.
        let signalled = Mutex<Int32?>(nil)
        await ProcessSignals.handling(with: { number in
            guard signalled.withLock({ signal in
                defer { signal = signal ?? number }
                return signal == nil
            }) else { return }
            calls.cancelAll(.signal(number))
            Task {
                // Each call is answered that it was stopped, then the session ends.
                _ = await calls.finish(within: ChildProcesses.grace + 5)
                try? await Task.sleep(for: .milliseconds(200))
                await server.stop()
            }
        }) {
            await server.waitUntilCompleted()
        }
        // The client went away, or a signal came: each call's run is stopped, and kept as stopped.
        calls.cancelAll(.cancelled(by: "the assistant went away"))
        _ = await calls.finish(within: ChildProcesses.grace + 5)
        if let number = signalled.withLock({ $0 }) { throw ExitCode(128 + number) }
    }
}
