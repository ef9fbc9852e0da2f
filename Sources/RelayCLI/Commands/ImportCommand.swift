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
        let source = SourceFile(path: path, text: imported.yaml)
        // Only what reads back as a workflow is written to a file.
        let parsed = WorkflowParser.parse(source).workflow != nil
        let (_, diagnostics) = loader.load(source)
        if let output {
            // A new file, or one there is replaced: a device, a FIFO or a folder there is refused,
            // never replaced by a file (`-o /dev/null` would remove the device for everyone).
            var status = stat()
            if lstat(output, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
                StandardStreams.writeError("error: cannot write '\(output)': it is not a regular file; -o names a file to write (leave it out to print the workflow)\n")
                throw ExitStatus.invalid.exitCode
            }
            guard parsed else {
                StandardStreams.writeError("error: the workflow made from '\(file)' does not read back; nothing was written\n")
                RelayCommand.report(diagnostics)
                throw ExitStatus.invalid.exitCode
            }
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
