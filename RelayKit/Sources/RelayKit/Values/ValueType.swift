/// The type of a value, or of what a parameter asks for.
public enum ValueType: Sendable, Hashable {
    case any
    case nothing
    case text
    case number
    case boolean
    case date
    case url
    case file
    case richText
    case list
    case dictionary
    /// An entity type, by its singular name (`photo`, `note`, `trail`).
    case entity(String)
    /// One of several entity types (a `UnionValue` parameter), by their singular names, in the
    /// order text resolves against them.
    case union([String])

    /// The built-in types, in the order references list them (entity types come from packages).
    public static let builtIn: [ValueType] = [
        .any, .nothing, .text, .number, .boolean, .date, .url, .file, .richText, .list, .dictionary,
    ]

    /// The name users write and read, as in `relay describe` and error messages.
    public var name: String {
        switch self {
        case .any: "any"
        case .nothing: "nothing"
        case .text: "text"
        case .number: "number"
        case .boolean: "boolean"
        case .date: "date"
        case .url: "url"
        case .file: "file"
        case .richText: "rich-text"
        case .list: "list"
        case .dictionary: "dictionary"
        case .entity(let name): name
        case .union(let names): names.joined(separator: " | ")
        }
    }

    /// Finds a built-in type by the name a workflow uses for it (`text`, `number`, ...), accepting a
    /// few synonyms. Entity types are found through the registry, not here.
    public init?(name: String) {
        switch name.lowercased() {
        case "string": self = .text
        case "bool": self = .boolean
        case "array": self = .list
        case "dict", "object": self = .dictionary
        case "richtext", "rich_text": self = .richText
        case "integer", "int", "double": self = .number
        case let lowered:
            guard let type = Self.builtIn.first(where: { $0.name == lowered }) else { return nil }
            self = type
        }
    }

    /// Whether this is an entity type or a union of entity types.
    public var isEntity: Bool {
        switch self {
        case .entity, .union: true
        default: false
        }
    }

    /// The entity types a value of this type may be: one for an entity type, the members for a union.
    public var entityTypeNames: [String] {
        switch self {
        case .entity(let name): [name]
        case .union(let names): names
        default: []
        }
    }

    /// `a text`, `an url`, `nothing`: the type with its article, for messages.
    public var withArticle: String {
        switch self {
        case .nothing: "nothing"
        case .any: "any value"
        case .union(let names): names.map { "\(Naming.indefiniteArticle(for: $0)) \($0)" }.joined(separator: " or ")
        default: "\(Naming.indefiniteArticle(for: name)) \(name)"
        }
    }
}
