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

/// A lake whose depth a survey service answers for many lakes at once: each call is counted.
struct Tarn: Entity {
    static let typeName = EntityTypeName("tarn")
    static let calls = Mutex<[Int]>([])
    static let properties: [EntityProperty<Tarn>] = [
        .stored("name", \.name),
        .deferred("depth", many: { tarns in
            calls.withLock { $0.append(tarns.count) }
            return tarns.map(\.depth)
        }),
    ]
    static var defaultQuery: any EntityQuery<Tarn> { SampleQuery(items: samples) }
    static let samples = (1...20).map { Tarn(id: "t\($0)", name: "Tarn \($0)", depth: Double($0 * 3 % 17)) }

    let id: String
    let name: String
    let depth: Double
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: name) }
}

enum SummitKit: IntentPackage {
    static let name = "summits"
    static let intents: [any Intent.Type] = []
    static let entities: [any Entity.Type] = [Summit.self, Tarn.self]
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

    @Test("a property fetched for many at once: find's filter and sort ask once for all twenty tarns, a step for one asks for one")
    func fetchedTogether() async throws {
        Tarn.calls.withLock { $0 = [] }
        let steps = """
            - find: tarns
              where: { depth: { at-least: 10 } }
              sort: { by: depth, order: descending }
              limit: 3
            - text: "${previous.depth}"
            """
        let output = try await run(steps: steps, registry: registry(with: [SummitKit.self]))
        #expect(output.textValue == "16\n15\n14")
        #expect(Tarn.calls.withLock { $0 } == [20])
        _ = try await run(steps: "- find: tarns\n  limit: 1\n- text: \"${previous.depth}\"", registry: registry(with: [SummitKit.self]))
        #expect(Tarn.calls.withLock { $0 } == [20, 1])
    }
}
