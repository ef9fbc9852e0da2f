import ArgumentParser
import RelayKit

/// `relay actions [FILTER]`: lists the actions.
struct ActionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "actions", abstract: "List the available actions.")

    @Argument(help: "Only actions whose name, title, package or summary contains this.") var filter: String?
    @Flag(help: "Print JSON.") var json = false
    @Flag(help: "Print Markdown (the action reference).") var markdown = false
    @Flag(help: "List the actions of Apple's Shortcuts app that 'relay import' turns into each action (Docs/Shortcuts.md).")
    var shortcuts = false
    @OptionGroup var packageOptions: PackageOptions

    func validate() throws {
        if [json, markdown, shortcuts].filter({ $0 }).count > 1 { throw ValidationError("give one of --json, --markdown and --shortcuts") }
    }

    func run() async throws {
        let actions = ActionCatalog.matching(filter, in: try await packageOptions.loader().registry)
        if shortcuts {
            // The filter names a Shortcuts action here (`relay actions --shortcuts alert`).
            let all = ActionCatalog.matching(nil, in: try await packageOptions.loader().registry)
            StandardStreams.writeOutput(ActionCatalog.shortcutsTable(all, matching: filter))
        } else if json {
            StandardStreams.writeOutput(JSONWriter.string(for: .list(actions.map(ActionCatalog.json)), pretty: true) + "\n")
        } else if markdown {
            StandardStreams.writeOutput(ActionCatalog.markdown(actions))
        } else {
            StandardStreams.writeOutput(ActionCatalog.list(actions))
        }
    }
}
