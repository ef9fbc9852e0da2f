import Foundation

/// Formats numbers the way Relay prints them: integers without `.0`, otherwise the
/// shortest decimal that reads back to the same number.
public enum NumberFormatting {
    /// The text for `number` (Docs/Language.md, "Types and conversion": number → text).
    public static func text(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number < 0 ? "-Infinity" : "Infinity" }
        if number == number.rounded(.towardZero), abs(number) < 1e15 {
            return String(Int64(number))
        }
        return "\(number)"
    }

    /// The text for `number` with exactly `places` digits after the decimal point.
    /// NaN and the infinities read `NaN`, `Infinity` and `-Infinity`, as `text(_:)` gives them.
    public static func text(_ number: Double, places: Int) -> String {
        let places = max(0, min(places, 15))
        var scaled = (number * pow10(places)).rounded(.toNearestOrAwayFromZero)
        // Past 2^53 a double has no digits after the point to show (and past 10^308 no finite scale).
        guard scaled.isFinite, abs(scaled) < 9.007_199_254_740_992e15 || places == 0 else {
            guard number.isFinite else { return text(number) }
            return String(format: "%.0f", number) + (places > 0 ? "." + String(repeating: "0", count: places) : "")
        }
        guard scaled.isFinite else { return text(number) }
        if scaled == 0 { scaled = 0 }  // no "-0"
        let negative = scaled < 0
        var digits = String(format: "%.0f", abs(scaled))
        guard places > 0 else { return (negative ? "-" : "") + digits }
        if digits.count <= places { digits = String(repeating: "0", count: places - digits.count + 1) + digits }
        let split = digits.index(digits.endIndex, offsetBy: -places)
        return (negative ? "-" : "") + digits[..<split] + "." + digits[split...]
    }

    private static func pow10(_ n: Int) -> Double {
        var result = 1.0
        for _ in 0..<n { result *= 10 }
        return result
    }
}
