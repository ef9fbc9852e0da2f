/// An If action's condition as an expression (inside `${ }`): the older form, one test with
/// `WFInput`, `WFCondition` and the value to compare; or the newer `WFConditions`, tests joined
/// by all (`and`) or any (`or`).
struct ShortcutConditions {
    var values: ShortcutValues

    mutating func condition(of parameters: [String: PropertyValue]) throws(ShortcutError) -> String {
        if let table = parameters["WFConditions"]?["Value"] {
            guard case .list(let tests)? = table["WFActionParameterFilterTemplates"], !tests.isEmpty else {
                throw ShortcutError(action: values.action, "an If with no test")
            }
            let joiner = table["WFActionParameterFilterPrefix"]?.integer == 0 ? " or " : " and "
            var parts: [String] = []
            for test in tests {
                guard case .dictionary(let fields) = test else { continue }
                parts.append(try self.test(fields))
            }
            return parts.count == 1 ? parts[0] : parts.map { "(\($0))" }.joined(separator: joiner)
        }
        return try test(parameters)
    }

    /// One test: the value tested (the previous output when none is given), the comparison, and
    /// what it is compared with.
    private mutating func test(_ fields: [String: PropertyValue]) throws(ShortcutError) -> String {
        var subject = ShortcutNames.previous
        if let input = fields["WFInput"] {
            let attachment = input["Variable"]?["Value"] ?? input["Value"] ?? input
            subject = try values.expression(of: attachment)
        }
        let code = Self.code(fields["WFCondition"])
        func compared() throws(ShortcutError) -> String {
            if let text = fields["WFConditionalActionString"] { return try operand(text) }
            if let number = fields["WFNumberValue"] { return try operand(number) }
            if let date = fields["WFDate"] { return try operand(date) }
            return "''"
        }
        switch code {
        case 0: return "\(subject) < \(try compared())"
        case 1: return "\(subject) <= \(try compared())"
        case 2: return "\(subject) > \(try compared())"
        case 3: return "\(subject) >= \(try compared())"
        case 4: return "\(subject) == \(try compared())"
        case 5: return "\(subject) != \(try compared())"
        case 8, 9:
            guard let text = fields["WFConditionalActionString"], let literal = text.plainText ?? Self.plainTokenString(text) else {
                throw ShortcutError(action: values.action, "an If that tests '\(code == 8 ? "begins with" : "ends with")' a variable, which Relay cannot write yet")
            }
            let pattern = Self.regexEscaped(literal)
            return "\(subject) matches \(Self.quoted(code == 8 ? "^" + pattern : pattern + "$"))"
        case 99: return "\(subject) contains \(try compared())"
        case 999: return "not (\(subject) contains \(try compared()))"
        case 100: return "\(subject) != nothing"
        case 101: return "\(subject) == nothing"
        case 1003:
            let low = try compared()
            var high = low
            if let another = fields["WFAnotherNumber"] { high = try operand(another) }
            return "\(subject) >= \(low) and \(subject) <= \(high)"
        default:
            throw ShortcutError(action: values.action, "an If with the condition \(code), which Relay has no equivalent for")
        }
    }

    /// The condition's number, from the number or from the older names.
    private static func code(_ value: PropertyValue?) -> Int {
        if let number = value?.integer { return number }
        switch value?.text {
        case "Is Less Than", "Less Than": return 0
        case "Is Greater Than", "Greater Than": return 2
        case "Equals", "Is": return 4
        case "Is Not": return 5
        case "Begins With": return 8
        case "Ends With": return 9
        case "Contains": return 99
        case "Does Not Contain": return 999
        case "Has Any Value": return 100
        case "Does Not Have Any Value": return 101
        default: return 4
        }
    }

    /// A value to compare with, as an expression: a number as it is, a text quoted, a text with
    /// variables as a sum of its pieces.
    private mutating func operand(_ value: PropertyValue) throws(ShortcutError) -> String {
        switch value {
        case .integer: return value.plainText ?? "0"
        case .real(let number):
            guard number.isFinite else { throw ShortcutError(action: values.action, "an If comparing with a number that is not finite") }
            return value.plainText ?? "0"
        case .text(let text): return WrittenValue.isNumber(text) ? text : Self.quoted(text)
        default:
            let written = try values.written(value)
            guard case .text(let text) = written else {
                if case .number(let number) = written { return number }
                throw ShortcutError(action: values.action, "an If comparing with a list or a dictionary")
            }
            return Self.sum(of: text)
        }
    }

    /// A written text (`Hello ${name}!`) as an expression adding its pieces: `'Hello ' + name + '!'`.
    static func sum(of text: String) -> String {
        var pieces: [String] = [], literal = "", rest = text[...]
        while !rest.isEmpty {
            if rest.hasPrefix("$${") {
                literal += "${"
                rest = rest.dropFirst(3)
            } else if rest.hasPrefix("${") {
                // What the import writes always closes; anything else is taken as it is.
                guard let close = closing(rest) else {
                    literal += rest
                    break
                }
                if !literal.isEmpty { pieces.append(quoted(literal)) }
                literal = ""
                pieces.append(String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close]))
                rest = rest[rest.index(after: close)...]
            } else {
                literal.append(rest.removeFirst())
            }
        }
        if !literal.isEmpty || pieces.isEmpty { pieces.append(quoted(literal)) }
        if pieces.count == 1, !pieces[0].hasPrefix("'") { return pieces[0] }
        return pieces.joined(separator: " + ")
    }

    /// The `}` that closes the expression `text` starts with, quoted text skipped.
    private static func closing(_ text: Substring) -> String.Index? {
        var quote: Character?, index = text.index(text.startIndex, offsetBy: 2)
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == "\\" {
                    index = text.index(after: index)
                    if index == text.endIndex { return nil }
                } else if character == open {
                    quote = nil
                }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "}" {
                return index
            }
            index = text.index(after: index)
        }
        return nil
    }

    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    private static func regexEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    private static func plainTokenString(_ value: PropertyValue) -> String? {
        guard value["WFSerializationType"]?.text == "WFTextTokenString", let inner = value["Value"] else { return nil }
        if let ranges = inner["attachmentsByRange"], ranges != .dictionary([:]) { return nil }
        return inner["string"]?.text
    }
}
