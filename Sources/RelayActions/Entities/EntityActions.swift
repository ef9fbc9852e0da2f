import Foundation
import RelayKit
import RelayEngine

/// Actions on entities of any type: `find`, `get-url`, `search`.
public enum EntityActions: IntentPackage {
    public static let name = "entities"
    public static let intents: [any Intent.Type] = [Find.self, GetURL.self, Search.self]
}

/// `find`: the entities of a type that match conditions, through the type's query (Docs/Language.md, "Entities").
struct Find: Intent {
    static let summary = "Finds entities of a type (singular or plural name, e.g. 'photos') that match 'where', sorted and limited; what the type's query can do itself is handed to it."
    static let examples = [
        IntentExample("- find: photos\n  where: { width: { greater-than: 3000 } }\n  sort: { by: dateAdded, order: descending }\n  limit: 10"),
    ]
    /// Reads the folder of the library it finds in (photos: `~/Pictures`, notes: `~/Notes`).
    static let capabilities: [Capability] = [.read]
    static let output = OutputType.list

    @Parameter(primary: true, summary: "The entity type: photo, note, or a package's type.") var type: String
    @Parameter(name: "where", summary: "PROPERTY: VALUE or PROPERTY: {COMPARATOR: VALUE}; each property accepts the comparators that fit its type.")
    var conditions: ValueDictionary?
    @Parameter(summary: "Whether every condition must hold, or any one.", choices: ["all", "any"]) var match: String = "all"
    @Parameter(summary: "A property, or {by: PROPERTY, order: ascending|descending}, or a list of those; or random, a random order.") var sort: Value?
    @Parameter(summary: "At most this many entities.") var limit: Int?

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let catalog = context.entityTypes
        guard let descriptor = catalog.descriptor(named: type) else {
            throw IntentError(EntityTypeNaming.unknown(type, in: catalog))
        }
        let validation = FilterValidation(entityType: descriptor)
        if let problem = validation.problems(where: conditions ?? [:], sort: sort).first {
            throw problem
        }
        let clauses = validation.withRawCases(conditions ?? [:])
        let query = try FilterQuery(where: clauses, matchAll: match.lowercased() != "any", sort: sort, limit: limit)
        try await context.authorizeFinding(descriptor)
        return .value(.list(try await EntityFinder.find(descriptor, query).map(Value.entity)))
    }
}

/// `get-url`: an entity's URL, from its type's URL template (Docs/Language.md, "Opening URLs").
struct GetURL: Intent {
    static let name = "get-url"
    static let summary = "Outputs the URL of the input entity, made from its type's URL template."
    static let examples = [
        IntentExample("- find: notes\n  limit: 1\n- get-url"),
    ]
    static let output = OutputType.url

    @Parameter(primary: true, input: true, summary: "The entity, or a list of them (a URL passes through).") var entity: Value

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(try await entity.eachItem { item in
            switch item {
            case .entity(let entity): return .url(try await entity.url())
            case .url: return item
            default:
                throw IntentError("get-url takes an entity whose type has a URL template, not \(item.briefDescription)")
            }
        })
    }
}

/// Messages about entity type names.
enum EntityTypeNaming {
    /// `unknown entity type 'phots'; did you mean 'photos'? (the entity types are photo, note)`.
    static func unknown(_ name: String, in catalog: EntityCatalog) -> String {
        let unknown = catalog.unknownTypeMessage(name)
        return "\(unknown.message) (\(unknown.note))"
    }
}
