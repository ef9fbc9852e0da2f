import Foundation
import RelayKit
import RelayLanguage
import Testing

@testable import RelayCLI

private enum Level: String, AppEnum {
    case low, high
    static let caseDisplayRepresentations: [Level: DisplayRepresentation] = [.high: "High"]
}

/// Takes a list of levels.
private struct PickLevels: Intent {
    static let summary = "Says the levels it was given."
    static let output = OutputType.text
    @Parameter(primary: true) var levels: [Level]
    func perform(_ context: any IntentContext) async throws -> IntentResult { .value(.text(levels.map(\.rawValue).joined())) }
}

/// An entity with a list of levels.
private struct Climb: Entity {
    static let typeName = EntityTypeName("climb")
    static var defaultQuery: any EntityQuery<Climb> { ClimbQuery() }
    let id: String
    @Property var levels: [Level]
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: id) }
}

private struct ClimbQuery: EntityQuery {
    func entities(for ids: [String]) async throws -> [Climb] { [] }
    func allEntities() async throws -> [Climb] { [] }
}

private enum Levels: IntentPackage {
    static let name = "levels"
    static let intents: [any Intent.Type] = [PickLevels.self]
}

@Suite("A list of an enum's cases in describe and the schema")
struct EnumListViewTests {
    @Test("describe says a list of which cases; the schema takes a list of them, or one")
    func views() throws {
        var registry = ActionRegistry()
        try registry.register(Levels.self, prefixed: false)
        let action = try #require(registry.action(named: "pick-levels"))
        #expect(ActionCatalog.describeType(action.parameters[0]) == "list of (low | High (high))")
        let schema = WorkflowSchema.schema(for: registry)
        let levels = try schema.property("definitions").property("action:pick-levels").property("properties").property("pick-levels")
            .property("then").property("properties").property("levels")
        let item: Value = ["anyOf": [["enum": ["low", "high", "High"]], ["$ref": "#/definitions/expression"]]]
        #expect(try levels.property("anyOf") == [["type": "array", "items": item], item], "\(levels)")
        // An entity's property of that type is described the same way.
        #expect(TypeCatalog.describe(EntityDescriptor.of(Climb.self)).contains("  levels  list of (low | High (high))"))
    }
}
