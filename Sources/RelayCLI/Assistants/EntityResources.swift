import Foundation
import MCP
import RelayEngine
import RelayKit
import RelayLanguage

/// The entity types offered to an assistant as resources (Docs/Assistants.md, "Entities"): each
/// type a template, `relay://note/{id}`; listing them gives a few of each type, and reading one
/// gives the entity as `relay run --json` writes it, its properties fetched. Both are found by a
/// `find` step of a workflow written for the request, so that each goes through the gate like any
/// run, with `relay mcp`'s `--allow-…` alone, and is kept in the history.
struct EntityResources: Sendable {
    /// Each type's singular and plural name, and what finding its entities reads (its library's folder).
    let types: [(singular: String, plural: String, finding: Access?)]

    /// The most entities of each type a list gives.
    static let listed = 20

    init(_ catalog: EntityCatalog) {
        types = catalog.descriptors.map { ($0.name.singular, $0.name.plural, Access.finding($0)) }
    }

    var templates: [Resource.Template] {
        types.map { type in
            Resource.Template(
                uriTemplate: EntityResourceName.scheme + type.singular + "/{id}", name: type.singular, title: type.plural,
                description: "A \(type.singular), by its identifier: its properties as JSON. A tool's \(type.singular) argument takes this name too.",
                mimeType: "application/json")
        }
    }

    /// A few entities of each type the grants let it find; a type they do not is left out.
    func list(options: ToolRunOptions, folder: URL, calls: RunningRuns) async -> [Resource] {
        var resources: [Resource] = []
        // A type whose folder the grants do not cover is not looked in: a list is not a run denied each time.
        let gate = AccessGate(granted: options.granted)
        for type in types where type.finding.map { gate.allows($0) } ?? true {
            let text = Self.header(type.singular) + "steps:\n  - find: \(type.singular)\n    limit: \(Self.listed)\n"
            let result = await calls.run {
                await ActionTool.runWritten(text, named: "list-\(type.plural)", variables: [:], options: options, folder: folder, arguments: [:])
            }
            guard result.isError != true, case .array(let items)? = result.structuredContent?.objectValue?["output"] else { continue }
            for case .object(let entity) in items {
                guard let id = entity["id"]?.stringValue else { continue }
                resources.append(
                    Resource(
                        name: entity["title"]?.stringValue ?? id, uri: EntityResourceName.of(type: type.singular, id: id),
                        title: entity["title"]?.stringValue, mimeType: "application/json"))
            }
        }
        return resources
    }

    /// The entity `uri` names, as JSON; a protocol error when there is none, or the grants do
    /// not let it be found (saying which).
    func read(_ uri: String, options: ToolRunOptions, folder: URL, calls: RunningRuns) async throws -> ReadResource.Result {
        guard let (typeName, id) = EntityResourceName.parse(uri) else {
            throw MCPError.invalidParams("'\(Excerpt.start(of: uri))' is not a resource here: they are named relay://TYPE/ID")
        }
        guard let type = types.first(where: { $0.singular == typeName || $0.plural == typeName }) else {
            throw MCPError.invalidParams(
                "there is no entity type '\(Excerpt.start(of: typeName))'\(Suggestions.didYouMean(typeName, in: types.map(\.singular)))")
        }
        let text = Self.header(type.singular) + """
            variables:
              resource_id: { type: text }
            output: dictionary
            steps:
              - find: \(type.singular)
                where: { id: "${resource_id}" }
                limit: 1
              - get-item: first

            """
        let result = await calls.run {
            await ActionTool.runWritten(
                text, named: "read-\(type.singular)", variables: ["resource_id": .text(id)], options: options, folder: folder,
                arguments: ["uri": .string(uri)])
        }
        let texts = result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }
        guard result.isError != true else {
            // Found none: the declared output is missing (the written workflow is not the assistant's business).
            if texts.first?.contains("gave nothing") == true { throw MCPError.serverError(code: -32002, message: "there is no \(type.singular) '\(id)' (\(uri))") }
            throw MCPError.invalidParams("\(uri): \(texts.first ?? "it could not be read")")
        }
        let json = texts.first ?? "null"
        return ReadResource.Result(contents: [.text(json, uri: uri, mimeType: "application/json")])
    }

    private static func header(_ type: String) -> String {
        "# Written by relay mcp for an assistant's reading of \(type) resources (Docs/Assistants.md).\n"
    }
}
