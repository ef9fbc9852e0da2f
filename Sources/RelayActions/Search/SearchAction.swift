import Foundation
import RelayKit

/// `search`: the indexed entities that best match some text (Docs/Language.md, "Entities").
struct Search: Intent {
    static let summary = "Finds the indexed entities (notes, and packages' indexed types) that best match the text, best first; 'type' keeps one type."
    static let examples = [
        IntentExample("- search: ridge walk\n  type: note"),
    ]
    /// Reads the folder of the library it finds in (photos: `~/Pictures`, notes: `~/Notes`).
    static let capabilities: [Capability] = [.read]
    static let output = OutputType.list

    @Parameter(primary: true, summary: "The words to look for; each must match, as a word or the start of one.") var text: String
    @Parameter(summary: "Only entities of this type (singular or plural).") var type: String?
    @Parameter(summary: "At most this many results.") var limit: Int = 20

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let catalog = context.entityTypes
        var types = catalog.indexed
        if let type {
            guard let descriptor = catalog.descriptor(named: type) else {
                throw IntentError(EntityTypeNaming.unknown(type, in: catalog))
            }
            guard descriptor.indexPriority != nil else {
                let indexed = catalog.indexed.map(\.name.singular).joined(separator: ", ")
                throw IntentError("\(descriptor.name.plural) are not indexed for search (indexed types: \(indexed.isEmpty ? "none" : indexed))")
            }
            types = [descriptor]
        }
        guard limit >= 0 else { throw IntentError("'limit' must be 0 or more, not \(limit)") }
        let index = try SearchIndex.shared()
        for descriptor in types {
            try await context.authorizeFinding(descriptor)
            try await index.synchronizeIfStale(descriptor)
        }
        let matches = try await index.search(text, types: types, limit: limit)
        var found: [String: EntityValue] = [:]
        for descriptor in types {
            let ids = matches.filter { $0.type == descriptor.name.singular }.map(\.id)
            guard !ids.isEmpty else { continue }
            for entity in try await descriptor.entities(for: ids) { found["\(entity.typeName)/\(entity.id)"] = entity }
        }
        return .value(.list(matches.compactMap { found["\($0.type)/\($0.id)"].map(Value.entity) }))
    }
}
