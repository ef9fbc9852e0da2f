import Foundation

/// Reads durations such as `3 days`, `1 week 2 hours`, `90 minutes`, `2 months, 1 day`.
public enum DurationText {
    private static let units: [String: Calendar.Component] = [
        "second": .second, "seconds": .second, "sec": .second, "secs": .second, "s": .second,
        "minute": .minute, "minutes": .minute, "min": .minute, "mins": .minute,
        "hour": .hour, "hours": .hour, "h": .hour,
        "day": .day, "days": .day, "d": .day,
        "week": .weekOfYear, "weeks": .weekOfYear,
        "month": .month, "months": .month,
        "year": .year, "years": .year,
    ]

    /// The duration `text` names, as date components; an error says how to write one.
    public static func parse(_ text: String) throws(IntentError) -> DateComponents {
        let words = text.replacingOccurrences(of: ",", with: " ").split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty, words.count % 2 == 0 else { throw invalid(text) }
        var components = DateComponents()
        for pair in stride(from: 0, to: words.count, by: 2) {
            guard let amount = Int(words[pair]), let unit = units[words[pair + 1].lowercased()] else { throw invalid(text) }
            // Each part, and each unit's sum, within a billion: the calendar's sums stay exact, and
            // no number at its limit overflows (Int.max is also the calendar's "no value").
            let component: Calendar.Component = unit == .weekOfYear ? .day : unit
            let count = unit == .weekOfYear ? amount.multipliedReportingOverflow(by: 7) : (partialValue: amount, overflow: false)
            let total = (components.value(for: component) ?? 0).addingReportingOverflow(count.partialValue)
            let sum = total.partialValue
            guard !count.overflow, !total.overflow, (-largest...largest).contains(sum) else {
                throw IntentError("'\(text)' is too long a duration: at most \(largest) of a unit")
            }
            components.setValue(sum, for: component)
        }
        return components
    }

    /// The most of one unit a duration may have.
    private static let largest = 1_000_000_000

    private static func invalid(_ text: String) -> IntentError {
        IntentError("'\(text)' is not a duration; write N UNIT, e.g. '3 days' (units: seconds, minutes, hours, days, weeks, months, years)")
    }
}

extension DateComponents {
    /// The same duration backwards.
    public var negated: DateComponents {
        var result = DateComponents()
        for unit: Calendar.Component in [.second, .minute, .hour, .day, .month, .year] {
            if let value = value(for: unit), value != NSDateComponentUndefined { result.setValue(-value, for: unit) }
        }
        return result
    }
}
