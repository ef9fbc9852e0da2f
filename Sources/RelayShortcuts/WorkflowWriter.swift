/// A step of the imported workflow, before it is written.
struct WrittenStep: Sendable {
    /// The shortcut's action it comes from (from 1); 0 for none.
    var action: Int
    /// Comment lines written above it, without `# `.
    var comments: [String] = []
    /// The action's name or the control step's key.
    var key: String
    /// What follows the key: nothing (`- count`), a value, or named parameters.
    var value: WrittenValue?
    var parameters: [WrittenEntry] = []
    /// Keys beside the first, in order: `then:`, `do:`, `options:`, `input:`, `as:`.
    var siblings: [(key: String, content: Sibling)] = []

    enum Sibling: Sendable {
        case value(WrittenValue)
        case steps([WrittenStep])
        case options([(title: String, steps: [WrittenStep])])
    }

    init(action: Int, key: String, value: WrittenValue? = nil) {
        self.action = action
        self.key = key
        self.value = value
    }

    /// The name the step's output is stored as, if any.
    var storedAs: String? {
        for sibling in siblings where sibling.key == "as" {
            if case .value(.text(let name)) = sibling.content { return name }
        }
        return nil
    }

    mutating func set(_ key: String, _ content: Sibling) {
        if let index = siblings.firstIndex(where: { $0.key == key }) {
            siblings[index].content = content
        } else {
            siblings.append((key, content))
        }
    }
}

/// Writes a workflow as YAML that reads like a person wrote it: block style, a scalar quoted
/// only where YAML would read it otherwise, and the line each action's step starts on.
struct WorkflowWriter {
    private(set) var text = ""
    /// The line (from 1) of each step → its shortcut action.
    private(set) var lines: [(line: Int, action: Int)] = []
    private var line = 1

    mutating func write(_ content: String) {
        text += content
        line += content.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    /// A comment of one line or more; a character YAML does not take in a comment (a control
    /// character, a line separator) is written as its code, `\u007F`.
    mutating func comment(_ comment: String, indent: String) {
        for part in comment.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for scalar in part.unicodeScalars {
                if Self.needsEscape(scalar) { line += Self.escape(scalar) } else { line.unicodeScalars.append(scalar) }
            }
            write(indent + (line.isEmpty ? "#" : "# " + line) + "\n")
        }
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F || (scalar.value >= 0x80 && scalar.value < 0xA0) || scalar == "\u{FEFF}"
            || scalar == "\u{2028}" || scalar == "\u{2029}" || scalar == "\r" || scalar == "\u{FFFE}" || scalar == "\u{FFFF}"
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16).uppercased()
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    mutating func steps(_ steps: [WrittenStep], indent: String) {
        for step in steps { self.step(step, indent: indent) }
    }

    mutating func step(_ step: WrittenStep, indent: String) {
        for comment in step.comments { self.comment(comment, indent: indent) }
        if step.action > 0 { lines.append((line, step.action)) }
        let inner = indent + "  "
        if step.value == nil, step.parameters.isEmpty, step.siblings.isEmpty {
            write("\(indent)- \(Self.scalar(step.key))\n")
            return
        }
        write("\(indent)- \(Self.scalar(step.key)):")
        if !step.parameters.isEmpty {
            write("\n")
            entries(step.parameters, indent: inner + "  ")
        } else if let value = step.value {
            self.value(value, indent: inner + "  ", after: true)
        } else {
            write("\n")
        }
        for (key, content) in step.siblings {
            write("\(inner)\(Self.scalar(key)):")
            switch content {
            case .value(let value): self.value(value, indent: inner + "  ", after: true)
            case .steps(let steps):
                if steps.isEmpty {
                    write(" []\n")
                } else {
                    write("\n")
                    self.steps(steps, indent: inner + "  ")
                }
            case .options(let options):
                write("\n")
                for option in options {
                    write("\(inner)  \(Self.scalar(option.title)):")
                    if option.steps.isEmpty {
                        write(" []\n")
                    } else {
                        write("\n")
                        steps(option.steps, indent: inner + "    ")
                    }
                }
            }
        }
    }

    /// A value after a key (`after`: on the key's line when it is a scalar), else on lines of
    /// its own at `indent`.
    mutating func value(_ value: WrittenValue, indent: String, after: Bool) {
        switch value {
        case .text(let text): write(" \(Self.scalar(text))\n")
        case .number(let number): write(" \(number)\n")
        case .boolean(let flag): write(" \(flag)\n")
        case .list(let items):
            guard !items.isEmpty else { return write(" []\n") }
            write("\n")
            for item in items {
                switch item {
                case .list, .dictionary:
                    write("\(indent)-")
                    self.value(item, indent: indent + "  ", after: true)
                default:
                    write("\(indent)-")
                    self.value(item, indent: indent, after: true)
                }
            }
        case .dictionary(let entries):
            guard !entries.isEmpty else { return write(" {}\n") }
            write("\n")
            self.entries(entries, indent: indent)
        }
    }

    mutating func entries(_ entries: [WrittenEntry], indent: String) {
        for entry in entries {
            write("\(indent)\(Self.scalar(entry.key)):")
            value(entry.value, indent: indent + "  ", after: true)
        }
    }

    /// `text` as a YAML scalar: plain where YAML reads it back as the same text, else in double
    /// quotes.
    static func scalar(_ text: String) -> String {
        plainIsSafe(text) ? text : quoted(text)
    }

    private static func plainIsSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        if last == " " || first == " " { return false }
        if "-?:,[]{}#&*!|>'\"%@`".unicodeScalars.contains(first) { return false }
        if text.contains(": ") || text.contains(" #") || text.hasSuffix(":") { return false }
        // Words YAML reads as something else than text.
        let lowered = text.lowercased()
        if ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", ".inf", "-.inf", ".nan"].contains(lowered) { return false }
        if Double(text) != nil || text.first?.isNumber == true || text.hasPrefix(".") || text.hasPrefix("+") { return false }
        if text.unicodeScalars.contains(where: { needsEscape($0) || $0 == "\t" }) { return false }
        return true
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if needsEscape(scalar) {
                    out += escape(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
