import RelayKit
import RelayLanguage

/// `relay describe TYPE`: the properties of an entity type (built in or a package's) or of files,
/// with their types, as `${value.property}`, `get-details`, `where:` and `sort:` name them.
enum TypeCatalog {
    static func describe(_ type: EntityDescriptor) -> String {
        var lines = ["\(type.name.singular) — an entity type (\(type.name.plural))", ""]
        lines.append("Find them: find: \(type.name.plural)\(type.filterablePropertyNames.first(where: { $0 != "id" }).map { "  (where: { \($0): … }, sort: …, limit: …)" } ?? "")")
        if let folder = type.folder() { lines.append("Kept in:   \(ResolvedPath.abbreviated(folder))") }
        if type.urlTemplate != nil { lines.append("Opens:     as a URL (get-url, open)") }
        lines.append("")
        lines.append("Properties:")
        let width = type.properties.map(\.name.count).max() ?? 0
        for property in type.properties {
            // A list's cases are its items' (a list of an enum's cases).
            let cases = property.cases.map { $0.map { CaseTitles.shown($0, titles: property.caseTitles) }.joined(separator: " | ") }
            var facts = [cases.map { property.type == .list ? "list of (\($0))" : $0 } ?? property.type.name]
            if property.kind == .deferred { facts.append("fetched when read") }
            lines.append("  \(property.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(facts.joined(separator: ", "))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The properties every file has, those of images, and those the registered packages read
    /// for files of their types (a PDF's `pages`).
    static func describeFiles(in registry: ActionRegistry) -> String {
        var properties = FileReference.properties.map { ($0.name, $0.type.name) }
        properties += [("width", "number (images)"), ("height", "number (images)")]
        let readers = registry.declarations.using { FilePropertyReaders.all }
        properties += readers.map { ($0.name, "of \($0.contentType.identifier) files") }
        let width = properties.map(\.0.count).max() ?? 0
        return (["file — a file or folder on disk", "", "Properties:"]
            + properties.map { "  \($0.0.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.1)" }).joined(separator: "\n") + "\n"
    }
}

/// What `relay describe NAME` and the REPL's `:describe NAME` show: an action, a control step or
/// modifier, an entity type, or files — one lookup for both.
enum Describing {
    /// The description of `name`, or the error to show with a did-you-mean.
    static func text(for name: String, in registry: ActionRegistry) -> Result<String, DescribeError> {
        switch registry.lookup(name) {
        case .found(let definition): return .success(ActionCatalog.describe(definition))
        case .ambiguous(let names): return .failure(DescribeError("'\(name)' is ambiguous; write one of \(names.joined(separator: ", "))"))
        case .invalid(let error): return .failure(DescribeError("'\(name)' cannot be used: \(error)"))
        case .notFound: break
        }
        if let text = ControlGrammar.describe(name) { return .success(text) }
        if let type = registry.entityTypes.descriptor(named: name) { return .success(TypeCatalog.describe(type)) }
        if ["file", "files"].contains(name.lowercased()) { return .success(TypeCatalog.describeFiles(in: registry)) }
        let names = registry.names + ControlGrammar.keywords + ControlGrammar.modifierNames + registry.entityTypes.names + ["file"]
        return .failure(DescribeError(
            "'\(name)' is no action, control step, modifier, entity type or 'file'\(Suggestions.didYouMean(name, in: names))"))
    }

    struct DescribeError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}
