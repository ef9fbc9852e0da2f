import Foundation
import MCP
import RelayKit
import RelayLanguage
import Synchronization

/// What an assistant is offered at one moment (Docs/Assistants.md, "What is offered"): the
/// workflows that check, as tools; the actions, with `--actions`; and the workflows that no
/// longer check, by the name they had, whose calls are answered with the checker's message.
struct Offered: Sendable {
    var workflows: [WorkflowTool] = []
    var actions: [ActionTool] = []
    /// A tool's name, and why its file is not offered now.
    var broken: [String: String] = [:]

    var tools: [Tool] { workflows.map(\.tool) + actions.map(\.tool) }
    var names: [String] { workflows.map(\.name) + actions.map(\.name) }
}

/// The Model Context Protocol's side of `relay mcp` and of `relay serve`'s `/mcp`: one
/// `MCP.Server` for each session (standard input and output have one; HTTP one per client),
/// answering with the tools offered at the time it is asked. Every call is a run under way of
/// `calls`: stopped by the client's cancellation, by the client going away, and by the server
/// stopping, and kept in the history as stopped.
struct AssistantServer: Sendable {
    /// The tools, as they are now: read again at each list and each call.
    let offered: @Sendable () async -> Offered
    let options: ToolRunOptions
    /// Answer yes to confirmations a client cannot ask its person (`--yes`).
    let assumeYes: Bool
    /// The flag that gives `assumeYes`, said when a confirmation goes unanswered; nil when the
    /// server has none (`relay serve`).
    var yesFlag: String? = "relay mcp --yes"
    /// Whether a permission question is asked through the client (`relay mcp`); over HTTP it is
    /// not: a caller with the token must not grant what a served workflow's triggers would then have.
    var asksPermissions = true
    /// Where the workflows written for action calls go.
    let callFolder: URL
    let calls: RunningRuns
    /// The entity types offered as resources.
    let resources: EntityResources
    /// The calls under way, of every session, held to `mostCalls`.
    let underWay = CallCount()

    /// The most calls under way at once, of all sessions.
    static let mostCalls = 16

    /// A protocol server for one session, started on `transport`; its calls are runs of `session`
    /// too, when it has runs of its own to stop (an HTTP session that ends).
    func start(on transport: any Transport, session: RunningRuns? = nil) async throws -> MCP.Server {
        let server = MCP.Server(
            name: "relay", version: RelayCommand.versionNumber,
            capabilities: .init(resources: .init(subscribe: false, listChanged: false), tools: .init(listChanged: true)))
        // Whether the client asks its person (elicitation), as it says when the session starts.
        let clientAsks = Mutex(false)
        let this = self
        await server.withMethodHandler(ListTools.self) { _ in ListTools.Result(tools: await this.offered().tools) }
        await server.withMethodHandler(CallTool.self) { params in
            try await this.call(params, server: server, clientAsks: clientAsks.withLock { $0 }, session: session)
        }
        await server.withMethodHandler(ListResourceTemplates.self) { _ in ListResourceTemplates.Result(templates: this.resources.templates) }
        // A listing or a reading is a run too: counted with the calls.
        await server.withMethodHandler(ListResources.self) { _ in
            guard this.underWay.admit() else { throw MCPError.internalError("\(Self.mostCalls) calls are under way already: try again when one has ended") }
            defer { this.underWay.end() }
            return ListResources.Result(resources: await this.resources.list(options: this.options, folder: this.callFolder, calls: this.calls))
        }
        await server.withMethodHandler(ReadResource.self) { params in
            guard this.underWay.admit() else { throw MCPError.internalError("\(Self.mostCalls) calls are under way already: try again when one has ended") }
            defer { this.underWay.end() }
            return try await this.resources.read(params.uri, options: this.options, folder: this.callFolder, calls: this.calls)
        }
        try await server.start(transport: transport) { _, capabilities in
            clientAsks.withLock { $0 = capabilities.elicitation != nil }
        }
        // The client is told when the tools change (a file edited, added, removed), until the session ends.
        let watching = Task { await this.watchTools(of: server) }
        Task {
            await server.waitUntilCompleted()
            watching.cancel()
        }
        return server
    }

    /// How often the tools are looked at for changes to tell the client of.
    static let toolsLookedAt: Duration = .seconds(2)

    /// Sends `notifications/tools/list_changed` when the tools offered change, until cancelled or
    /// the session cannot be written to.
    private func watchTools(of server: MCP.Server) async {
        var last = await offered().tools
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.toolsLookedAt)
            guard !Task.isCancelled else { return }
            let now = await offered().tools
            guard now != last else { continue }
            last = now
            do { try await server.notify(ToolListChangedNotification.message()) } catch { return }
        }
    }

    /// Runs the tool `params` names, as a run under way of `calls`; a protocol error for a tool
    /// that is not offered.
    private func call(_ params: CallTool.Parameters, server: MCP.Server, clientAsks: Bool, session: RunningRuns?) async throws -> CallTool.Result {
        let offered = await offered()
        let tool = offered.workflows.first(where: { $0.name == params.name })
        let action = offered.actions.first(where: { $0.name == params.name })
        guard tool != nil || action != nil else {
            if let problem = offered.broken[params.name] {
                return WorkflowTool.failure("'\(params.name)' is not offered now: its file no longer checks:\n\(problem)")
            }
            throw MCPError.invalidParams("there is no tool '\(params.name)'\(Suggestions.didYouMean(params.name, in: offered.names))")
        }
        var options = options
        let questions = AssistantQuestions(
            server: server, clientAsks: clientAsks, assumeYes: assumeYes, yesFlag: yesFlag, asksPermissions: asksPermissions)
        options.caller = questions
        options.permissionAsker = questions
        let output = AssistantOutput(server: server, token: params._meta?.progressToken)
        options.shown = output
        // Stopped with the rest (a signal, the client gone), with its session, or cancelled by the client alone.
        options.stopReason = { [calls] in calls.stopReason ?? session?.stopReason ?? .cancelled(by: "the assistant cancelled the call") }
        guard underWay.admit() else {
            return WorkflowTool.failure("\(Self.mostCalls) calls are under way already: try again when one has ended")
        }
        defer { underWay.end() }
        let (folder, callOptions, calls) = (callFolder, options, calls)
        let work: @Sendable () async -> CallTool.Result = {
            await calls.run {
                if let tool { return await tool.call(params.arguments ?? [:], options: callOptions) }
                return await action?.call(params.arguments ?? [:], options: callOptions, folder: folder) ?? WorkflowTool.failure("no such tool")
            }
        }
        let result = if let session { await session.run(work) } else { await work() }
        await output.finish()
        // A call its client cancelled is not answered (the protocol's cancellation); its run is kept as stopped.
        try Task.checkCancellation()
        return result
    }
}

/// How many calls are under way.
final class CallCount: Sendable {
    private let count = Mutex(0)

    /// One more, when fewer than `AssistantServer.mostCalls` are; whether it was.
    func admit() -> Bool {
        count.withLock { count in
            guard count < AssistantServer.mostCalls else { return false }
            count += 1
            return true
        }
    }

    func end() {
        count.withLock { $0 -= 1 }
    }
}
