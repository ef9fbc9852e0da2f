import ArgumentParser
import Foundation
import RelayKit
import RelayRuntime

/// `relay permissions FILE [--revoke]`: what was allowed "always" for a workflow, or forgetting it
/// (Docs/Security.md, "How grants are kept").
struct PermissionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "permissions", abstract: "Show what was allowed always for a workflow, or forget it with --revoke.")

    @Argument(help: "The workflow file.") var file: String
    @Flag(help: "Forget everything allowed always for this workflow.") var revoke = false

    func run() async throws {
        let path = ResolvedPath.resolve(FileReference(path: file).originalPath)
        let store = GrantStore()
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
}
