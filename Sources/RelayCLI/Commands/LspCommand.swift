import ArgumentParser
import Foundation
import RelayRuntime

/// `relay lsp`: the language server editors start (Docs/Editors.md).
struct LspCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Serve editors the checker's diagnostics, over the Language Server Protocol on standard input and output.",
        discussion: "An editor starts it; it ends when the editor says 'exit' or closes its input (Docs/Editors.md).")

    @Flag(name: .customLong("stdio"), help: ArgumentHelp("Speak on standard input and output (the only way; editors often pass it).")) var stdio = false

    func run() async throws {
        let registry = try RelayCommand.registry()
        let server = LanguageServer(loader: WorkflowLoader(registry: registry)) { body in
            MessageFraming.write(body, to: 1)
        }
        let status = await server.serve(MessageFraming.frames(from: 0))
        if status != 0 { throw ExitCode(status) }
    }
}
