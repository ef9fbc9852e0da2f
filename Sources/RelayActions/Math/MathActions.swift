import Foundation
import RelayEngine
import RelayKit

/// Actions on numbers.
public enum MathActions: IntentPackage {
    public static let name = "math"
    public static let intents: [any Intent.Type] = [
        MakeNumber.self, Calculate.self, RoundNumber.self, FormatNumber.self, Statistics.self, RandomNumber.self,
        ConvertMeasurement.self,
    ]
}

/// `number`: outputs a number.
struct MakeNumber: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.number", title: "Number", parameters: ["WFNumberActionNumber": "value"]),
    ]
    static let name = "number"
    static let summary = "Outputs the given number (text that reads as a number is converted)."
    static let examples = [
        IntentExample("- number: 41\n- calculate: \"${previous} + 1\"", output: "42"),
    ]
    static let output = OutputType.number

    @Parameter(primary: true, summary: "The number.") var value: Double

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.number(value))
    }
}

/// `calculate`: evaluates arithmetic.
struct Calculate: Intent {
    static let shortcuts =
        [
            ShortcutsMapping(
                "is.workflow.actions.math", title: "Calculate",
                values: ["WFMathOperation": ["+": "+", "-": "-", "×": "*", "x": "*", "*": "*", "÷": "/", "/": "/", "%": "%"]],
                defaults: ["WFInput": "${previous}", "WFMathOperation": "+"],
                templates: ["expression": "{WFInput} {WFMathOperation} {WFMathOperand}"],
                when: ["WFMathOperation": ["+", "-", "×", "x", "*", "÷", "/", "%"]])
        ]
        // Calculate's scientific operations (`…`), each a formula of the input.
        + [
            ("Modulus", "({WFInput}) % ({WFScientificMathOperand})"), ("x^2", "({WFInput}) ^ 2"), ("x^3", "({WFInput}) ^ 3"), ("x^y", "({WFInput}) ^ ({WFScientificMathOperand})"),
            ("e^x", "e ^ ({WFInput})"), ("10^x", "10 ^ ({WFInput})"), ("ln(x)", "ln({WFInput})"), ("log(x)", "log({WFInput})"),
            ("√x", "sqrt({WFInput})"), ("∛x", "cbrt({WFInput})"), ("abs(x)", "abs({WFInput})"), ("floor(x)", "floor({WFInput})"),
            ("ceil(x)", "ceil({WFInput})"), ("x!", "factorial({WFInput})"), ("sin(x)", "sin({WFInput})"), ("cos(x)", "cos({WFInput})"),
            ("tan(x)", "tan({WFInput})"),
        ].map { operation, formula in
            ShortcutsMapping(
                "is.workflow.actions.math", title: "Calculate", defaults: ["WFInput": "${previous}"], templates: ["expression": formula],
                when: ["WFMathOperation": ["…"], "WFScientificMathOperation": [operation]])
        }
    static let summary = "Evaluates arithmetic: + - * / % ^, parentheses, sqrt cbrt abs round floor ceil ln log exp, sin cos tan asin acos atan (radians), factorial, min max, random() and random(A, B)."
    static let examples = [
        IntentExample("- calculate: \"(2 + 3) * 4 ^ 2 / sqrt(16)\"", output: "20"),
        IntentExample("- calculate: \"random(1, 6) * 10\""),
        IntentExample("- calculate: \"ln(e ^ 2) + log(1000) + cbrt(27)\"", output: "8"),
        IntentExample("- calculate: \"factorial(5) + cos(0) + round(sin(pi / 2))\"", output: "122"),
    ]
    static let output = OutputType.number

    @Parameter(
        primary: true, summary: "The expression, e.g. \"${previous} * 2 + 1\".", check: Calculator.problem,
        checkPattern: Calculator.patternProblem)
    var expression: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.number(try Calculator.evaluate(expression)))
    }
}

extension Calculate: InstantIntent {
    /// A formula read once for the step, whose `${…}` each stand for a number: worked out from the
    /// numbers when the values are numbers, as their text would be read (any other value, and a
    /// formula that cannot be read so, is written into the text and read as `perform` reads it).
    static func instant(_ arguments: [InstantArgument?]) -> InstantAction? {
        let formula: Formula
        switch arguments.first {
        case .pattern(let pattern)?: guard let read = Formula(pattern) else { return nil }; formula = read
        case .value?: guard let read = Formula(TextPattern([.value])) else { return nil }; formula = read
        case .constant(.text(let text))?: guard let read = try? Formula(text) else { return nil }; formula = read
        default: return nil
        }
        return InstantAction { values in
            var numbers: [Double] = []
            numbers.reserveCapacity(values.count)
            for value in values {
                // A number's text reads back as the same number, but -0 as 0 (`0 ^ -1` is
                // infinity, `-0 ^ -1` its negative, which `atan` tells apart).
                guard case .number(let number) = value, number.isFinite else { return nil }
                numbers.append(number == 0 ? 0 : number)
            }
            return .number(try formula.value(with: numbers))
        }
    }
}

