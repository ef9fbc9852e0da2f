import ArgumentParser
import RelayKit

/// `relay schema`: the JSON Schema of the workflow language.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema", abstract: "Print the JSON Schema of workflow files, for editors; with --package, the package's actions in it too.")

    @OptionGroup var packageOptions: PackageOptions

    func run() async throws {
        let schema = WorkflowSchema.schema(for: try await packageOptions.loader().registry)
        StandardStreams.writeOutput(JSONWriter.string(for: schema, pretty: true) + "\n")
    }
}
