import RelayKit

/// Actions that make and pick from lists.
public enum ListActions: IntentPackage {
    public static let name = "lists"
    public static let intents: [any Intent.Type] = [
        MakeList.self, GetItem.self, FilterList.self, Unique.self, ReverseList.self, SortList.self, RandomItem.self,
    ]
}

/// `list`: outputs its items as a list.
struct MakeList: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.list", title: "List", parameters: ["WFItems": "items"]),
    ]
    static let name = "list"
    static let summary = "Outputs a list of the given items."
    static let examples = [
        IntentExample("- list: [red, green, blue]\n- count", output: "3"),
    ]
    static let output = OutputType.list

    @Parameter(primary: true, summary: "The items, e.g. [red, green, blue].") var items: [Value]

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.list(items))
    }
}
