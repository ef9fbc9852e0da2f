import CGraphics
import Foundation
import RelayKit
import Testing

@testable import RelayActions
@testable import RelayRuntime

/// Every number a built-in action takes, at the ends of what a workflow can write, is a result or
/// a located error — never a crash (Docs/Reliability.md, "No crash, no hang, bounded memory").
@Suite("Numbers at their limits, in every built-in action")
struct ExtremeNumberTests {
    static let extremes = ["-9223372036854775808", "9223372036854775807", "-9223372036854775807", "1e300", "-1e300", ".nan", ".inf", "-.inf"]

    /// The built-in actions with a number parameter, by name.
    static let actions: [String] = registry.actions
        .filter { action in action.parameters.contains { $0.type == .number && !$0.isInput } }
        .map(\.name).filter { !["ask", "ask-for-input", "choose-from-list", "choose-from-menu", "wait"].contains($0) }

    @Test("every number parameter at Int.min, Int.max, ±1e300, NaN and ±infinity", arguments: actions)
    func extremes(action: String) async throws {
        let definition = try #require(registry.action(named: action))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-extremes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A 4×3 image, for the actions that take one.
        let image = try RasterImage.blank(width: 4, height: 3)
        try image.encoded(as: .png, quality: 100).write(to: folder.appendingPathComponent("a.png"))
        let input = definition.parameters.first(where: \.isInput)
        let first = input.map { $0.accepts.contains(.image) || $0.type == .file ? "- read-file: a.png\n" : "- list: [1, 2, 3]\n" } ?? ""
        for parameter in definition.parameters where parameter.type == .number && !parameter.isInput {
            for value in Self.extremes {
                // The other required parameters get plain values.
                var arguments = ["\(parameter.name): \(value)"]
                for other in definition.parameters where other.isRequired && !other.isInput && other.name != parameter.name {
                    arguments.append("\(other.name): " + (other.type == .number ? "1" : other.choices.first ?? "x"))
                }
                let steps = first + "- \(action): { \(arguments.joined(separator: ", ")) }"
                do {
                    _ = try await RelayRuntimeTests.run(
                        steps, path: folder.appendingPathComponent("w.yaml").path, granted: writing(folder))
                } catch let error as RuntimeError {
                    #expect(!error.message.isEmpty)
                } catch {
                    // A check error or an intent's own: anything thrown is not a crash.
                }
            }
        }
    }
}
