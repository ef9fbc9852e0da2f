import Foundation
import RelayKit

/// `open`: opens a URL (SPEC §7).
struct OpenURL: Intent {
    static let name = "open"
    static let summary = "Opens the input URL with --open-with, $RELAY_OPEN or the system's opener (with --dry-run, prints 'open URL'); passes its input through."
    static let output = ValueType.url

    @Parameter(input: true, summary: "The URL to open.") var url: URL

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        try await context.open(url)
        return .value(.url(url))
    }
}
