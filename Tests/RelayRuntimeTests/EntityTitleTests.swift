import Foundation
import RelayKit
import RelayLanguage
import Testing

@testable import RelayRuntime

/// An edition of a book: its own `title` field, and a display title that adds the year.
private struct Edition: Entity {
    static let typeName = EntityTypeName("edition")
    static var defaultQuery: any EntityQuery<Edition> { EditionQuery() }
    let id: String
    @Property var title: String
    @Property var year: Int
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(title) [\(year)]") }
    static let all = [Edition(id: "1", title: "Dune", year: 1965), Edition(id: "2", title: "Emma", year: 1815)]
}

private struct EditionQuery: EntityQuery {
    func entities(for ids: [String]) async throws -> [Edition] { Edition.all.filter { ids.contains($0.id) } }
    func allEntities() async throws -> [Edition] { Edition.all }
}

private enum Editions: IntentPackage {
    static let name = "editions"
    static let intents: [any Intent.Type] = []
    static let entities: [any Entity.Type] = [Edition.self]
}

@Suite("An entity type's own title property")
struct EntityTitleTests {
    @Test("a declared title is the one a workflow reads, filters and sorts on; the display title stays what is shown")
    func ownTitle() async throws {
        let editions = registry(with: [Editions.self])
        #expect(try await run(steps: "- find: editions\n  where: { title: Dune }\n- count", registry: editions) == 1)
        #expect(try await run(steps: "- find: editions\n  where: { title: Dune }\n- text: \"${previous.title}\"", registry: editions) == "Dune")
        #expect(try await run(steps: "- find: editions\n  sort: title\n  limit: 1\n- text: \"${previous.id}\"", registry: editions) == "1")
        let descriptor = try #require(editions.entityTypes.descriptor(named: "edition"))
        #expect(descriptor.filterablePropertyNames == ["id", "title", "subtitle", "year"])
        // Named once where a message lists them.
        let unknown = await #expect(throws: RuntimeError.self) {
            try await run(steps: "- find: editions\n  limit: 1\n- text: \"${previous.yaer}\"", registry: editions)
        }
        #expect(unknown?.message.contains("id, title, subtitle, year") == true, "\(String(describing: unknown))")
    }
}
