import ArgumentParser
import RelayKit
import RelayLanguage
import RelayRuntime

/// `relay check FILE…`: reports every problem without running anything.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check", abstract: "Check workflow files without running them.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "The workflow files.") var files: [String]
    @Option(help: "How to print diagnostics: text or json.") var format: Format = .text
    @OptionGroup var packageOptions: PackageOptions

    func run() async throws {
        let (registry, loaded) = try await packageOptions.registry()
        let base = WorkflowLoader(registry: registry, loadedPackages: loaded)
        var all: [Diagnostic] = []
        for file in files {
            let loader = try await PackageOptions.loading(packagesOf: file, into: base)
            all += loader.load(path: file).diagnostics
        }
        switch format {
        case .json:
            StandardStreams.writeOutput(JSONWriter.string(for: .list(all.map(\.jsonValue)), pretty: true) + "\n")
        case .text:
            RelayCommand.report(all)
        }
        let errors = all.filter { $0.severity == .error }.count
        if format == .text, errors > 0 {
            StandardStreams.writeError("\(errors) error\(errors == 1 ? "" : "s") in \(files.count) file\(files.count == 1 ? "" : "s")\n")
        }
        if errors > 0 { throw ExitStatus.invalid.exitCode }
    }
}
