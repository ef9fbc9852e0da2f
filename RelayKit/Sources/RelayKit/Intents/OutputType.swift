/// What an intent's `perform` gives: a type and, for a list, the type of each item
/// (`.list(of: Trail.self)`, `.list(of: .file)`). The checker holds the next step to it
/// (Docs/Language.md, "How values flow"), and a debug build checks each result against it.
public struct OutputType: Sendable, Hashable {
    /// The value's type.
    public let type: ValueType
    /// For a list, each item's type; nil when the items may be of any type.
    public let item: ValueType?

    public init(_ type: ValueType, item: ValueType? = nil) {
        self.type = type
        self.item = type == .list ? item : nil
    }

    public static let any = OutputType(.any)
    public static let nothing = OutputType(.nothing)
    public static let text = OutputType(.text)
    public static let number = OutputType(.number)
    public static let boolean = OutputType(.boolean)
    public static let date = OutputType(.date)
    public static let url = OutputType(.url)
    public static let file = OutputType(.file)
    public static let richText = OutputType(.richText)
    public static let dictionary = OutputType(.dictionary)
    /// A list whose items may be of any type.
    public static let list = OutputType(.list)

    /// A list of `item`s: `.list(of: .file)`.
    public static func list(of item: ValueType) -> OutputType { OutputType(.list, item: item) }

    /// A list of values of a Swift type: `.list(of: Trail.self)`.
    public static func list<T: ParameterValue>(of item: T.Type) -> OutputType { OutputType(.list, item: T.valueType) }

    /// An entity of the type named `name`.
    public static func entity(_ name: String) -> OutputType { OutputType(.entity(name)) }

    /// An entity of a Swift entity type: `.entity(Trail.self)`.
    public static func entity<E: Entity>(_ type: E.Type) -> OutputType { OutputType(.entity(E.typeName.singular)) }

    /// What is wrong with `value` as an output of this type, or nil when it is one. `nothing` is
    /// always allowed (an action may have nothing to give); in a list of a type, it is not an item.
    public func problem(with value: Value) -> String? {
        if value.isNothing { return nil }
        if let problem = Self.problem(with: value, as: type) { return problem }
        guard let item, case .list(let items) = value else { return nil }
        for (index, element) in items.enumerated() {
            if let problem = element.isNothing && item != .any ? "nothing" : Self.problem(with: element, as: item) {
                return "a list whose item \(index + 1) is \(problem)"
            }
        }
        return nil
    }

    /// `a list of trail`, `a text`: the type with its article, for messages.
    public var withArticle: String { item.map { "a list of \($0.name)" } ?? type.withArticle }

    private static func problem(with value: Value, as type: ValueType) -> String? {
        if type == .any { return nil }
        let matches: Bool =
            switch (type, value) {
            case (.entity(let name), .entity(let entity)): entity.typeName == name
            case (.union(let names), .entity(let entity)): names.contains(entity.typeName)
            default: value.type == type
            }
        return matches ? nil : value.type.withArticle
    }
}
