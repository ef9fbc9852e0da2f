/// A value as the imported workflow writes it: a text (with `${…}` where Shortcuts had a
/// variable), a number, a boolean, a list or a dictionary.
indirect enum WrittenValue: Sendable, Equatable {
    case text(String)
    case number(String)
    case boolean(Bool)
    case list([WrittenValue])
    case dictionary([WrittenEntry])

    /// A text that is one variable and nothing else: `${name}`.
    static func variable(_ expression: String) -> WrittenValue { .text("${\(expression)}") }

    /// Literal text, with every `${` written `$${` so that it stays literal.
    static func literal(_ text: String) -> WrittenValue { .text(escaped(text)) }

    static func escaped(_ text: String) -> String { text.replacingOccurrences(of: "${", with: "$${") }

    /// The text as it goes inside a larger text (a template, a key): a number or a boolean as
    /// written, a collection not at all.
    var inlineText: String? {
        switch self {
        case .text(let text), .number(let text): text
        case .boolean(let value): value ? "true" : "false"
        case .list, .dictionary: nil
        }
    }
}

struct WrittenEntry: Sendable, Equatable {
    var key: String
    var value: WrittenValue
}
