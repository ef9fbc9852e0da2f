import Foundation
import Synchronization

/// The workflow files `relay mcp` offers, read again when they change (Docs/Assistants.md, "What
/// is offered"): each list and each call looks at the files and folders it was given, reads a
/// file new or changed since it last did, and offers what it says now. A file that no longer
/// checks is not listed; a call of it is answered with the checker's message.
final class WorkflowCatalog: Sendable {
    /// The files and folders given.
    private let paths: [String]
    private let load: @Sendable (String) async -> ServedWorkflow
    private let state = Mutex(State())

    private struct State {
        var files: [String] = []
        var read: [String: (stamp: FolderWatch.Stamp?, served: ServedWorkflow)] = [:]
    }
    /// The name each file's tool had when it last checked.
    private let names = ToolNames()

    /// `files` as read at the start, `paths` looked at again for new ones.
    init(paths: [String], files: [ServedWorkflow], load: @escaping @Sendable (String) async -> ServedWorkflow) {
        self.paths = paths
        self.load = load
        state.withLock { state in
            state.files = files.map(\.file)
            for served in files { state.read[served.file] = (FolderWatch.Stamp.of(served.file), served) }
        }
    }

    /// The workflows as their files say now, in the order given.
    func current() async -> [ServedWorkflow] {
        // A folder's files as they are now; the files before when a path is gone.
        let files = (try? ServedWorkflow.files(in: paths.isEmpty ? [ServedWorkflow.defaultFolder] : paths)) ?? state.withLock { $0.files }
        var served: [ServedWorkflow] = []
        for file in files {
            let stamp = FolderWatch.Stamp.of(file)
            if let known = state.withLock({ $0.read[file] }), known.stamp == stamp {
                served.append(known.served)
                continue
            }
            let fresh = await load(file)
            state.withLock { $0.read[file] = (stamp, fresh) }
            served.append(fresh)
        }
        state.withLock { $0.files = files }
        return served
    }

    /// The tools of the workflows as their files say now, and `actions`.
    func offered(actions: [ActionTool]) async -> Offered {
        names.offered(await current(), actions: actions, server: "relay mcp")
    }
}

/// The name each workflow file's tool (and each action's) was last offered by, so that it keeps
/// it: `relay mcp`'s catalog, and `relay serve`'s `/mcp`, whose workflows the server reads again itself.
final class ToolNames: Sendable {
    private let names = Mutex<[String: String]>([:])

    /// The tools of `served` and `actions`, each keeping the name it had.
    func offered(_ served: [ServedWorkflow], actions: [ActionTool], server: String) -> Offered {
        let offered = Offered(served, actions: actions, earlierNames: names.withLock { $0 }, server: server)
        names.withLock { names in
            for tool in offered.workflows { names[tool.file] = tool.name }
            for tool in offered.actions { names[Offered.actionKey(tool)] = tool.name }
        }
        return offered
    }
}

extension Offered {
    /// The tools of `served` (those that check), named apart in order, and `actions`; a file
    /// that does not check is kept by the name it had (`earlierNames`, else its file's), with its
    /// problem.
    init(_ served: [ServedWorkflow], actions: [ActionTool], earlierNames: [String: String] = [:], server: String = "relay mcp") {
        var taken = Set<String>()
        // A file gone is offered no more, whatever it last said.
        let served = served.filter { FileManager.default.fileExists(atPath: $0.file) }
        // A tool keeps the name it had: a file added since with the same name is the one numbered;
        // and a file that stops checking keeps its name, which no other tool takes meanwhile.
        var named: [String: WorkflowTool] = [:]
        for workflow in served {
            guard let earlier = earlierNames[workflow.file], !taken.contains(earlier) else { continue }
            if let tool = WorkflowTool(workflow, taken: taken, preferring: earlier, server: server) {
                guard tool.name == earlier else { continue }
                named[workflow.file] = tool
            } else if let problem = workflow.problemAlone ?? workflow.problem {
                broken[earlier] = problem
            }
            taken.insert(earlier)
        }
        // So does an action's tool (`--actions`): a workflow added since is the one numbered.
        var keptActions: Set<String> = []
        for action in actions {
            guard let earlier = earlierNames[Self.actionKey(action)], !taken.contains(earlier), earlier == action.name else { continue }
            keptActions.insert(action.name)
            taken.insert(earlier)
        }
        for workflow in served {
            if let tool = named[workflow.file] {
                workflows.append(tool)
            } else if let tool = WorkflowTool(workflow, taken: taken, server: server) {
                workflows.append(tool)
                taken.insert(tool.name)
            } else if let problem = workflow.problemAlone ?? workflow.problem, earlierNames[workflow.file] == nil {
                let name = URL(fileURLWithPath: workflow.file).deletingPathExtension().lastPathComponent
                let tool = WorkflowTool.toolName(name, apartFrom: taken)
                broken[tool] = problem
                taken.insert(tool)
            }
        }
        var actionTools: [ActionTool] = []
        for action in actions {
            // An action's tool keeps its name unless a workflow has taken it (at the start).
            let tool = keptActions.contains(action.name) || !taken.contains(action.name) ? action : ActionTool(action.definition, taken: taken)
            taken.insert(tool.name)
            actionTools.append(tool)
        }
        self.actions = actionTools
    }

    /// The key an action's tool name is remembered by, beside the workflow files'.
    static func actionKey(_ action: ActionTool) -> String { "action:" + action.definition.name }
}
