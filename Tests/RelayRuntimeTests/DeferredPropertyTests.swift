import Foundation
import RelayKit
import Synchronization
import Testing

@testable import RelayRuntime

/// A summit whose weather is deferred: each fetch is counted.
struct Summit: Entity {
    static let typeName = EntityTypeName("summit")
    static let fetches = Mutex<[String: Int]>([:])
    static let properties: [EntityProperty<Summit>] = [
        .stored("name", \.name),
        .deferred("snow") { summit in
            fetches.withLock { $0[summit.id, default: 0] += 1 }
            return summit.snow
        },
    ]
    static var defaultQuery: any EntityQuery<Summit> { SampleQuery(items: samples) }
    static let samples = [
        Summit(id: "s1", name: "Ridge", snow: 40), Summit(id: "s2", name: "Echo", snow: 5), Summit(id: "s3", name: "Crater", snow: 120),
    ]

    let id: String
    let name: String
    let snow: Double
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: name) }
}

enum SummitKit: IntentPackage {
    static let name = "summits"
    static let intents: [any Intent.Type] = []
    static let entities: [any Entity.Type] = [Summit.self]
}

@Suite("Deferred properties are fetched once per entity in a run", .serialized)
struct DeferredPropertyTests {
    @Test("find filters and sorts on a deferred property, steps read it, a second find finds the same summits: one fetch each")
    func fetchedOnce() async throws {
        Summit.fetches.withLock { $0 = [:] }
        let steps = """
            - find: summits
              where: { snow: { greater-than: 10 } }
              sort: snow
            - text: "${previous.snow}"
            - find: summits
              sort: { by: snow, order: descending }
            - text: "${previous.snow}"
            """
        let output = try await run(steps: steps, registry: registry(with: [SummitKit.self]))
        #expect(output.textValue == "120\n40\n5")
        #expect(Summit.fetches.withLock { $0 } == ["s1": 1, "s2": 1, "s3": 1])
        // Another run fetches again: what is fetched lasts one run.
        _ = try await run(steps: "- find: summits\n  where: { snow: { at-least: 0 } }", registry: registry(with: [SummitKit.self]))
        #expect(Summit.fetches.withLock { $0 } == ["s1": 2, "s2": 2, "s3": 2])
    }
}
