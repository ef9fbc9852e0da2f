import RelayKit

/// Random numbers, for `random-number` and `random(…)` in `calculate` alike: between two whole
/// numbers, a whole number with both ends included (a die is `1` to `6`); otherwise any number
/// from the smaller end up to the larger.
enum RandomNumbers {
    /// The largest whole number a workflow's number holds exactly (2^53).
    static let exactWholeLimit = 9_007_199_254_740_992.0

    static func number(from minimum: Double, to maximum: Double) throws(IntentError) -> Double {
        guard minimum.isFinite, maximum.isFinite else {
            throw IntentError("a random number needs finite ends, not \(NumberFormatting.text(minimum)) and \(NumberFormatting.text(maximum))")
        }
        guard minimum <= maximum else {
            throw IntentError(
                "the smallest end, \(NumberFormatting.text(minimum)), is larger than the largest, \(NumberFormatting.text(maximum))")
        }
        let whole = minimum.rounded() == minimum && maximum.rounded() == maximum
        if whole, let low = Int64(exactly: minimum), let high = Int64(exactly: maximum),
            abs(minimum) <= exactWholeLimit, abs(maximum) <= exactWholeLimit
        {
            return Double(Int64.random(in: low...high))
        }
        if minimum == maximum { return minimum }
        // Both ends are finite, but their distance may not be (-1e308 to 1e308), and a range that
        // wide cannot be drawn from directly: a point between them is.
        if (maximum - minimum).isFinite { return Double.random(in: minimum..<maximum) }
        let share = Double.random(in: 0..<1)
        return minimum * (1 - share) + maximum * share
    }
}

/// `random-number`: a number chosen at random.
struct RandomNumber: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.number.random", title: "Random Number",
            parameters: ["WFRandomNumberMinimum": "min", "WFRandomNumberMaximum": "max"], defaults: ["WFRandomNumberMinimum": "0", "WFRandomNumberMaximum": "100"]),
    ]
    static let summary = "Outputs a random number from 'min' to 'max': a whole number, both ends included, when both are whole."
    static let examples = [
        IntentExample("- random-number: { min: 1, max: 6 }"),
        IntentExample("- random-number: { min: 7, max: 7 }", output: "7"),
    ]
    static let output = OutputType.number

    @Parameter(summary: "The smallest number it may be.") var min: Double = 0
    @Parameter(summary: "The largest number it may be.") var max: Double = 100

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.number(try RandomNumbers.number(from: min, to: max)))
    }
}
