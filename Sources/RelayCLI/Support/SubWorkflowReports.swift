import Foundation
import RelayKit
import RelayLanguage
import RelayRuntime

/// The permission reports of the workflows a workflow runs with `run-workflow` at a path written
/// in it, so that what they touch is asked for before the first step too (Docs/Security.md,
/// "Asking once"). Only workflows inside the calling workflow's own folder are read now (reading
/// it is free); one elsewhere is read, and its needs asked, when its step comes.
enum SubWorkflowReports {
    /// The most sub-workflows looked into for one run.
    static let limit = 64

    static func collect(
        _ workflow: CheckedWorkflow, loader: WorkflowLoader, variables: [String: Value] = [:]
    ) -> [(path: String, report: PermissionReport)] {
        let root = URL(fileURLWithPath: workflow.file.path).deletingLastPathComponent().standardizedFileURL.path
        var seen: Set<String> = [URL(fileURLWithPath: workflow.file.path).standardizedFileURL.path]
        var found: [(String, PermissionReport)] = []
        var pending = [workflow]
        while let current = pending.popLast(), found.count < limit {
            let folder = URL(fileURLWithPath: current.file.path).deletingLastPathComponent()
            // Named as the caller was (relative to the working folder when it was), so that places read alike.
            let shownFolder = (current.file.path as NSString).deletingLastPathComponent
            for (_, action) in current.actionSteps where action.definition.name == "run-workflow" {
                guard let index = action.definition.parameterIndex(named: "path"), case .text(let written)? = action.arguments[index]?.literalValue,
                    !written.isEmpty
                else { continue }
                let expanded = HomeFolder.expandingTilde(in: written)
                let path = URL(fileURLWithPath: expanded, relativeTo: folder).standardizedFileURL.path
                let shown = expanded.hasPrefix("/") ? path : ((shownFolder.isEmpty ? expanded : shownFolder + "/" + expanded) as NSString).standardizingPath
                guard ResolvedPath.path(ResolvedPath.resolve(path), isWithin: ResolvedPath.resolve(root)), seen.insert(path).inserted,
                    let sub = loader.load(path: shown).workflow
                else { continue }
                found.append((path, PermissionReport(sub, entityTypes: loader.registry.entityTypes)))
                pending.append(sub)
            }
        }
        return found
    }
}
