import Foundation
import ArgumentParser
import RelayKit
import RelayEngine
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
    @Flag(help: "Print what each workflow may touch (read, write, net, open, run, packages), worked out from its actions' declarations without running it.")
    var permissions = false
    @OptionGroup var packageOptions: PackageOptions

    func run() async throws {
        let base = try await packageOptions.loader()
        var all: [Diagnostic] = []
        var reports: [(file: String, report: PermissionReport, subWorkflows: [(path: String, report: PermissionReport)])] = []
        // The values of the secrets looked up, masked in whatever is printed.
        let secrets = RunSecrets()
        for file in files {
            // Only trusted packages are built: nothing is asked, and an untrusted one ends the check with status 4.
            let (gate, _) = GrantPrompt.gate(for: file, granted: [:], interactive: false, advisesFlags: false)
            let loader = try await PackageOptions.loading(packagesOf: file, into: base, gate: gate)
            let (workflow, diagnostics) = loader.load(path: file)
            all += await WorkflowChecking.diagnostics(of: workflow, loaded: diagnostics, secrets: secrets)
            if permissions, let workflow {
                reports.append((file, PermissionReport(workflow, entityTypes: loader.registry.entityTypes), SubWorkflowReports.collect(workflow, loader: loader)))
            }
        }
        if permissions, !all.contains(where: { $0.severity == .error }) {
            switch format {
            case .json:
                let values = reports.map { entry -> Value in
                    guard case .dictionary(var json) = entry.report.json, !entry.subWorkflows.isEmpty else { return entry.report.json }
                    json["workflows-run"] = .dictionary(ValueDictionary(uniqueKeysWithValues: entry.subWorkflows.map { ($0.path, $0.report.json) }))
                    return .dictionary(json)
                }
                let value: Value = reports.count == 1 ? values[0] : .dictionary(ValueDictionary(uniqueKeysWithValues: zip(reports.map(\.file), values).map { ($0, $1) }))
                StandardStreams.writeOutput(JSONWriter.string(for: value, pretty: true) + "\n")
            case .text:
                StandardStreams.writeOutput(reports.map { entry in
                    var text = reports.count == 1 ? entry.report.text() : "\(entry.file):\n" + entry.report.text()
                    // What the workflows it runs touch, asked for with its own before the first step.
                    for sub in entry.subWorkflows {
                        let lines = sub.report.text().split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
                        text += "in \(sub.report.file), which it runs:\n\(lines)\n"
                    }
                    return text
                }.joined(separator: "\n"))
            }
            RelayCommand.report(all, masking: secrets)
            return
        }
        switch format {
        case .json:
            StandardStreams.writeOutput(secrets.redact(JSONWriter.string(for: .list(all.map(\.jsonValue)), pretty: true) + "\n"))
        case .text:
            RelayCommand.report(all, masking: secrets)
        }
        let errors = all.filter { $0.severity == .error }.count
        if format == .text, errors > 0 {
            StandardStreams.writeError("\(errors) error\(errors == 1 ? "" : "s") in \(files.count) file\(files.count == 1 ? "" : "s")\n")
        }
        if errors > 0 { throw ExitStatus.invalid.exitCode }
    }
}
