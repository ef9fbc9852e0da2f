import Foundation
import RelayKit
import Testing

/// Every built-in action's examples (Docs/Actions.md, `relay describe`), from its declaration:
/// each passes `relay check`, and one that says what it prints prints exactly that.
@Suite("Every action's examples check, and print what they say")
struct ActionExampleTests {
    @Test("each built-in action has an example; each example checks; each with an output prints it")
    func examples() async throws {
        let listed = try await RelayProcess.running(["actions", "--json"])
        guard case .list(let actions) = try JSONReader.value(from: listed.standardOutput) else {
            Issue.record("relay actions --json printed no list")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-examples-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The one file an example names that must exist for the check: run-workflow's helper.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("helpers"), withIntermediateDirectories: true)
        try "steps:\n  - comment: resize\n".write(to: folder.appendingPathComponent("helpers/resize.yaml"), atomically: true, encoding: .utf8)
        var count = 0
        for action in actions {
            let name = try action.property("name").textValue
            let examples = try action.property("examples").asList
            #expect(!examples.isEmpty, "'\(name)' has no example")
            for (index, example) in examples.enumerated() {
                let steps = try example.property("steps").textValue
                let file = folder.appendingPathComponent("\(name)-\(index).yaml")
                try ("steps:\n" + steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n")
                    .write(to: file, atomically: true, encoding: .utf8)
                let checked = try await RelayProcess.running(["check", file.path], in: folder)
                #expect(checked.status == 0, "\(name) example \(index + 1): \(checked.standardError)")
                guard case .text(let output) = try example.property("output") else { continue }
                // An example that starts a program is granted exactly that.
                let starts = try action.property("capabilities").asList.contains(.text("run"))
                let ran = try await RelayProcess.running(["run", file.path] + (starts ? ["--allow-run"] : []), in: folder)
                #expect(ran.status == 0, "\(name) example \(index + 1): \(ran.standardError)")
                #expect(ran.standardOutput == (output.isEmpty ? "" : output + "\n"), "\(name) example \(index + 1)")
                count += 1
            }
        }
        #expect(count > 40, "only \(count) examples say what they print")
    }
}
