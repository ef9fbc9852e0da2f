/// Reads a parameter's value in a shortcut — plain, or one of the serialized forms (a text with
/// variables in it, a variable, a number that may be a variable, a dictionary, a list) — into
/// what the workflow writes, with each variable named as `ShortcutNames` says.
struct ShortcutValues {
    var names: ShortcutNames
    /// The action whose parameter is read, for messages.
    var action: Int

    /// `value` as a written value.
    mutating func written(_ value: PropertyValue) throws(ShortcutError) -> WrittenValue {
        switch value {
        case .text(let text): return .literal(text)
        case .integer(let number): return .number(String(number))
        case .real(let number):
            guard number.isFinite else { throw ShortcutError(action: action, "a number that is not finite (\(number))") }
            return .number(number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number))
        case .boolean(let flag): return .boolean(flag)
        case .date(let date): return .literal(date.formatted(.iso8601))
        case .data: throw ShortcutError(action: action, "binary data in a parameter, which Relay cannot write in a workflow")
        case .list(let items):
            var written: [WrittenValue] = []
            for item in items { written.append(try self.written(item)) }
            return .list(written)
        case .dictionary(let entries):
            return try serialized(entries)
        }
    }

    /// The serialized forms, told by `WFSerializationType`.
    private mutating func serialized(_ entries: [String: PropertyValue]) throws(ShortcutError) -> WrittenValue {
        let inner = entries["Value"]
        switch entries["WFSerializationType"]?.text {
        case "WFTextTokenString":
            guard let inner else { return .text("") }
            return .text(try tokenString(inner))
        case "WFTextTokenAttachment":
            guard let inner else { throw ShortcutError(action: action, "a variable with nothing in it") }
            return .variable(try expression(of: inner))
        case "WFNumberSubstitutableState", "WFStringSubstitutableState":
            guard let inner else { return .text("") }
            if case .dictionary = inner { return .variable(try expression(of: inner)) }
            return try written(inner)
        case "WFDictionaryFieldValue":
            // Its items under `WFDictionaryFieldValueItems`, or (as some generators write it) the list itself.
            if case .list? = inner { return try dictionary(inner) }
            return try dictionary(inner?["WFDictionaryFieldValueItems"])
        case "WFArrayParameterState":
            guard case .list(let items)? = inner else { return .list([]) }
            return try list(items)
        case "WFQuantityFieldValue":
            var magnitude: WrittenValue?
            if let given = inner?["Magnitude"] { magnitude = try written(given) }
            let unit = inner?["Unit"]?.text ?? ""
            return .text([magnitude?.inlineText ?? "0", unit].filter { !$0.isEmpty }.joined(separator: " "))
        case let kind?:
            throw ShortcutError(action: action, "a parameter value of the kind '\(kind)', which the import does not read yet")
        case nil:
            // One item of a dictionary standing alone (`WFItemType`, `WFValue`), as some generators write a parameter.
            if entries["WFItemType"] != nil, entries["WFValue"] != nil, entries.count == 2 { return try field(entries) }
            // A dictionary given as it is (a parameter that takes one).
            var written: [WrittenEntry] = []
            for key in entries.keys.sorted() {
                guard let value = entries[key] else { continue }
                written.append(WrittenEntry(key: key, value: try self.written(value)))
            }
            return .dictionary(written)
        }
    }

    /// A Dictionary action's items: each a key, a type (0 text, 1 dictionary, 2 list, 3 number,
    /// 4 boolean) and a value.
    private mutating func dictionary(_ items: PropertyValue?) throws(ShortcutError) -> WrittenValue {
        guard case .list(let list)? = items else { return .dictionary([]) }
        var entries: [WrittenEntry] = []
        for item in list {
            guard case .dictionary(let fields) = item else { continue }
            let key = try plainKey(fields["WFKey"])
            guard !entries.contains(where: { $0.key == key }) else {
                throw ShortcutError(action: action, "a dictionary with the key '\(key)' twice (or two keys Unicode counts the same)")
            }
            entries.append(WrittenEntry(key: key, value: try field(fields)))
        }
        return .dictionary(entries)
    }

    /// A dictionary's key or a menu's item as written: plain text, taken as it is (a key is not a
    /// template); one made with a variable has no equivalent.
    func plainKey(_ value: PropertyValue?) throws(ShortcutError) -> String {
        guard let value else { return "" }
        if let text = value.plainText { return text }
        let inner = value["Value"]
        if value["WFSerializationType"]?.text == "WFTextTokenString", inner?["attachmentsByRange"] == nil || inner?["attachmentsByRange"] == .dictionary([:]) {
            return inner?["string"]?.text ?? ""
        }
        throw ShortcutError(action: action, "a dictionary key or a menu item made with a variable, which Relay writes only as plain text")
    }

    /// A list's items: each a dictionary's or list's item (`WFItemType`, `WFValue`) or a value.
    private mutating func list(_ items: [PropertyValue]) throws(ShortcutError) -> WrittenValue {
        var written: [WrittenValue] = []
        for item in items {
            if case .dictionary(let fields) = item, fields["WFItemType"] != nil {
                written.append(try field(fields))
            } else {
                written.append(try self.written(item))
            }
        }
        return .list(written)
    }

    /// One item of a dictionary or a list: its `WFValue` read as its `WFItemType` says.
    private mutating func field(_ fields: [String: PropertyValue]) throws(ShortcutError) -> WrittenValue {
        let kind = fields["WFItemType"]?.integer ?? 0
        guard let value = fields["WFValue"] else { return kind == 1 ? .dictionary([]) : kind == 2 ? .list([]) : .text("") }
        let inner = value["Value"] ?? value
        switch kind {
        case 1:
            if case .dictionary(let entries) = inner, entries["WFDictionaryFieldValueItems"] != nil {
                return try dictionary(entries["WFDictionaryFieldValueItems"])
            }
            return try written(value)
        case 2:
            if case .list(let items) = inner { return try list(items) }
            return try written(value)
        case 3:
            let text = try written(value)
            let trimmed = text.inlineText?.trimmingCharacters(in: .whitespaces) ?? ""
            if case .text = text, WrittenValue.isNumber(trimmed) { return .number(trimmed) }
            return text
        case 4:
            if case .boolean = inner { return try written(inner) }
            return try written(value)
        default:
            return try written(value)
        }
    }

    /// A text with variables: the string has U+FFFC where each goes, and `attachmentsByRange`
    /// says which, keyed by `{location, length}` in UTF-16 units.
    mutating func tokenString(_ value: PropertyValue) throws(ShortcutError) -> String {
        guard case .dictionary(let entries) = value else {
            if let text = value.plainText { return WrittenValue.escaped(text) }
            throw ShortcutError(action: action, "a text that is not a text")
        }
        let string = entries["string"]?.text ?? ""
        var attachments: [(location: Int, length: Int, value: PropertyValue)] = []
        if case .dictionary(let ranges)? = entries["attachmentsByRange"] {
            for (key, attachment) in ranges {
                let numbers = key.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
                guard numbers.count == 2, numbers[0] >= 0, numbers[1] >= 0 else {
                    throw ShortcutError(action: action, "a text's variable at '\(key)', which is not a range")
                }
                attachments.append((numbers[0], numbers[1], attachment))
            }
        }
        attachments.sort { $0.location < $1.location }
        let units = Array(string.utf16)
        var written = "", cursor = 0
        for attachment in attachments {
            guard attachment.location >= cursor, attachment.location <= units.count - attachment.length else {
                throw ShortcutError(
                    action: action,
                    "a text's variable at {\(attachment.location), \(attachment.length)}, outside its text of \(units.count) characters or over another")
            }
            var literal = WrittenValue.escaped(String(decoding: units[cursor..<attachment.location], as: UTF16.self))
            // A `$` just before the variable would make `$${`, a literal `${`: it is written as
            // an expression of its own.
            if literal.hasSuffix("$") { literal = String(literal.dropLast()) + "${'$'}" }
            written += literal
            written += "${\(try expression(of: attachment.value))}"
            cursor = attachment.location + attachment.length
        }
        written += WrittenValue.escaped(String(decoding: units[cursor...], as: UTF16.self))
        return written
    }

    /// What `format-date` is given for a date format aggrandizement: Format Date's own keys
    /// (`WFDateFormatStyle`, `WFDateFormat`, `WFTimeFormatStyle`).
    static func dateFormat(_ aggrandizement: PropertyValue, action: Int) throws(ShortcutError) -> (WrittenValue?, [WrittenEntry]) {
        let style = aggrandizement["WFDateFormatStyle"]?.text ?? "Medium"
        let time = aggrandizement["WFTimeFormatStyle"]?.text
        switch style {
        case "Custom":
            guard let format = aggrandizement["WFDateFormat"]?.text, !format.isEmpty else {
                throw ShortcutError(action: action, "a date formatted with a custom format that is not written out")
            }
            return (.literal(format), [])
        case "ISO 8601": return (.literal("iso"), [])
        case "RFC 2822": return (.literal("rfc2822"), [])
        case "None", "Short", "Medium", "Long", "Relative":
            var parameters = [WrittenEntry(key: "style", value: .literal(style.lowercased()))]
            if let time, ["None", "Short", "Medium", "Long"].contains(time) {
                parameters.append(WrittenEntry(key: "time", value: .literal(time.lowercased())))
            }
            return (nil, parameters)
        default:
            throw ShortcutError(action: action, "a date formatted in the style '\(style)', which Relay has no equivalent for")
        }
    }

    /// The expression (inside `${ }`) for a variable: its name, then a property, a key.
    mutating func expression(of attachment: PropertyValue) throws(ShortcutError) -> String {
        // An attachment may come wrapped as `{Value: {Type …}, WFSerializationType: WFTextTokenAttachment}`.
        if attachment["WFSerializationType"]?.text == "WFTextTokenAttachment", let inner = attachment["Value"] {
            return try expression(of: inner)
        }
        var expression = try names.base(of: attachment, action: action)
        if case .list(let aggrandizements)? = attachment["Aggrandizements"] {
            for aggrandizement in aggrandizements {
                switch aggrandizement["Type"]?.text {
                case "WFPropertyVariableAggrandizement":
                    guard let property = aggrandizement["PropertyName"]?.text else { continue }
                    expression += "." + ShortcutNames.property(property)
                case "WFDictionaryValueVariableAggrandizement":
                    guard let key = aggrandizement["DictionaryKey"]?.text else { continue }
                    expression += "['" + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "']"
                case "WFDateFormatVariableAggrandizement":
                    // A date shown as a text: a `format-date` step before the action makes it.
                    let (value, parameters) = try Self.dateFormat(aggrandizement, action: action)
                    expression = names.formattedDate(expression, value: value, parameters: parameters)
                case "WFCoercionVariableAggrandizement", nil:
                    // A coercion: the parameter converts the value to its own type, as Shortcuts does.
                    continue
                case let other?:
                    throw ShortcutError(action: action, "a variable changed by Shortcuts' \(other), which Relay has no equivalent for")
                }
            }
        }
        return expression
    }
}
