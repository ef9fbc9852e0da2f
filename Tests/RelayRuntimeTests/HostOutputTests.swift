import Foundation
import RelayKit
import RelayEngine
import Testing

@testable import RelayRuntime

/// Relay holds a package's actions to the outputs their manifest declares, however the host was
/// built: what the checker was told is what the next step gets.
@Suite("A package's declared outputs")
struct HostOutputTests {
    @Test("a host whose answer is not the declared list of numbers fails the step, naming what was declared and what came")
    func lyingHost() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-outputs-\(UUID().uuidString)")
        let data = folder.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Every `perform` is answered with a list holding a text.
        let executable = try standInHost(in: folder, capabilities: ["perform"], result: #"'{"value":{"list":[{"number":1},{"text":"two"}]}}'"#)
        let manifest = try await PackageManifest(json: [
            "protocol": .number(Double(HostProtocol.version)), "name": "liar",
            "actions": [["name": "numbers", "title": "Numbers", "output": "list", "output-item": "number", "parameters": []]],
        ])
        let package = HostedPackage(path: folder.path, manifest: manifest, executable: executable, dataFolder: data.path, connection: nil)
        defer { package.close() }
        var registry = registry(with: [])
        try registry.register(hosted: package)
        var error: RuntimeError?
        // A script just written may be open for writing in a child another test is forking.
        for _ in 0..<20 {
            do {
                _ = try await run(steps: "- liar.numbers", registry: registry)
                break
            } catch let failure as RuntimeError {
                error = failure
                if !failure.message.contains("busy") { break }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        #expect(error?.message.contains("the package's action 'liar.numbers' says it outputs a list of number but gave a list whose item 2 is a text") == true,
            "\(String(describing: error))")
    }
}
