import RelayKit

/// Actions that make and read dictionaries.
public enum DictionaryActions: IntentPackage {
    public static let name = "dictionaries"
    public static let intents: [any Intent.Type] = [
        MakeDictionary.self, GetValue.self, SetValue.self, GetKeys.self, GetValues.self,
    ]
}

/// `dictionary`: outputs its mapping as a dictionary.
struct MakeDictionary: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.dictionary", title: "Dictionary", parameters: ["WFItems": "entries"]),
    ]
    static let name = "dictionary"
    static let summary = "Outputs a dictionary of the given keys and values (or of a JSON object text)."
    static let examples = [
        IntentExample("- dictionary: { name: Relay, version: 1 }\n- get-value: name", output: "Relay"),
    ]
    static let output = OutputType.dictionary

    @Parameter(primary: true, summary: "The keys and values, e.g. { name: Relay, version: 1 }.") var entries: ValueDictionary

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.dictionary(entries))
    }
}

/// `get-keys`: the keys of a dictionary.
struct GetKeys: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.getvalueforkey", title: "Get Dictionary Value", parameters: ["WFInput": "input"],
            when: ["WFGetDictionaryValueType": ["All Keys"]]),
    ]
    static let summary = "Outputs the list of the input dictionary's keys, in order."
    static let examples = [
        IntentExample("- dictionary: { a: 1, b: 2 }\n- get-keys", output: "a\nb"),
    ]
    static let output = OutputType.list(of: .text)

    @Parameter(primary: true, input: true, summary: "The dictionary.") var dictionary: ValueDictionary

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.list(dictionary.keys.map { .text($0) }))
    }
}

/// `get-values`: the values of a dictionary.
struct GetValues: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.getvalueforkey", title: "Get Dictionary Value", parameters: ["WFInput": "input"],
            when: ["WFGetDictionaryValueType": ["All Values"]]),
    ]
    static let summary = "Outputs the list of the input dictionary's values, in order."
    static let examples = [
        IntentExample("- dictionary: { a: 1, b: 2 }\n- get-values", output: "1\n2"),
    ]
    static let output = OutputType.list

    @Parameter(primary: true, input: true, summary: "The dictionary.") var dictionary: ValueDictionary

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.list(Array(dictionary.values)))
    }
}
