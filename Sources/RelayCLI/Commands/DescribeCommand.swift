import ArgumentParser
import RelayKit
import RelayLanguage

/// `relay describe ACTION`: one action's reference, for people.
struct DescribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe", abstract: "Describe an action, an entity type (note, photo, a package's) or files.")

    @Argument(help: "The action's, entity type's or 'file'.") var action: String
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
            if let type = registry.entityTypes.descriptor(named: action) {
                StandardStreams.writeOutput(TypeCatalog.describe(type))
                return
            }
            if ["file", "files"].contains(action.lowercased()) {
                StandardStreams.writeOutput(TypeCatalog.describeFiles())
                return
            }
            let names = registry.names + registry.entityTypes.names + ["file"]
            StandardStreams.writeError(
                "error: '\(action)' is no action, entity type or 'file'\(Suggestions.didYouMean(action, in: names))\nnote: 'relay actions' lists every action\n")
            throw ExitStatus.invalid.exitCode
        }
    }
}
