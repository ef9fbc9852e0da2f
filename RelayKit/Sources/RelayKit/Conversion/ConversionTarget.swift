/// What a value is wanted as: a type, and for files the content types that will do
/// (Docs/Language.md, "Types and conversion").
public struct ConversionTarget: Sendable, Hashable, CustomStringConvertible {
    /// The type the value must have in the end.
    public var type: ValueType
    /// For a file (or each file of a list, or a file given where any value will do): the content
    /// types accepted. Empty accepts any file.
    public var contentTypes: [ContentType]
    /// Asked for by name — `convert: text`, `get-text` — rather than by a parameter's type: an
    /// entity then hands over its plain-text representation, not its title.
    public var isExplicit: Bool
    /// A file that exists before the step, to act on (a parameter that moves, renames, copies from
    /// or deletes it): a file, a path or a `file:` URL, or an entity's own file — never one made
    /// from another value (Docs/Language.md, "Files acted on").
    public var existing: Bool
    /// For a list, the type each item is converted to (a `[Trail]` parameter); nil for any items.
    public var item: ValueType?

    public init(
        _ type: ValueType, accepting contentTypes: [ContentType] = [], explicit: Bool = false, existing: Bool = false, item: ValueType? = nil
    ) {
        self.type = type
        self.item = type == .list ? item : nil
        self.contentTypes = contentTypes
        self.isExplicit = explicit
        self.existing = existing
    }

    /// What a parameter asks for.
    public init(parameter: ParameterDefinition) {
        self.init(parameter.type, accepting: parameter.accepts, existing: parameter.existing && parameter.type == .file, item: parameter.itemType)
    }

    /// A converter's representation, asked for by name (`convert: pdf`, a package's convert call).
    public init(_ representation: Representation) {
        switch representation {
        case .value(let type): self.init(type, explicit: true)
        case .file(let contentType): self.init(.file, accepting: [contentType], explicit: true)
        }
    }

    /// The representations that satisfy the target, in the order they are preferred.
    package var wanted: [Representation] {
        switch type {
        case .file: contentTypes.isEmpty ? [.file(.data)] : contentTypes.map(Representation.file)
        case .any, .list: contentTypes.map(Representation.file)
        default: [.value(type)]
        }
    }

    /// Whether a list of one given here is its item (Docs/Language.md, "Lists where one value is
    /// wanted"): everywhere but where a list, any value or nothing is wanted, or a file of a format
    /// that holds a whole list (a JSON file of a list of one is a list).
    package var wantsOneValue: Bool {
        switch type {
        case .list, .any, .nothing: false
        case .file: contentTypes.isEmpty || !contentTypes.allSatisfy(\.holdsLists)
        default: true
        }
    }

    /// `a pdf file`, `a number`, `a file of public.png or public.jpeg`.
    public var description: String {
        if existing { return contentTypes.isEmpty ? "a file that exists" : "a file of \(ContentType.names(contentTypes)) that exists" }
        if let item { return "a list of \(item.name)" }
        return switch type {
        case .file where !contentTypes.isEmpty: "a file of \(ContentType.names(contentTypes))"
        case .any where !contentTypes.isEmpty, .list where !contentTypes.isEmpty:
            "\(type.withArticle) (files of \(ContentType.names(contentTypes)))"
        default: type.withArticle
        }
    }
}

extension ContentType {
    /// `public.png or public.jpeg`.
    package static func names(_ types: [ContentType]) -> String {
        let names = types.map(\.identifier)
        guard names.count > 1, let last = names.last else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + last
    }
}
