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

    /// Whether `text` is a number as Relay reads one written in a workflow: digits, a sign, a
    /// fraction and an exponent — not `nan`, `infinity` or `0x10`, which `Double` also reads.
    static func isNumber(_ text: String) -> Bool {
        guard text.utf8.count <= 64, Double(text)?.isFinite == true else { return false }
        var rest = Substring(text)
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        rest = rest.dropFirst(digits.count)
        var fraction = 0
        if rest.first == "." {
            rest = rest.dropFirst()
            fraction = rest.prefix { $0.isASCII && $0.isNumber }.count
            rest = rest.dropFirst(fraction)
        }
        guard digits.count + fraction > 0 else { return false }
        if rest.first == "e" || rest.first == "E" {
            rest = rest.dropFirst()
            if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
            let exponent = rest.prefix { $0.isASCII && $0.isNumber }.count
            guard exponent > 0 else { return false }
            rest = rest.dropFirst(exponent)
        }
        return rest.isEmpty
    }

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
