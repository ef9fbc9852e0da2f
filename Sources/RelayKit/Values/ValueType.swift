/// The type of a value, or of what a parameter asks for.
public enum ValueType: String, Sendable, Hashable, CaseIterable, Codable {
    case any
    case nothing
    case text
    case number
    case boolean
    case date
    case url
    case file
    case richText = "rich-text"
    case list
    case dictionary

    /// The name users write and read, as in `relay describe` and error messages.
    public var name: String { rawValue }

    /// Finds a type by the name a workflow uses for it (`text`, `number`, ...), accepting a few synonyms.
    public init?(name: String) {
        switch name.lowercased() {
        case "string": self = .text
        case "bool": self = .boolean
        case "array": self = .list
        case "dict", "object": self = .dictionary
        case "richtext", "rich_text": self = .richText
        case "integer", "int", "double": self = .number
        default: self.init(rawValue: name.lowercased())
        }
    }

    /// `a text`, `a number`, `nothing`: the type with its article, for messages.
    public var withArticle: String {
        switch self {
        case .nothing: "nothing"
        case .any: "any value"
        default: "a \(rawValue)"
        }
    }
}
