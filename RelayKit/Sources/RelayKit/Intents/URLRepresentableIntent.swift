import Foundation

/// An intent that needs no perform of its own: running it opens its target's URL (Docs/Language.md, "Opening URLs"), in
/// the manner of App Intents' `URLRepresentableIntent`.
///
/// ```swift
/// struct OpenTrail: URLRepresentableIntent {
///     static let summary = "Opens a trail's page."
///     @Parameter(primary: true, input: true) var target: Trail
/// }
/// ```
///
/// The target is an entity whose type has a URL template, a union of such types, or a URL.
public protocol URLRepresentableIntent: Intent {
    associatedtype Target: ParameterValue
    /// What to open.
    var target: Target { get }
}

extension URLRepresentableIntent {
    public static var output: OutputType { .url }
    /// It hands its URL to the system opener.
    public static var capabilities: [Capability] { [.open] }

    public func perform(_ context: any IntentContext) async throws -> IntentResult {
        let value = target.parameterValue
        if case .entity(let entity) = value {
            return .open(try await entity.url())
        }
        return .open(try value.urlValue())
    }
}
