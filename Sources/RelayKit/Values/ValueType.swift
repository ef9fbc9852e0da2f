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

    /// Whether this is an entity type.
    public var isEntity: Bool {
        if case .entity = self { return true }
        return false
    }

    /// `a text`, `an url`, `nothing`: the type with its article, for messages.
    public var withArticle: String {
        switch self {
        case .nothing: "nothing"
        case .any: "any value"
        default: "\(Naming.indefiniteArticle(for: name)) \(name)"
        }
    }
}
