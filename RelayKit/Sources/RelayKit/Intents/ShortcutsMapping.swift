/// How an action of Apple's Shortcuts app stands for a Relay action, declared beside the action
/// (`Intent.shortcuts`): what `relay import` writes for it, what `relay describe` shows and what
/// `relay actions --shortcuts` lists (Docs/Shortcuts.md, "The mapping").
///
/// Parameters are named by their keys in the shortcut file (`WFTextActionText`) and the Relay
/// parameter each fills (`text`); `input` stands for the step's `input:`. A key whose values are
/// listed in `values` takes only those: a shortcut giving another value is listed as not
/// importable, with the value. Keys the mapping does not name are left out of the import.
public struct ShortcutsMapping: Sendable, Equatable {
    /// The action's identifier in a shortcut file: `is.workflow.actions.gettext`.
    public let identifier: String
    /// Its name in the Shortcuts app: `Text`.
    public let title: String
    /// Shortcuts key → the Relay parameter it fills (`input` for the step's input).
    public let parameters: [String: String]
    /// Shortcuts key → its values and theirs in Relay: `["UPPERCASE": "upper"]`.
    public let values: [String: [String: String]]
    /// Shortcuts key → the value Shortcuts uses when a file leaves it out.
    public let defaults: [String: String]
    /// Relay parameter → a text made of Shortcuts values, each written `{KEY}`:
    /// `"{WFInput} {WFMathOperation} {WFMathOperand}"`.
    public let templates: [String: String]
    /// Relay parameter → the value it is always given.
    public let fixed: [String: String]
    /// Relay parameter → the question whose answer it is given, asked by an `ask` step before
    /// the action, where Shortcuts asks while the action runs (Save File asking where).
    public let asks: [String: String]
    /// Shortcuts key → the values for which this mapping holds (another mapping of the same
    /// identifier may hold for the others).
    public let when: [String: [String]]

    public init(
        _ identifier: String, title: String, parameters: [String: String] = [:], values: [String: [String: String]] = [:],
        defaults: [String: String] = [:], templates: [String: String] = [:], fixed: [String: String] = [:],
        asks: [String: String] = [:], when: [String: [String]] = [:]
    ) {
        self.identifier = identifier
        self.title = title
        self.parameters = parameters
        self.values = values
        self.defaults = defaults
        self.templates = templates
        self.fixed = fixed
        self.asks = asks
        self.when = when
    }

    /// Whether this mapping holds for an action whose plain values are `given` (key → text).
    public func holds(for given: [String: String]) -> Bool {
        when.allSatisfy { key, accepted in accepted.contains(given[key] ?? defaults[key] ?? "") }
    }

    /// The keys this mapping reads: its parameters' and its templates'.
    public var keys: [String] {
        var keys = Set(parameters.keys).union(when.keys)
        for template in templates.values {
            var rest = template[...]
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                keys.insert(String(rest[rest.index(after: open)..<close]))
                rest = rest[rest.index(after: close)...]
            }
        }
        return keys.sorted()
    }
}
