import Foundation
import RelayKit
import Testing

@testable import RelayRuntime

/// Stands in for a process that swaps a file for a symbolic link between the gate's check and the
/// read (a package host racing the run, Docs/Security.md, "Opening what was checked"): it makes the
/// swap after the gate allowed the file, then reads the file, or copies it, or sends it.
struct SwapThenRead: Intent {
    static let name = "swap-then-read"
    static let summary = "Replaces its input file by a link to 'target', then reads it."
    static let output = ValueType.text

    @Parameter(input: true, summary: "The file.", access: .read) var file: FileReference
    @Parameter(primary: true, summary: "Where the link points.") var target: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        try FileManager.default.removeItem(atPath: file.path)
        try FileManager.default.createSymbolicLink(atPath: file.originalPath, withDestinationPath: target)
        return .value(.text(String(decoding: try file.contents(), as: UTF8.self)))
    }
}

enum Racers: IntentPackage {
    static let name = "racers"
    static let intents: [any Intent.Type] = [SwapThenRead.self]
}

@Suite("Opening what the gate checked")
struct OpenWhatWasCheckedTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-race-\(UUID().uuidString)")

    @Test("a file swapped for a link to a secret after the gate allowed it is not read: the read opens the allowed path, following no link")
    func swappedForLink() async throws {
        let shared = folder.appendingPathComponent("shared")
        let secret = folder.appendingPathComponent("private/id_rsa")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: secret.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "PRIVATE KEY".write(to: secret, atomically: true, encoding: .utf8)
        let data = shared.appendingPathComponent("data.txt")
        try "harmless".write(to: data, atomically: true, encoding: .utf8)
        do {
            let value = try await run(
                steps: "- text: \"\(data.path)\"\n- convert: file\n- swap-then-read: \"\(secret.path)\"",
                registry: registry(with: [Racers.self]), granted: [.read: .only([shared.path])])
            Issue.record("the swapped file was read: \(value)")
        } catch let error as RuntimeError {
            #expect(error.message.contains("changed after it was allowed"), "\(error.message)")
        }
        // Without the swap, a link inside an allowed folder to a file inside it is read as usual.
        try FileManager.default.removeItem(at: data)
        try "harmless".write(to: data, atomically: true, encoding: .utf8)
        let link = shared.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: data.path)
        let read = try await run(
            steps: "- read-file: \"\(link.path)\"\n- get-text", registry: registry(with: [Racers.self]), granted: [.read: .only([shared.path])])
        #expect(read.textValue == "harmless")
    }
}
