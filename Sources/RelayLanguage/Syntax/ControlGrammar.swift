/// The control steps and modifiers of the workflow language, declared once (Docs/Language.md,
/// "Control steps" and "Modifiers"). The parser reads each step's keys by their shapes and builds
/// the step from them here, and says what is missing in the words written here; the checker and
/// the interpreter take what a step gives (`Output`) from here; the JSON Schema, `relay describe`,
/// the REPL's completion and the checker's suggestions show what is written here.
public enum ControlGrammar {
    /// What a key's value is, for the parser's messages and the schema.
    public enum Shape: Sendable, Equatable {
        /// A list of steps.
        case steps
        /// A name of options, each a list of steps.
        case options
        /// A variable name.
        case name
        /// Text.
        case text
        /// A whole number or an expression.
        case count
        /// A number of seconds or an expression.
        case seconds
        /// A mapping of variable names to values.
        case assignments
        /// Steps, or `continue`.
        case stepsOrContinue
        /// Any value or expression.
        case value
        /// `true`, `false`, a number of branches or an expression.
        case parallelism
        /// A number of further attempts, or a mapping of `times`, `delay`, `backoff`, `max-delay` (RetryPolicy).
        case retry
        /// `true` or `false`.
        case flag
    }

    /// One key of a control step beside its keyword, or a modifier.
    public struct Key: Sendable {
        public let name: String
        public let shape: Shape
        public let isRequired: Bool
        public let summary: String
        /// What a required key is, for the message when it is missing: "with the steps to run".
        public let need: String
    }

    /// What a control step gives the next step.
    public enum Output: Sendable, Equatable {
        /// The last output of the steps of the branch it ran. `fallback` is the key whose steps run
        /// when no other branch does (`else`, `default`), and `when` says when that is: without
        /// it, the step gives nothing then. Nil for a `menu`, where a chosen option always runs.
        case branch(fallback: String?, when: String)
        /// The list of each time's last output (`repeat`, `for-each`).
        case eachTime
        /// Its own input, passed through (`set`, `append`).
        case input
        /// Nothing to the next step: it ends the workflow with a value (`stop`).
        case stops
    }

    /// A control step: its keyword, what the keyword's value is, its other keys, what it gives,
    /// and how it is built from its keys once the parser has read each by its shape.
    public struct Step: Sendable {
        public let keyword: String
        /// What the keyword's own value is (`a condition`), and its shape.
        public let value: Key
        public let keys: [Key]
        public let output: Output
        public let summary: String
        public let example: String
        let build: @Sendable (inout ControlParts) -> RelayLanguage.Step.Kind?

        /// The names of the keys written beside the keyword.
        public var keyNames: [String] { keys.map(\.name) }
        /// The keyword's value and the keys beside it.
        var allKeys: [Key] { [value] + keys }
    }

    private static func key(_ name: String, _ shape: Shape, required: Bool = false, _ summary: String, need: String = "") -> Key {
        Key(name: name, shape: shape, isRequired: required, summary: summary, need: need)
    }

