import ArgumentParser
import RelayKit
import RelayLanguage

/// `relay describe ACTION`: one action's reference, for people.
struct DescribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "describe", abstract: "Describe an action.")

    @Argument(help: "The action's name.") var action: String
    @OptionGroup var packageOptions: PackageOptions

    func run() async throws {
        let registry = try await packageOptions.loader().registry
        switch registry.lookup(action) {
        case .found(let definition):
            StandardStreams.writeOutput(ActionCatalog.describe(definition))
        case .ambiguous(let names):
            StandardStreams.writeError("error: '\(action)' is ambiguous; write one of \(names.joined(separator: ", "))\n")
            throw ExitStatus.invalid.exitCode
        case .invalid(let error):
            StandardStreams.writeError("error: '\(action)' cannot be used: \(error)\n")
            throw ExitStatus.invalid.exitCode
        case .notFound:
            StandardStreams.writeError(
                "error: unknown action '\(action)'\(Suggestions.didYouMean(action, in: registry.names))\nnote: 'relay actions' lists every action\n")
            throw ExitStatus.invalid.exitCode
        }
    }
}
