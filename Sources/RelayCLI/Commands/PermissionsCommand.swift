import ArgumentParser
import Foundation
import RelayKit
import RelayLanguage
import RelayRuntime

/// `relay permissions FILE [--revoke | --grant]`: what was allowed "always" for a workflow,
/// forgetting it, or allowing always what its `permissions:` block declares (Docs/Security.md,
/// "How grants are kept").
struct PermissionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "permissions",
        abstract: "Show what was allowed always for a workflow, forget it with --revoke, or allow always what its permissions: block declares with --grant.")

    @Argument(help: "The workflow file.") var file: String
    @Flag(help: "Forget everything allowed always for this workflow.") var revoke = false
    @Flag(help: "Allow always exactly what the workflow's 'permissions:' block declares (for runs under cron).") var grant = false

    func validate() throws {
        if revoke && grant { throw ValidationError("--revoke and --grant cannot be given together") }
    }

    func run() async throws {
        let path = ResolvedPath.resolve(FileReference(path: file).originalPath)
        let store = GrantStore()
        if grant {
            try grantDeclared(path, store: store)
            return
        }
        if revoke {
            do throws(FileOperationError) {
                let had = try store.revoke(workflow: path)
                StandardStreams.writeOutput(had ? "forgot the grants of \(path)\n" : "nothing was allowed always for \(path)\n")
            } catch {
                StandardStreams.writeError("error: \(error)\n")
                throw ExitStatus.runtimeError.exitCode
            }
            return
        }
        guard let entry = store.entry(forWorkflow: path), !entry.grants.isEmpty else {
            StandardStreams.writeOutput("nothing was allowed always for \(path)\n")
            return
        }
        let current = store.grants(forWorkflow: path).count == entry.grants.count
        var text = "allowed always for \(path)"
        text += current ? ":\n" : " (the workflow has changed since, so none of this applies until allowed again):\n"
        for grant in entry.grants {
            text += "  \(grant.access?.description ?? "\(grant.capability) \(grant.target)")\n"
        }
        StandardStreams.writeOutput(text)
    }

    /// Keeps what the workflow at `path` declares in `permissions:` as allowed always.
    private func grantDeclared(_ path: String, store: GrantStore) throws {
        let (workflow, diagnostics) = WorkflowLoader(registry: try RelayCommand.registry()).load(path: path)
        RelayCommand.report(diagnostics)
        guard let workflow else { throw ExitStatus.invalid.exitCode }
        let declared = PermissionReport(workflow).declaredAccesses.map(\.access)
        guard !declared.isEmpty else {
            StandardStreams.writeError("error: \(path) has no 'permissions:' block, so there is nothing to grant\n")
            throw ExitStatus.invalid.exitCode
        }
        do throws(FileOperationError) {
            for access in declared where access.capability != .packages { try store.remember(access, forWorkflow: path) }
            for access in declared where access.capability == .packages { try store.trust(package: access.target) }
        } catch {
            StandardStreams.writeError("error: \(error)\n")
            throw ExitStatus.runtimeError.exitCode
        }
        StandardStreams.writeOutput("allowed always for \(path):\n" + declared.map { "  \($0.description)\n" }.joined())
    }
}
