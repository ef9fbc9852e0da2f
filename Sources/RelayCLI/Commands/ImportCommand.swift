import ArgumentParser
import Foundation
import RelayKit
import RelayLanguage
import RelayRuntime
import RelayShortcuts

/// `relay import FILE`: a shortcut exported from Apple's Shortcuts app, as a workflow
/// (Docs/Shortcuts.md).
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Turn a shortcut from Apple's Shortcuts app into a workflow file.",
        discussion: """
            Reads a .shortcut, .plist or .wflow file (an XML or binary property list) and writes the workflow \
            to standard output, or to the file -o names. Actions with no equivalent in Relay are all listed, \
            and nothing is written (exit status 2); --partial writes a 'fail' step in the place of each. \
            'relay run FILE.shortcut' runs a shortcut without writing anything (Docs/Shortcuts.md).
            """)

    @Argument(help: "The shortcut file.") var file: String
    @Option(name: .shortAndLong, help: "Write the workflow to this file instead of standard output.") var output: String?
    @Flag(help: "Write a 'fail' step for each action with no equivalent, rather than stopping.") var partial = false

    func run() async throws {
        let registry = try RelayCommand.registry()
        let imported: ShortcutImport
        do {
            imported = try ShortcutSource.imported(file, actions: registry.actions, partial: partial)
        } catch {
            StandardStreams.writeError("error: \(file): \(error)\n")
            throw ExitStatus.invalid.exitCode
        }
        if !imported.unmapped.isEmpty, !partial {
            var lines = ["error: \(imported.unmapped.count == 1 ? "an action" : "\(imported.unmapped.count) actions") of '\(file)' \(imported.unmapped.count == 1 ? "has" : "have") no equivalent in Relay:"]
            lines += imported.unmapped.map { "  \($0)" }
            lines.append("help: --partial writes a 'fail' step in the place of each, so that the rest can be read and edited")
            StandardStreams.writeError(lines.joined(separator: "\n") + "\n")
            throw ExitStatus.invalid.exitCode
        }
        // What is written passes 'relay check'; a shortcut that does not is said at once.
        let loader = WorkflowLoader(registry: registry)
        let path = output ?? file
        let (_, diagnostics) = loader.load(SourceFile(path: path, text: imported.yaml))
        if let output {
            do {
                try AtomicFile.write(Data(imported.yaml.utf8), to: output)
            } catch {
                StandardStreams.writeError("error: cannot write '\(output)': \(error)\n")
                throw ExitStatus.runtimeError.exitCode
            }
        } else {
            StandardStreams.writeOutput(imported.yaml)
        }
        if !imported.unmapped.isEmpty {
            StandardStreams.writeError(
                "warning: \(imported.unmapped.count) \(imported.unmapped.count == 1 ? "action has" : "actions have") no equivalent and became 'fail' steps:\n"
                    + imported.unmapped.map { "  \($0)\n" }.joined())
        }
        let shown = diagnostics.filter { $0.severity == .error || $0.severity == .warning }
        if !shown.isEmpty { RelayCommand.report(shown) }
        if diagnostics.contains(where: { $0.severity == .error }) { throw ExitStatus.invalid.exitCode }
    }
}
