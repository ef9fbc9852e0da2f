/// What a converter reads or makes: a value of a type, or a file of a content type.
public enum Representation: Hashable, Sendable, CustomStringConvertible {
    case value(ValueType)
    case file(ContentType)

    public var description: String {
        switch self {
        case .value(let type): type.name
        case .file(let type): "a \(type.identifier) file"
        }
    }

    /// The representations a value offers: a file its content type (not its path, which would
    /// compete with real conversions of its contents), any other value its type.
    public static func offered(by value: Value) -> [Representation] {
        if case .file(let file) = value { return [.file(file.contentType)] }
        return [.value(value.type)]
    }

    /// Whether a value in this representation will do where `required` is asked for: the same value
    /// type, or a file whose content type conforms to the required one.
    public func satisfies(_ required: Representation) -> Bool {
        switch (self, required) {
        case (.value(let have), .value(let want)): have == want || want == .any
        case (.file(let have), .file(let want)): have.conforms(to: want)
        default: false
        }
    }
}

/// A conversion a package offers, such as Markdown file → rich text or rich text → PDF file.
/// The converter graph chains converters, preferring the fewest lossy steps (Docs/Language.md, "Conversions between formats").
public struct Converter: Sendable {
    public let from: Representation
    public let to: Representation
    /// Whether the conversion loses information (PDF → text, PNG → JPEG).
    public let isLossy: Bool
    public let convert: @Sendable (Value, any IntentContext) async throws -> Value

    public init(
        from: Representation, to: Representation, lossy: Bool,
        convert: @escaping @Sendable (Value, any IntentContext) async throws -> Value
    ) {
        self.from = from
        self.to = to
        self.isLossy = lossy
        self.convert = convert
    }
}
