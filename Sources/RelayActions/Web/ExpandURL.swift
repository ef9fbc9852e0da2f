import Foundation
import RelayKit

/// `expand-url`: where a short or redirecting URL leads (Shortcuts' Expand URL).
struct ExpandURL: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.url.expand", title: "Expand URL", parameters: ["URL": "input", "WFInput": "input"]),
    ]
    static let summary =
        "Follows the input URL's redirects and outputs where they end (a HEAD request; each hop's host is asked for, as any request's is)."
    static let examples = [
        IntentExample("- url: https://bit.ly/example\n- expand-url"),
    ]
    static let output = OutputType.url

    @Parameter(primary: true, input: true, summary: "The URL.", access: .net) var url: URL

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw IntentError("expand-url takes an http or https URL, not '\(url.absoluteString)'")
        }
        let spill = try context.scratchFolder.path(forNewFile: ".expand-\(UUID().uuidString).part")
        defer { unlink(spill) }
        var response = try await HTTPClient.send(HTTPClient.Request(url: url, method: "HEAD", headers: [], body: nil), spillingTo: spill) {
            try await context.authorize($0)
        }
        // A server that takes no HEAD is asked with a GET.
        if response.status == 405 || response.status == 501 {
            response = try await HTTPClient.send(HTTPClient.Request(url: url, method: "GET", headers: [], body: nil), spillingTo: spill) {
                try await context.authorize($0)
            }
            if case .file(let path) = response.body, path != spill { unlink(path) }
        }
        return .value(.url(response.url ?? url))
    }
}
