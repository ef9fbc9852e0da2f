import ArgumentParser
import RelayKit
import RelayLanguage

/// `relay describe ACTION`: one action's reference, for people.
struct DescribeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe", abstract: "Describe an action, a control step or modifier, an entity type (note, photo, a package's) or files.")

    @Argument(help: "An action's, control step's, modifier's or entity type's name, or 'file'.") var action: String
    @OptionGroup var packageOptions: PackageOptions

    func run() async throws {
        let registry = try await packageOptions.loader().registry
        switch Describing.text(for: action, in: registry) {
        case .success(let text):
            StandardStreams.writeOutput(text)
        case .failure(let error):
            StandardStreams.writeError("error: \(error.message)\nnote: 'relay actions' lists every action\n")
            throw ExitStatus.invalid.exitCode
        }
    }
}