    public static let steps: [Step] = [
        Step(
            keyword: "if", value: key("if", .value, required: true, "The condition: an expression such as ${count} > 3.", need: "a condition"),
            keys: [key("then", .steps, required: true, "The steps run when the condition holds.", need: "with the steps to run"),
                   key("else", .steps, "The steps run when it does not.")],
            output: .branch(fallback: "else", when: "its condition is false"),
            summary: "Runs 'then' if the condition holds, else 'else'; its output is the last output of the branch taken.",
            example: "- if: ${previous.count} > 10\n  then:\n    - text: many\n  else:\n    - text: few",
            build: { parts in
                parts.template("if").map { .conditional(Conditional(condition: $0, then: parts.steps("then"), otherwise: parts.optionalSteps("else"))) }
            }),
        Step(
            keyword: "repeat", value: key("repeat", .count, required: true, "How many times.", need: "a count"),
            keys: [key("do", .steps, required: true, "The steps to repeat; ${index} counts from 1.", need: "with the steps to repeat")],
            output: .eachTime,
            summary: "Runs 'do' a number of times; its output is the list of each time's last output.",
            example: "- repeat: 3\n  do:\n    - text: \"round ${index}\"",
            build: { parts in parts.template("repeat").map { .repeatCount(RepeatCount(count: $0, body: parts.steps("do"))) } }),
        Step(
            keyword: "for-each", value: key("for-each", .value, "The list; the previous step's output if empty."),
            keys: [key("as", .name, "The item's variable name (item unless given); ${index} counts from 1."),
                   key("parallel", .parallelism, "Run items side by side: true (one per core), or how many at once (at most 64)."),
                   key("do", .steps, required: true, "The steps run for each item.", need: "with the steps to run for each item")],
            output: .eachTime,
            summary: "Runs 'do' for each item of a list; its output is the list of each item's last output.",
            example: "- list: [a, b]\n- for-each:\n  as: letter\n  do:\n    - text: \"${letter}!\"",
            build: { parts in
                .forEach(ForEach(items: parts.template("for-each"), variable: parts.name("as"), parallel: parts.template("parallel"), body: parts.steps("do")))
            }),
        Step(
            keyword: "menu", value: key("menu", .text, required: true, "The question asked.", need: "a prompt"),
            keys: [key("options", .options, required: true, "Each option's name, and the steps it runs.", need: ", a mapping of each choice to its steps")],
            output: .branch(fallback: nil, when: "no option is chosen"),
            summary: "Asks which option to run (on a terminal, or given with --answer), then runs its steps.",
            example: "- menu: Convert to?\n  options:\n    PDF:\n      - convert: pdf\n    HTML:\n      - convert: html",
            build: { parts in parts.template("menu").map { .menu(Menu(prompt: $0, options: parts.options("options"))) } }),
        Step(
            keyword: "match", value: key("match", .value, "The value to match; the step's input if empty."),
            keys: [key("cases", .options, required: true, "Each value it may be, and the steps run when it is (compared as == compares).",
                       need: ", a mapping of each value to its steps"),
                   key("default", .steps, "The steps run when no case is the value."),
                   key("case-sensitive", .flag, "Whether a text must match a case's case too (false: 'PDF' matches the case pdf, as == does).")],
            output: .branch(fallback: "default", when: "no case matches"),
            summary: "Runs the steps of the first case equal to the value, else 'default'; its output is the last output of the steps run.",
            example: "- text: pdf\n- match: ${previous}\n  cases:\n    pdf:\n      - text: a document\n    png:\n      - text: an image\n  default:\n    - text: something else",
            build: { parts in
                let caseSensitive = parts.flag("case-sensitive")
                // Cases that differ only in case are the same case unless case counts.
                var seen = Set<String>()
                var cases: [Menu.Option] = []
                for option in parts.options("cases") {
                    guard seen.insert(caseSensitive ? option.label.text : option.label.text.lowercased()).inserted else {
                        parts.problem("the case '\(option.label.text)' is written twice; the second could never run", at: option.label.range)
                        continue
                    }
                    cases.append(option)
                }
                return .match(Match(value: parts.template("match"), cases: cases, otherwise: parts.optionalSteps("default"), caseSensitive: caseSensitive))
            }),
        Step(
            keyword: "set", value: key("set", .assignments, required: true, "Variable names and their values."),
            keys: [], output: .input, summary: "Sets variables; passes its input through.",
            example: "- set: { total: 0, name: Relay }",
            build: { parts in .set(parts.assignments("set")) }),
        Step(
            keyword: "append", value: key("append", .assignments, required: true, "List variables and what to add to each."),
            keys: [], output: .input, summary: "Adds values to the end of list variables (made if missing); passes its input through.",
            example: "- list: [Ada, Alan]\n- for-each:\n  do:\n    - append: { names: \"${item}\" }",
            build: { parts in .append(parts.assignments("append")) }),
        Step(
            keyword: "stop", value: key("stop", .value, "The workflow's output; the step's input if empty."),
            keys: [], output: .stops, summary: "Ends the workflow it is in, from any depth, with a value as its output.",
            example: "- stop: done",
            build: { parts in .stop(parts.template("stop")) }),
    ]

    public static let modifiers: [Key] = [
        key("as", .name, "Also keeps the step's output in this variable."),
        key("input", .value, "The step's input, instead of the previous step's output."),
        key("when", .value, "Runs the step only if this condition holds; else its input passes through."),
        key("on-error", .stepsOrContinue, "What a runtime error in the step does: continue with nothing, or run these steps (${error} says what went wrong)."),
        key("timeout", .seconds, "Stops the step, and everything it started, after this many seconds."),
        key("label", .text, "A name for the step in traces and error messages."),
        key("retry", .retry, "Tries the step again when it fails: how many more times (0 to 100), or { times, delay, backoff, max-delay }. Never after a permission denial or a stop; each attempt has its own timeout; on-error runs after the last."),
    ]

    /// The keywords that start control steps.
    public static let keywords = steps.map(\.keyword)
    /// The modifiers' names.
    public static let modifierNames = modifiers.map(\.name)

    /// The control step `keyword` starts, if it is one.
    public static func step(_ keyword: String) -> Step? { steps.first { $0.keyword == keyword } }

    /// The modifier named `name`, if it is one.
    public static func modifier(_ name: String) -> Key? { modifiers.first { $0.name == name } }

    /// `relay describe` of a control step or modifier, for people.
    public static func describe(_ name: String) -> String? {
        if let step = step(name) {
            var lines = ["\(step.keyword) — a control step", "", step.summary, "", "\(step.keyword): \(step.value.summary)"]
            let width = step.keys.map(\.name.count).max() ?? 0
            if !step.keys.isEmpty {
                lines += ["", "Keys beside it:"]
                for key in step.keys {
                    lines.append("  \(key.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(key.summary)\(key.isRequired ? " (required)" : "")")
                }
            }
            lines += ["", "Modifiers: \(modifierNames.filter { !step.keyNames.contains($0) }.joined(separator: ", "))", "", "Example:"]
            lines += step.example.split(separator: "\n").map { "  " + $0 }
            return lines.joined(separator: "\n") + "\n"
        }
        if let modifier = modifier(name) {
            return "\(modifier.name) — a modifier, written beside any step's name\n\n\(modifier.summary)\n"
        }
        return nil
    }
}
