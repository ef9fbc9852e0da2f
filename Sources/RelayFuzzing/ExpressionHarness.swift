import Foundation
import RelayKit
import RelayLanguage
import RelayRuntime

/// The text inside `${…}`: parsed, and evaluated against variables holding values at their limits.
enum ExpressionHarness {
    private static let place = SourceRange(file: SourceFile(path: "fuzz.yaml", text: ""), start: SourcePosition(line: 1, column: 1), length: 0)

    private static let variables: Variables = [
        "big": .number(1e308), "tiny": .number(.leastNonzeroMagnitude), "nan": .number(.nan), "inf": .number(.infinity), "n": .number(-7),
        "text": "12", "empty": "", "list": [1, "two", .nothing, [3]], "dict": .dictionary(["a": 1, "b": ["c": "d"]]),
        "nothing": .nothing, "yes": true, "when": .date(Date(timeIntervalSince1970: 1e12)),
        "link": .url(URL(string: "https://example.com/a?b=c")!),
    ]

    static func check(_ bytes: [UInt8]) async -> String? {
        guard let expression = try? ExpressionParser.parse(String(decoding: bytes, as: UTF8.self), locate: { _, _ in place })
        else { return nil }
        if let value = try? await Evaluator.evaluate(expression, variables) { _ = value.textValue }
        return nil
    }
}
