import Foundation
import RelayKit

/// `open`: opens a URL (Docs/Language.md, "Opening URLs").
struct OpenURL: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.openurl", title: "Open URLs", parameters: ["WFInput": "input"]),
        ShortcutsMapping("is.workflow.actions.showwebpage", title: "Show Web Page", parameters: ["WFURL": "input", "WFInput": "input"]),
    ]
    static let name = "open"
    static let summary = "Opens the input URL (or a URL-representable entity's URL) with --open-with, $RELAY_OPEN or the system's opener (with --dry-run, prints 'open URL'); passes its input through."
    static let examples = [
        IntentExample("- url: https://example.com\n- open"),
    ]
    static let output = OutputType.any

    @Parameter(primary: true, input: true, summary: "The URL, or an entity whose type has a URL template.", access: .open) var target: Value

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        _ = try await target.eachItem { item in
            let url: URL
            if case .entity(let entity) = item {
                url = try await entity.url()
            } else {
                url = try item.urlValue()
            }
            try await context.open(url)
            return item
        }
        return .value(target)
    }
}
