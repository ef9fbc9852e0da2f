import RelayKit

/// Actions that ask the person running the workflow.
public enum InteractionActions: IntentPackage {
    public static let name = "interaction"
    public static let intents: [any Intent.Type] = [
        Ask.self, ChooseFromList.self, Confirm.self, GetClipboard.self, SetClipboard.self, Notify.self,
    ]
}

/// `ask`: asks for a value.
struct Ask: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.ask", title: "Ask for Input",
            parameters: ["WFAskActionPrompt": "prompt", "WFInputType": "type", "WFAskActionDefaultAnswer": "default"],
            values: ["WFInputType": ["Text": "text", "Number": "number", "URL": "url", "Date": "date"]],
            defaults: ["WFAskActionPrompt": "", "WFInputType": "Text"]),
    ]
    static let summary = "Asks for a value (on the terminal, or from --answer PROMPT=VALUE) and outputs it."
    static let examples = [
        IntentExample("- ask: How many copies?\n  type: number\n  default: 2\n- calculate: \"${previous} * 10\"", output: "20"),
    ]
    static let output = OutputType.any

    @Parameter(primary: true, summary: "The question.") var prompt: String
    @Parameter(summary: "The type of the answer.", choices: ["text", "number", "boolean", "date", "url"]) var type: String = "text"
    @Parameter(name: "default", summary: "The answer when none is given.") var defaultAnswer: Value?

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let valueType = ValueType(name: type) ?? .text
        return .value(try await context.ask(Question(prompt: prompt, type: valueType, defaultValue: defaultAnswer)))
    }
}

/// `choose-from-list`: picks items.
struct ChooseFromList: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.choosefromlist", title: "Choose from List",
            parameters: ["WFInput": "input", "WFChooseFromListActionPrompt": "prompt", "WFChooseFromListActionSelectMultiple": "multiple"]),
    ]
    static let summary = "Asks to pick one item (or several, with 'multiple') of the input list."
    static let examples = [
        IntentExample("- list: [small, medium, large]\n- choose-from-list: Which size?"),
    ]
    static let output = OutputType.any

    @Parameter(input: true, summary: "The items to choose from.") var items: [Value]
    @Parameter(primary: true, summary: "The question.") var prompt: String = "Choose an item"
    @Parameter(summary: "Allow picking several items; the output is then a list.") var multiple: Bool = false

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard !items.isEmpty else { throw IntentError("there is nothing to choose from: the list is empty") }
        let request = ChoiceRequest(prompt: prompt, options: items.map(\.textValue), allowsMultiple: multiple)
        let chosen = try await context.choose(request).filter { items.indices.contains($0) }.map { items[$0] }
        if multiple { return .value(.list(chosen)) }
        return .value(chosen.first ?? .nothing)
    }
}

/// `confirm`: asks for a yes.
struct Confirm: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.alert", title: "Show Alert",
            defaults: ["WFAlertActionTitle": "", "WFAlertActionMessage": "Do you want to continue?", "WFAlertActionCancelButtonShown": "true"],
            templates: ["prompt": "{WFAlertActionTitle}\n{WFAlertActionMessage}"],
            when: ["WFAlertActionCancelButtonShown": ["true"]]),
    ]
    static let summary = "Asks for a yes; on a no the run is cancelled (exit status 3). Passes its input through."
    static let examples = [
        IntentExample("- confirm: Delete the old backups?\n- text: confirmed"),
    ]
    static let output = OutputType.any

    @Parameter(input: true, summary: "Passed through.") var value: Value
    @Parameter(primary: true, summary: "The question.") var prompt: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        try await context.requestConfirmation(prompt)
        return .value(value)
    }
}
