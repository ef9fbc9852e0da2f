import ArgumentParser
import RelayKit

/// `relay actions [FILTER]`: lists the actions.
struct ActionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "actions", abstract: "List the available actions.")

    @Argument(help: "Only actions whose name, title, package or summary contains this.") var filter: String?
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Print Markdown (the action reference).") var markdown = false
    @OptionGroup var packageOptions: PackageOptions

    func validate() throws {
        if json && markdown { throw ValidationError("give --json or --markdown, not both") }
    }

    func run() async throws {
        let actions = ActionCatalog.matching(filter, in: try await packageOptions.loader().registry)
        if json {
            StandardStreams.writeOutput(JSONWriter.string(for: .list(actions.map(ActionCatalog.json)), pretty: true) + "\n")
        } else if markdown {
            StandardStreams.writeOutput(ActionCatalog.markdown(actions))
        } else {
            StandardStreams.writeOutput(ActionCatalog.list(actions))
        }
    }
}
