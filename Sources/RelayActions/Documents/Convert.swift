import RelayKit

/// `convert`: the input as another type or file format, through the converter graph.
struct Convert: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.detect.dictionary", title: "Get Dictionary from Input", parameters: ["WFInput": "input"], fixed: ["to": "dictionary"]),
        ShortcutsMapping("is.workflow.actions.detect.number", title: "Get Numbers from Input", parameters: ["WFInput": "input"], fixed: ["to": "number"]),
    ]
    static let summary = "Converts the input to a type (text, rich-text, number …) or a file format (pdf, html, png, jpeg …), chaining converters with the fewest lossy steps; made files go to the run's scratch folder."
    static let examples = [
        IntentExample("- text: \"42\"\n- convert: number\n- calculate: \"${previous} / 2\"", output: "21"),
        IntentExample("- text: \"# Notes\"\n- convert: html"),
    ]
    static let output = OutputType.any

    @Parameter(input: true, summary: "What to convert.", access: .read) var value: Value
    @Parameter(primary: true, summary: "A type name, an entity type (photo, note, a package's), or a content type (short name, extension, MIME type or identifier).") var to: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let target: Representation
        if let type = ValueType(name: to), type != .any {
            target = .value(type)
        } else if let entityType = context.entityTypes.descriptor(named: to) {
            // A value the type's value queries take, or a title.
            target = .value(.entity(entityType.name.singular))
        } else if let type = ContentType(name: to) {
            target = .file(type)
        } else {
            throw IntentError("'\(to)' is neither a type, an entity type nor a content type (try text, rich-text, pdf, html, png, jpeg, photo)")
        }
        // A format is made of each item, but for the formats that hold a list (JSON, CSV); a type
        // of the whole (a list's text is its lines).
        guard case .file(let format) = target, !format.holdsLists else {
            return .value(try await context.convert(value, to: target))
        }
        return .value(try await value.eachItem { item in try await context.convert(item, to: target) })
    }
}
