import Foundation
import RelayActions
import RelayEngine
import RelayKit
import RelayLanguage

/// A `calculate` formula, each `$` in it a value: planned once with the values standing where
/// numbers do (Docs/Architecture.md, "Steps that wait for nothing"), it gives for any numbers
/// what the formula with their text written in gives — the same number, or the same error.
enum FormulaHarness {
    /// `calculate`'s plan, found as a run finds it: through the registry's declaration.
    private static let calculate: (any InstantIntent.Type)? = {
        var registry = ActionRegistry()
        try? registry.register(BuiltinActions.self, prefixed: false)
        return registry.action(named: "calculate")?.intentType as? any InstantIntent.Type
    }()

    /// Numbers at the edges: signs, zero and minus zero, fractions whose text is long, and the largest.
    private static let numberSets: [[Double]] = [[5, -3, 0], [0.1, 1e21, -0.0], [170, 2.5e-8, -1e308], [.greatestFiniteMagnitude, 1, -2], [-0.0, -0.0, -1]]

    static func check(_ bytes: [UInt8]) -> String? {
        guard let calculate else { return "calculate plans no step" }
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        var pieces: [TextPattern.Piece] = []
        for (index, part) in text.split(separator: "$", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { pieces.append(.value) }
            if !part.isEmpty { pieces.append(.text(String(part))) }
        }
        let count = pieces.filter { $0 == .value }.count
        guard let planned = calculate.instant([.pattern(TextPattern(pieces))]) else { return nil }
        for set in numberSets {
            let numbers = (0..<count).map { set[$0 % set.count] }
            var next = 0
            let written = pieces.map { piece -> String in
                guard case .text(let text) = piece else {
                    defer { next += 1 }
                    return NumberFormatting.text(numbers[next])
                }
                return text
            }.joined()
            // A formula with random() in it gives another number each time, or an error one
            // time and not the next (`random(1, 2) ^ 1e308`): it is only read both ways.
            let random = written.lowercased().contains("random")
            let plannedOutcome = outcome { try planned.output(numbers.map(Value.number)) }
            guard let reading = calculate.instant([.constant(.text(written))]) else {
                return "'\(text)' is planned, but '\(written)' does not read as a formula"
            }
            let writtenOutcome = outcome { try reading.output([]) }
            if plannedOutcome != writtenOutcome, !random {
                return "'\(text)' with \(numbers): planned gives \(plannedOutcome), written '\(written)' gives \(writtenOutcome)"
            }
        }
        return nil
    }

    private static func outcome(_ body: () throws -> Value?) -> String {
        do {
            guard let value = try body() else { return "declined" }
            guard case .number(let number) = value else { return "not a number: \(value)" }
            // The same number to the bit: -0 is not 0 to what is worked out from it.
            return "number \(number.bitPattern)"
        } catch {
            return "error \(error)"
        }
    }
}
