import RelayKit

/// A dotted key path into nested dictionaries and lists: `user.address.city`, `items.1.name`
/// (list positions are 1-based).
struct KeyPath {
    let components: [String]

    /// What is wrong with `text` as a key path, or nil.
    @Sendable static func problem(_ text: String) -> String? { IntentError.problem { _ = try KeyPath(text) } }

    init(_ text: String) throws {
        components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !text.isEmpty, !components.contains("") else { throw IntentError("'\(text.prefix(80))' is not a key path") }
        guard components.count <= Limits.keyPathParts else {
            throw IntentError("the key path has \(components.count) parts; at most \(Limits.keyPathParts) are allowed")
        }
    }

    /// The value at the path, or nothing where a key is missing.
    func read(in value: Value) -> Value {
        var current = value
        for component in components {
            switch current {
            case .dictionary(let entries): current = entries[component] ?? .nothing
            case .list(let items):
                guard let position = Int(component), position != 0, position.magnitude <= items.count else { return .nothing }
                current = items[position > 0 ? position - 1 : items.count + position]
            default: return .nothing
            }
        }
        return current
    }

    /// `dictionary` with the value at the path set, making nested dictionaries where missing.
    func write(_ newValue: Value, into dictionary: ValueDictionary) -> ValueDictionary {
        write(newValue, into: dictionary, components[...])
    }

    private func write(_ newValue: Value, into dictionary: ValueDictionary, _ path: ArraySlice<String>) -> ValueDictionary {
        var result = dictionary
        guard let key = path.first else { return result }
        if path.count == 1 {
            result[key] = newValue
        } else {
            let inner: ValueDictionary
            if case .dictionary(let existing)? = dictionary[key] { inner = existing } else { inner = [:] }
            result[key] = .dictionary(write(newValue, into: inner, path.dropFirst()))
        }
        return result
    }
}

/// `get-value`: the value for a key.
struct GetValue: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.getvalueforkey", title: "Get Dictionary Value", parameters: ["WFInput": "input", "WFDictionaryKey": "key"],
            defaults: ["WFGetDictionaryValueType": "Value"], when: ["WFGetDictionaryValueType": ["Value"]]),
    ]
    static let summary = "Gets the value for a key of the input dictionary; a dotted path reads nested values."
    static let examples = [
        IntentExample("- dictionary: { user: { name: Ada, langs: [en, fr] } }\n- get-value: user.langs.2", output: "fr"),
    ]
    static let output = OutputType.any

    @Parameter(input: true, summary: "The dictionary.") var dictionary: ValueDictionary
    @Parameter(primary: true, summary: "The key, or a dotted path such as user.name or items.1.title.") var key: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        if let value = dictionary[key] { return .value(value) }
        return .value(try KeyPath(key).read(in: .dictionary(dictionary)))
    }
}

/// `set-value`: the dictionary with a key set.
struct SetValue: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.setvalueforkey", title: "Set Dictionary Value",
            parameters: ["WFDictionary": "input", "WFDictionaryKey": "key", "WFDictionaryValue": "value"]),
    ]
    static let summary = "Outputs the input dictionary with a key set to a value; a dotted path sets nested values."
    static let examples = [
        IntentExample("- dictionary: { name: Relay }\n- set-value: { key: version, value: 2 }\n- get-keys", output: "name\nversion"),
    ]
    static let output = OutputType.dictionary

    @Parameter(input: true, summary: "The dictionary.") var dictionary: ValueDictionary
    @Parameter(summary: "The key, or a dotted path such as user.name.", check: KeyPath.problem) var key: String
    @Parameter(summary: "The new value.") var value: Value

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.dictionary(try KeyPath(key).write(value, into: dictionary)))
    }
}
