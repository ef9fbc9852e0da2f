import Foundation
import Testing

/// Every YAML block of README.md and Docs/ is a workflow that `relay check` passes: a whole
/// workflow (with `steps:`), or steps (a list, checked as a workflow's steps). A block of comments
/// alone (an editor's modeline) is not a workflow. With the package suite, so that TrailKit, which
/// the README's example finds trails with, is built once for both.
extension PackageTests {
    /// The YAML blocks of `file` (a path under the repository), each with the line its text starts on.
    static func yamlBlocks(in file: String) throws -> [(line: Int, text: String)] {
        let text = try String(contentsOf: RelayProcess.root.appendingPathComponent(file), encoding: .utf8)
        var blocks: [(Int, String)] = []
        var current: [String]?
        var start = 0
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```yaml" {
                current = []
                start = index + 2
            } else if current != nil, trimmed == "```" {
                blocks.append((start, (current ?? []).joined(separator: "\n") + "\n"))
                current = nil
            } else if current != nil {
                current?.append(String(line))
            }
        }
        return blocks
    }

    /// The block as a workflow file: itself, or its steps under `steps:`; nil for comments alone.
    static func workflow(ofBlock block: String) -> String? {
        let lines = block.split(separator: "\n").map(String.init)
        let meaningful = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
        guard let first = meaningful.first else { return nil }
        if lines.contains(where: { $0.hasPrefix("steps:") }) { return block }
        if first.hasPrefix("- ") || first == "-" { return "steps:\n" + lines.map { "  " + $0 }.joined(separator: "\n") + "\n" }
        return block
    }

    @Test("every YAML block of README.md and Docs/ passes relay check")
    func documentedWorkflowsCheck() async throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: RelayProcess.root.appendingPathComponent("Docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "Docs/\($0)" }
        // The one file a documented example names that must exist for the check: run-workflow's helper.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("helpers"), withIntermediateDirectories: true)
        try "steps:\n  - comment: resize\n".write(to: folder.appendingPathComponent("helpers/resize.yaml"), atomically: true, encoding: .utf8)
        // And the folder a documented trigger watches, in a home of the test's own.
        let home = folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("Downloads"), withIntermediateDirectories: true)
        var checked = 0
        for file in ["README.md"] + docs {
            for block in try Self.yamlBlocks(in: file) {
                guard let text = Self.workflow(ofBlock: block.text) else { continue }
                let name = "\(file.replacingOccurrences(of: "/", with: "-"))-\(block.line).yaml"
                try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
                // A secret a block declares is set, to a value of no meaning, for the check.
                var environment: [String: String] = [
                    "RELAY_KEYRING": "off", "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "HOME": home.path,
                ]
                for line in text.split(separator: "\n") where line.hasPrefix("secrets: [") {
                    for secret in line.dropFirst("secrets: [".count).prefix(while: { $0 != "]" }).split(separator: ",") {
                        environment[secret.trimmingCharacters(in: .whitespaces)] = "placeholder-value"
                    }
                }
                let result = try await relay(["check", name], environment: environment)
                #expect(result.status == 0, "\(file):\(block.line): \(result.standardError)")
                checked += 1
            }
        }
        #expect(checked > 90, "only \(checked) blocks checked")
    }

    @Test("a documented `relay run` of an example workflow prints what the docs show")
    func documentedRunsPrintWhatTheyShow() async throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: RelayProcess.root.appendingPathComponent("Docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "Docs/\($0)" }
        var compared = 0
        for file in ["README.md"] + docs {
            let text = try String(contentsOf: RelayProcess.root.appendingPathComponent(file), encoding: .utf8)
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
            while let start = lines.firstIndex(of: "```console") {
                lines = lines[(start + 1)...]
                guard let end = lines.firstIndex(of: "```") else { break }
                let block = Array(lines[..<end])
                lines = lines[(end + 1)...]
                // `$ relay run workflows/NAME.yaml` alone, then what it prints, up to the next command.
                for (index, line) in block.enumerated() where line.hasPrefix("$ relay run workflows/") {
                    let words = line.dropFirst(2).split(separator: " ")
                    guard words.count == 3, words[2].hasSuffix(".yaml") else { continue }
                    let shown = block[(index + 1)...].prefix { !$0.hasPrefix("$ ") }
                    let result = try await RelayProcess.running(["run", String(words[2])])
                    // One that asks for a grant shows the question a terminal gets: not this run's.
                    guard result.status == 0 else { continue }
                    #expect(result.standardOutput == shown.map { $0 + "\n" }.joined(), "\(file): \(line)")
                    compared += 1
                }
            }
        }
        #expect(compared >= 1)
    }
}
