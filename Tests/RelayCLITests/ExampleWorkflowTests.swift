import Foundation
import Testing

/// Every workflow in `workflows/` runs and prints exactly `workflows/expected/NAME.out`
/// (with the arguments in `NAME.args`, one per line, if present, and the environment variables in
/// `NAME.env`, `NAME=VALUE` a line: a secret's, say), in a fresh home folder seeded with copies of
/// `workflows/data/home` (a `~/Pictures` and `~/Notes` whose files are new today).
@Suite("Example workflows")
struct ExampleWorkflowTests {
    static let folder = RelayProcess.root.appendingPathComponent("workflows")

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The variables of `expected/NAME.env`, if there is one.
    static func environment(of name: String) -> [String: String] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("expected/\(name).env"), encoding: .utf8)) ?? ""
        var variables: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            variables[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return variables
    }

    @Test("there are at least 8 examples, each with its expected output")
    func count() {
        #expect(Self.names.count >= 8)
        #expect(!Self.shortcuts.isEmpty)
        for name in Self.names {
            #expect(FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent("expected/\(name).out").path), "\(name)")
        }
    }

    @Test("each example prints its expected output", arguments: names)
    func example(name: String) async throws {
        let expected = try String(contentsOf: Self.folder.appendingPathComponent("expected/\(name).out"), encoding: .utf8)
        let argumentsFile = Self.folder.appendingPathComponent("expected/\(name).args")
        let extra = (try? String(contentsOf: argumentsFile, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        // A home of its own: examples that write files write under ~/relay-examples, and the undo journal goes there too.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("relay-example-home-\(UUID().uuidString)")
        try Self.copyFresh(from: Self.folder.appendingPathComponent("data/home"), to: home)
        // As on a machine with no desktop session: no clipboard or notification server to reach,
        // so clipboard-to-pdf takes its fallback file wherever the tests run.
        let result = try await RelayProcess.running(
            ["run", "workflows/\(name).yaml"] + extra,
            environment: ["HOME": home.path, "DISPLAY": "", "WAYLAND_DISPLAY": ""].merging(Self.environment(of: name)) { $1 })
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == expected)
        #expect(result.standardError.isEmpty)
    }

    /// Copies the files under `source` to `destination` byte by byte, so that each copy is new:
    /// created, added and modified now, as if just imported.
    static func copyFresh(from source: URL, to destination: URL) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: destination, withIntermediateDirectories: true)
        guard let paths = manager.enumerator(atPath: source.path) else { return }
        for case let path as String in paths {
            let from = source.appendingPathComponent(path)
            let to = destination.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: from.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                try manager.createDirectory(at: to, withIntermediateDirectories: true)
            } else {
                try Data(contentsOf: from).write(to: to)
            }
        }
    }

    @Test("relay check --permissions of each example gives its expected report (workflows/expected/NAME.permissions)", arguments: names)
    func permissions(name: String) async throws {
        let expected = try String(contentsOf: Self.folder.appendingPathComponent("expected/\(name).permissions"), encoding: .utf8)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("relay-example-home-\(UUID().uuidString)")
        let result = try await RelayProcess.running(
            ["check", "--permissions", "workflows/\(name).yaml"], environment: ["HOME": home.path].merging(Self.environment(of: name)) { $1 })
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == expected)
    }

    /// The shortcuts in `workflows/shortcuts`, each imported as `workflows/NAME.yaml`.
    static var shortcuts: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("shortcuts").path)) ?? [])
            .filter { $0.hasSuffix(".shortcut") }.map { String($0.dropLast(9)) }.sorted()
    }

    @Test("each example shortcut imports to its example workflow, and runs as it does", arguments: shortcuts)
    func shortcut(name: String) async throws {
        let imported = try await RelayProcess.running(["import", "workflows/shortcuts/\(name).shortcut"])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput == (try String(contentsOf: Self.folder.appendingPathComponent("\(name).yaml"), encoding: .utf8)))
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("relay-example-home-\(UUID().uuidString)")
        let run = try await RelayProcess.running(["run", "workflows/shortcuts/\(name).shortcut"], environment: ["HOME": home.path])
        #expect(run.standardOutput == (try String(contentsOf: Self.folder.appendingPathComponent("expected/\(name).out"), encoding: .utf8)))
    }

    @Test("every example passes relay check")
    func check() async throws {
        let files = Self.names.map { "workflows/\($0).yaml" } + ["workflows/lib/line-total.yaml"]
        let secrets = Self.names.reduce(into: [String: String]()) { $0.merge(Self.environment(of: $1)) { $1 } }
        let result = try await RelayProcess.running(["check"] + files, environment: secrets)
        #expect(result.status == 0, "\(result.standardError)")
    }
}
