import ArgumentParser
import RelayKit

/// `relay schema`: the JSON Schema of the workflow language.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema", abstract: "Print the JSON Schema of workflow files, for editors.")

    func run() async throws {
        let schema = WorkflowSchema.schema(for: try RelayCommand.registry())
        StandardStreams.writeOutput(JSONWriter.string(for: schema, pretty: true) + "\n")
    }
}
