/// The names the imported workflow gives Shortcuts' variables: an action's output that a later
/// action uses ("magic variables") is named after it (`text`, `text_2`, `contents_of_url`), a
/// named variable after its name (`My List` → `my_list`), and Shortcuts' own variables by
/// Relay's (`Shortcut Input` → `input`, `Repeat Item` → `item`).
struct ShortcutNames: Sendable {
    /// An action's `UUID` → the name its output is stored as.
    var outputs: [String: String] = [:]
    /// A named variable → its name in the workflow.
    var variables: [String: String] = [:]
    /// Names taken, so that each is given once.
    private var taken: Set<String> = Self.reserved
    /// Relay's own names and words of its expressions.
    static let reserved: Set<String> = ["input", "previous", "item", "index", "error", "secrets", "trigger", "nothing", "true", "false", "and", "or", "not", "contains", "matches"]
    /// Each base name → the number its next name tries first.
    private var nextNumber: [String: Int] = [:]
    /// Steps the current action needs before it — for Shortcuts' `Current Date`, or a date a
    /// variable is formatted as — each with the name its output gets.
    var helpers: [Helper] = []
    /// What an Ask Each Time variable in the value being read asks: the action's title and the
    /// parameter's label (`Make Archive: ZIP Name`).
    var asking: String?

    /// A step put before an action: its kind (`current-date`, `format-date`), the name of its
    /// output, and what it is given.
    struct Helper {
        var kind: String
        var name: String
        var value: WrittenValue?
        var parameters: [WrittenEntry] = []
        var input: WrittenValue?
    }

    /// Stands for the previous step's output in what an action's values say, until the import
    /// knows whether a step put before the action (for `Current Date`) means naming it.
    static let previous = "\u{1}previous\u{1}"

    /// A new name made from `title`: lower case words joined by `_`, numbered when taken.
    mutating func name(from title: String) -> String {
        var words: [String] = [], word = ""
        for character in title.lowercased() {
            if character.isASCII, character.isLetter || character.isNumber {
                word.append(character)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        var base = words.joined(separator: "_")
        if base.isEmpty { base = "value" }
        // A word of Relay's own (`matches`, `input`) gets a word after it, not a number.
        if Self.reserved.contains(base) { base += "_value" }
        if let first = base.first, first.isNumber { base = "v_" + base }
        // Each base remembers the next number to try: ten thousand `text`s are named in turn, not
        // each by trying every number before it.
        var candidate = base, number = nextNumber[base] ?? 2
        while taken.contains(candidate) {
            candidate = "\(base)_\(number)"
            number += 1
        }
        nextNumber[base] = number
        taken.insert(candidate)
        return candidate
    }

    /// Whether `title` has a letter or digit a variable's name can take.
    static func hasWords(_ title: String) -> Bool {
        title.contains { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// The words of a question that say what it asks for: `Set your bot's API token (Required)`
    /// → `bot API token`.
    static func shortened(_ question: String) -> String {
        let common: Set<String> = [
            "a", "an", "the", "your", "my", "of", "to", "for", "in", "on", "is", "are", "what", "which", "please", "enter", "set",
            "type", "choose", "select", "this", "that", "you", "would", "like", "required", "optional", "can", "be", "using", "here",
            "do", "does", "did", "how", "many", "much",
        ]
        let words = question.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
            .filter { $0.count > 1 && !common.contains($0.lowercased()) }
        return words.prefix(3).joined(separator: " ")
    }

    /// The variable an attachment names, without its properties.
    mutating func base(of attachment: PropertyValue, action: Int) throws(ShortcutError) -> String {
        switch attachment["Type"]?.text {
        case "ActionOutput":
            guard let id = attachment["OutputUUID"]?.text else { throw ShortcutError(action: action, "an action's output without its OutputUUID") }
            guard let name = outputs[id] else {
                throw ShortcutError(action: action, "the output of an action that is not in the shortcut (\(attachment["OutputName"]?.text ?? "UUID \(id)"))")
            }
            return name
        case "Variable":
            let variable = attachment["VariableName"]?.text ?? attachment["Variable"]?["Value"]?["VariableName"]?.text ?? ""
            if let builtIn = Self.builtIn(variable) { return builtIn }
            guard let name = variables[variable] else { throw ShortcutError(action: action, "the variable '\(variable)', which no action sets") }
            return name
        case "ExtensionInput":
            return "input"
        case "CurrentDate":
            return helper("current-date")
        case "Clipboard":
            return helper("get-clipboard")
        case "Ask":
            return asked(asking ?? "A value?")
        case let kind?:
            throw ShortcutError(action: action, "the variable '\(kind)', which Relay has not")
        case nil:
            throw ShortcutError(action: action, "a variable of no kind")
        }
    }

    /// Relay's name for one of Shortcuts' own variables.
    static func builtIn(_ variable: String) -> String? {
        switch variable {
        case "Shortcut Input", "Input": "input"
        case "Repeat Item", "Repeat Item 2", "Repeat Item 3": "item"
        case "Repeat Index", "Repeat Index 2", "Repeat Index 3": "index"
        default: nil
        }
    }

    /// The name of a step the action needs before it (`current-date`), made once per action.
    private mutating func helper(_ kind: String) -> String {
        if let made = helpers.first(where: { $0.kind == kind }) { return made.name }
        let made = name(from: kind == "current-date" ? "current date" : "clipboard")
        helpers.append(Helper(kind: kind, name: made))
        return made
    }

    /// The name of the answer to `question`, asked by an `ask` step put before the action: when
    /// the run comes to it, as Shortcuts asks.
    mutating func asked(_ question: String) -> String {
        let made = name(from: "answer")
        helpers.append(Helper(kind: "ask", name: made, value: .text(question)))
        return made
    }

    /// The name of a `format-date` step put before the action, which formats `expression` as
    /// `value` or `parameters` say.
    mutating func formattedDate(_ expression: String, value: WrittenValue?, parameters: [WrittenEntry]) -> String {
        let made = name(from: "formatted date")
        helpers.append(Helper(kind: "format-date", name: made, value: value, parameters: parameters, input: .variable(expression)))
        return made
    }

    /// A parameter key as words: `WFZIPName` → `ZIP Name`.
    static func label(ofKey key: String) -> String {
        let letters = Array(key.hasPrefix("WF") ? key.dropFirst(2) : Substring(key))
        var words = ""
        for (index, letter) in letters.enumerated() {
            let startsWord =
                index > 0 && letter.isUppercase
                && (letters[index - 1].isLowercase || (index + 1 < letters.count && letters[index + 1].isLowercase))
            if startsWord { words.append(" ") }
            words.append(letter)
        }
        return words
    }

    /// Relay's property for a Shortcuts property name (`File Extension` → `extension`).
    static func property(_ name: String) -> String {
        let known = [
            "name": "name", "file extension": "extension", "file size": "size", "creation date": "created",
            "last modified date": "modified", "file path": "path", "number of pages": "pages", "page count": "pages",
            "width": "width", "height": "height", "type": "type", "count": "count", "number of characters": "count",
            "number of items": "count",
        ]
        if let property = known[name.lowercased()] { return property }
        let words = name.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
        guard let first = words.first else { return "value" }
        return first.lowercased() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
    }
}
