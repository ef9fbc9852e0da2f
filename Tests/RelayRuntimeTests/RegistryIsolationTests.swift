import Foundation
import RelayActions
import RelayKit
import RelayEngine
import RelayLanguage
import Testing

@testable import RelayRuntime

/// Two packages that both claim `.gpx` files, with content types and file properties of their own.
enum TrackTools: IntentPackage {
    static let name = "TrackTools"
    static let intents: [any Intent.Type] = []
    static let contentTypes = [ContentTypeDeclaration("com.example.tracktools.gpx", conformsTo: [.text], extensions: ["gpx"])]
    static let fileProperties = [FilePropertyReader(contentType: ContentType("com.example.tracktools.gpx"), name: "points") { _ in .number(1) }]
}

enum RouteTools: IntentPackage {
    static let name = "RouteTools"
    static let intents: [any Intent.Type] = []
    static let contentTypes = [ContentTypeDeclaration("org.example.routetools.gpx", conformsTo: [.data], extensions: ["gpx"])]
    static let fileProperties = [
        FilePropertyReader(contentType: ContentType("org.example.routetools.gpx"), name: "waypoints") { _ in .number(2) }
    ]
}

/// Settings travel with the run (Docs/Architecture.md): what one registry's packages declare is
/// not seen by another's run in the same process.
@Suite("Two registries in one process")
struct RegistryIsolationTests {
    @Test("two runs side by side each see their own registry's content types and file properties, and only those")
    func sideBySide() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-isolation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let track = folder.appendingPathComponent("walk.gpx").path
        try Data("<gpx/>".utf8).write(to: URL(fileURLWithPath: track))
        let tracks = registry(with: [TrackTools.self])
        let routes = registry(with: [RouteTools.self])
        let header = "input: file\n"
        let granted: [Capability: GrantScope] = [.read: .only([folder.path])]
        async let first = run(steps: "- text: \"${input.type} ${input.points}\"", registry: tracks, header: header, input: .text(track), granted: granted)
        async let second = run(
            steps: "- text: \"${input.type} ${input.waypoints}\"", registry: routes, header: header, input: .text(track), granted: granted)
        #expect(try await first == .text("com.example.tracktools.gpx 1"))
        #expect(try await second == .text("org.example.routetools.gpx 2"))
        // The other registry's property is unknown to each; the error lists its own.
        do {
            _ = try await run(steps: "- text: \"${input.waypoints}\"", registry: tracks, header: header, input: .text(track), granted: granted)
            Issue.record("a property of the other registry's files was read")
        } catch let error as RuntimeError {
            #expect(error.message.contains("a file has no property 'waypoints'; it has name, stem, path, url, extension, size, created, modified, type, mimeType, points"))
        }
        // And the built-in registry knows neither type.
        #expect(try await run(steps: "- text: \"${input.type}\"", registry: registry, header: header, input: .text(track), granted: granted) != .text("com.example.tracktools.gpx"))
    }
}