/// `round-number`: rounds to decimal places.
struct RoundNumber: Intent {
    /// The places Shortcuts rounds to, by the name it gives them (in `WFRoundTo`, or in older files
    /// `WFRoundType`).
    private static let places = ["Ones Place": "0", "Tenths": "1", "Hundredths": "2", "Thousandths": "3", "Ten Thousandths": "4"]
    private static let modes = ["Normal": "normal", "Always Round Up": "up", "Always Round Down": "down"]
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.round", title: "Round Number",
            parameters: ["WFInput": "input", "WFRoundTo": "places", "WFRoundType": "places", "WFRoundMode": "mode"],
            values: ["WFRoundTo": places, "WFRoundType": places, "WFRoundMode": modes],
            defaults: ["WFRoundType": "Ones Place", "WFRoundMode": "Normal"], when: ["WFRoundType": Array(places.keys).sorted()]),
        // Older files: a number of places to the right of the decimal point.
        ShortcutsMapping(
            "is.workflow.actions.round", title: "Round Number",
            parameters: ["WFInput": "input", "WFRoundDecimalPlaces": "places", "WFRoundMode": "mode"], values: ["WFRoundMode": modes],
            defaults: ["WFRoundMode": "Normal"], when: ["WFRoundType": ["Right of Decimal"]]),
    ]
    static let summary = "Rounds the input to a number of decimal places: normally, always up, or always down."
    static let examples = [
        IntentExample("- number: 2.345\n- round-number: { places: 1, mode: up }", output: "2.4"),
    ]
    static let output = OutputType.number

    @Parameter(input: true, summary: "The number.") var number: Double
    @Parameter(primary: true, summary: "Decimal places to keep.") var places: Int = 0
    @Parameter(summary: "How to round.", choices: ["normal", "up", "down"]) var mode: String = "normal"

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard (0...15).contains(places) else { throw IntentError("'places' is from 0 to 15, not \(places)") }
        let scale = pow(10, Double(places))
        let rule: FloatingPointRoundingRule =
            switch mode.lowercased() {
            case "up": .up
            case "down": .down
            default: .toNearestOrAwayFromZero
            }
        return .value(.number((number * scale).rounded(rule) / scale))
    }
}

/// `format-number`: a number as text with fixed decimal places.
struct FormatNumber: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.format.number", title: "Format Number",
            parameters: ["WFNumber": "input", "WFNumberFormatDecimalPlaces": "places"], defaults: ["WFNumberFormatDecimalPlaces": "2"]),
    ]
    static let summary = "Formats the input number as text with a fixed number of decimal places."
    static let examples = [
        IntentExample("- number: 3.14159\n- format-number: 2", output: "3.14"),
    ]
    static let output = OutputType.text

    @Parameter(input: true, summary: "The number.") var number: Double
    @Parameter(primary: true, summary: "Decimal places, 0 to 15.", check: { (0...15).contains($0) ? nil : "from 0 to 15, not \($0)" })
    var places: Int = 2

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard (0...15).contains(places) else { throw IntentError("'places' is from 0 to 15, not \(places)") }
        return .value(.text(NumberFormatting.text(number, places: places)))
    }
}

/// `statistics`: sum, average, min, max, median or count of a list of numbers.
struct Statistics: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.statistics", title: "Calculate Statistics", parameters: ["WFInput": "input", "WFStatisticsOperation": "of"],
            values: [
                "WFStatisticsOperation": [
                    "Average": "average", "Minimum": "min", "Maximum": "max", "Sum": "sum", "Median": "median", "Mode": "mode", "Range": "range",
                    "Standard Deviation": "deviation",
                ]
            ],
            defaults: ["WFStatisticsOperation": "Average"]),
    ]
    static let summary =
        "Computes the sum, average, minimum, maximum, median, mode (the most frequent; the smallest of a tie), range, standard deviation (of a sample) or count of the input list of numbers."
    static let examples = [
        IntentExample("- list: [2, 4, 9]\n- statistics: average", output: "5"),
        IntentExample("- list: [2, 4, 4, 4, 5, 5, 7, 9]\n- statistics: deviation\n- round-number: 3", output: "2.138"),
        IntentExample("- list: [3, 1, 3, 2]\n- statistics: mode", output: "3"),
    ]
    static let output = OutputType.number

    @Parameter(input: true, summary: "The numbers.") var items: [Value]
    @Parameter(primary: true, summary: "Which statistic.", choices: ["sum", "average", "min", "max", "median", "mode", "range", "deviation", "count"])
    var of: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let numbers = try items.map { try $0.numberValue() }
        let statistic = of.lowercased()
        if statistic == "count" { return .value(.number(Double(numbers.count))) }
        if statistic == "sum" { return .value(.number(numbers.reduce(0, +))) }
        guard !numbers.isEmpty else { throw IntentError("the \(statistic) of an empty list is undefined") }
        switch statistic {
        case "average": return .value(.number(numbers.reduce(0, +) / Double(numbers.count)))
        case "min": return .value(.number(numbers.min() ?? 0))
        case "max": return .value(.number(numbers.max() ?? 0))
        case "range": return .value(.number((numbers.max() ?? 0) - (numbers.min() ?? 0)))
        case "mode":
            var counts: [Double: Int] = [:]
            for number in numbers { counts[number, default: 0] += 1 }
            let most = counts.values.max() ?? 0
            return .value(.number(counts.filter { $0.value == most }.keys.min() ?? 0))
        case "deviation":
            guard numbers.count > 1 else { return .value(.number(0)) }
            let mean = numbers.reduce(0, +) / Double(numbers.count)
            let squares = numbers.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
            return .value(.number((squares / Double(numbers.count - 1)).squareRoot()))
        default:
            let sorted = numbers.sorted()
            let middle = sorted.count / 2
            return .value(.number(sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2))
        }
    }
}
