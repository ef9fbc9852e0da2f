import Foundation
import RelayKit

/// Actions on dates.
public enum DateActions: IntentPackage {
    public static let name = "dates"
    public static let intents: [any Intent.Type] = [
        MakeDate.self, DateFromParts.self, CurrentDate.self, AdjustDate.self, FormatDate.self, TimeBetween.self, StartOf.self, EndOf.self,
        GetDates.self,
    ]
}

/// `date`: a date from text.
struct MakeDate: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.date", title: "Date", parameters: ["WFDateActionDate": "date"], when: ["WFDateActionMode": ["Specified Date"]]),
    ]
    static let name = "date"
    static let summary = "Outputs a date: YYYY-MM-DD, an ISO 8601 date-time, 'YYYY-MM-DD HH:MM', today, yesterday, tomorrow or now."
    static let examples = [
        IntentExample("- date: 2026-11-24\n- format-date: EEEE", output: "Tuesday"),
    ]
    static let output = OutputType.date

    @Parameter(primary: true, summary: "The date as text.") var date: Date

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.date(date))
    }
}

/// `date-from-parts`: a date made of its year, month, day and time.
struct DateFromParts: Intent {
    static let summary = "Outputs the date made of a year, month, day, hour, minute and second, in the local time zone; a part past its range carries over, as a calendar counts (February 29 of 2026 is March 1)."
    static let examples = [
        IntentExample("- date-from-parts: { year: 2026, month: 2, day: 29 }\n- format-date: yyyy-MM-dd", output: "2026-03-01"),
        IntentExample("- current-date:\n  as: now\n- date-from-parts: { year: \"${now.year}\", month: 12, day: 25 }"),
    ]
    static let output = OutputType.date

    @Parameter(summary: "The year.") var year: Int
    @Parameter(summary: "The month, 1 to 12.") var month: Int = 1
    @Parameter(summary: "The day of the month.") var day: Int = 1
    @Parameter(summary: "The hour, 0 to 23.") var hour: Int = 0
    @Parameter(summary: "The minute.") var minute: Int = 0
    @Parameter(summary: "The second.") var second: Int = 0

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let parts = [("year", year), ("month", month), ("day", day), ("hour", hour), ("minute", minute), ("second", second)]
        // Within bounds that keep the calendar's arithmetic exact.
        if let (name, value) = parts.first(where: { !(-1_000_000...1_000_000).contains($0.1) }) { throw IntentError("'\(name)' is out of range: \(value)") }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        guard let made = Calendar.current.date(from: components) else {
            throw IntentError("no date has year \(year), month \(month), day \(day)")
        }
        return .value(.date(made))
    }
}

/// `current-date`: now.
struct CurrentDate: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.date", title: "Date", defaults: ["WFDateActionMode": "Current Date"], when: ["WFDateActionMode": ["Current Date"]]),
    ]
    static let summary = "Outputs the current date and time."
    static let examples = [
        IntentExample("- current-date\n- format-date: yyyy"),
    ]
    static let output = OutputType.date

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.date(Date()))
    }
}

/// `adjust-date`: adds or subtracts a duration.
struct AdjustDate: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.adjustdate", title: "Adjust Date", parameters: ["WFDate": "input", "WFDuration": "add"],
            defaults: ["WFAdjustOperation": "Add"], when: ["WFAdjustOperation": ["Add"]]),
        ShortcutsMapping(
            "is.workflow.actions.adjustdate", title: "Adjust Date", parameters: ["WFDate": "input", "WFDuration": "subtract"],
            when: ["WFAdjustOperation": ["Subtract"]]),
    ]
    static let summary = "Adds or subtracts a duration such as \"3 days\" or \"1 week 2 hours\" to the input date."
    static let examples = [
        IntentExample("- date: 2026-01-31\n- adjust-date: { add: 1 month }\n- format-date: yyyy-MM-dd", output: "2026-02-28"),
    ]
    static let output = OutputType.date

    @Parameter(input: true, summary: "The date.") var date: Date
    @Parameter(primary: true, summary: "A duration to add: N seconds, minutes, hours, days, weeks, months or years.") var add: String?
    @Parameter(summary: "A duration to subtract.") var subtract: String?

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard add != nil || subtract != nil else { throw IntentError("give 'add' or 'subtract', e.g. add: 3 days") }
        var result = date
        let calendar = Calendar.current
        for (text, sign) in [(add, 1), (subtract, -1)] {
            guard let text else { continue }
            let duration = try DurationText.parse(text)
            guard let next = calendar.date(byAdding: sign > 0 ? duration : duration.negated, to: result) else {
                throw IntentError("\(sign > 0 ? "adding" : "subtracting") '\(text)' leaves the dates the calendar can count")
            }
            result = next
        }
        return .value(.date(result))
    }
}

/// `format-date`: a date as text.
struct FormatDate: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.format.date", title: "Format Date",
            parameters: ["WFDate": "input", "WFDateFormatStyle": "style", "WFTimeFormatStyle": "time"],
            values: [
                "WFDateFormatStyle": ["None": "none", "Short": "short", "Medium": "medium", "Long": "long", "Relative": "relative"],
                "WFTimeFormatStyle": ["None": "none", "Short": "short", "Medium": "medium", "Long": "long"],
            ],
            defaults: ["WFDateFormatStyle": "Short", "WFTimeFormatStyle": "Short"], when: ["WFDateFormatStyle": ["None", "Short", "Medium", "Long", "Relative"]]),
        ShortcutsMapping(
            "is.workflow.actions.format.date", title: "Format Date", parameters: ["WFDate": "input"], fixed: ["style": "iso"],
            when: ["WFDateFormatStyle": ["ISO 8601"]]),
        ShortcutsMapping(
            "is.workflow.actions.format.date", title: "Format Date", parameters: ["WFDate": "input"], fixed: ["style": "rfc2822"],
            when: ["WFDateFormatStyle": ["RFC 2822"]]),
        ShortcutsMapping(
            "is.workflow.actions.format.date", title: "Format Date", parameters: ["WFDate": "input", "WFDateFormat": "format"],
            when: ["WFDateFormatStyle": ["Custom"]]),
    ]
    static let summary = "Formats the input date with a Unicode pattern (yyyy-MM-dd) or a style (iso, rfc2822, short, medium, long, relative: Today, Yesterday, Tomorrow)."
    static let examples = [
        IntentExample("- date: 2026-11-24T09:30:00Z\n- format-date: \"d MMM yyyy\"", output: "24 Nov 2026"),
        IntentExample("- current-date\n- format-date: short"),
        IntentExample("- current-date\n- format-date:\n    style: long\n    time: none"),
        IntentExample("- date: tomorrow\n- format-date:\n    style: relative\n    time: none", output: "Tomorrow"),
    ]
    static let output = OutputType.text

    @Parameter(input: true, summary: "The date.") var date: Date
    @Parameter(primary: true, summary: "A Unicode date pattern such as yyyy-MM-dd HH:mm, or a style's name (iso, rfc2822, short, medium, long).")
    var format: String?
    @Parameter(summary: "A standard style, used when no format is given; none leaves the date out (for the time alone, with 'time').", choices: Self.styles)
    var style: String = "iso"
    @Parameter(summary: "The time's style with a short, medium or long style: none leaves the time out; the same as the date's by default (iso and rfc2822 always have the time).", choices: ["none", "short", "medium", "long"])
    var time: String?

    static let styles = ["iso", "rfc2822", "short", "medium", "long", "relative", "none"]

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        // A style's name where a pattern goes is that style, as a Shortcuts user writes it
        // (`format-date: short`): as a pattern it would print letters of the date's fields.
        var format = format, style = style
        if let named = format, Self.styles.contains(named.lowercased()) { (format, style) = (nil, named) }
        if format == nil, style.lowercased() == "iso" { return .value(.text(DateFormatting.iso8601(date))) }
        let formatter = DateFormatter()
        if format == nil, style.lowercased() == "rfc2822" {
            // Mail's and RSS's dates: in English whatever the machine's language.
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone.current
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
            return .value(.text(formatter.string(from: date)))
        }
        formatter.locale = Locale.current
        formatter.timeZone = TimeZone.current
        if format == nil, style.lowercased() == "relative" { return .value(.text(relative(formatter))) }
        if let format {
            formatter.dateFormat = format
        } else {
            let styles: [String: DateFormatter.Style] = ["short": .short, "medium": .medium, "long": .long, "none": .none]
            formatter.dateStyle = styles[style.lowercased()] ?? .medium
            formatter.timeStyle = time.map { styles[$0.lowercased()] ?? .none } ?? styles[style.lowercased()] ?? .medium
        }
        return .value(.text(formatter.string(from: date)))
    }

    /// Today, Yesterday or Tomorrow for a date a day or less from today, else the medium style's
    /// date; then the time in its style (short unless `time` says).
    private func relative(_ formatter: DateFormatter) -> String {
        let calendar = Calendar.current
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: Date()), to: calendar.startOfDay(for: date)).day
        let styles: [String: DateFormatter.Style] = ["short": .short, "medium": .medium, "long": .long, "none": .none]
        formatter.dateStyle = .medium
        formatter.timeStyle = .none
        let day = [0: "Today", -1: "Yesterday", 1: "Tomorrow"][days ?? 99] ?? formatter.string(from: date)
        formatter.dateStyle = .none
        formatter.timeStyle = time.map { styles[$0.lowercased()] ?? .none } ?? .short
        let clock = formatter.timeStyle == .none ? "" : formatter.string(from: date)
        return clock.isEmpty ? day : "\(day) at \(clock)"
    }
}

/// `time-between`: whole units between two dates.
struct TimeBetween: Intent {
    static let summary = "Counts the whole units (days by default) from the start date to the end date."
    static let examples = [
        IntentExample("- date: 2026-01-01\n- time-between: { end: 2026-03-01, unit: days }", output: "59"),
    ]
    static let output = OutputType.number

    @Parameter(input: true, summary: "The start date.") var start: Date
    @Parameter(summary: "The end date; now if not given.") var end: Date?
    @Parameter(
        primary: true, summary: "The unit.", choices: ["seconds", "minutes", "hours", "days", "weeks", "months", "years"])
    var unit: String = "days"

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let end = self.end ?? Date()
        let calendar = Calendar.current
        let unitName = unit.lowercased()
        if ["seconds", "minutes", "hours"].contains(unitName) {
            let seconds = end.timeIntervalSince(start)
            let size: Double = unitName == "seconds" ? 1 : unitName == "minutes" ? 60 : 3600
            return .value(.number((seconds / size).rounded(.towardZero)))
        }
        let component: Calendar.Component =
            switch unitName {
            case "weeks": .weekOfYear
            case "months": .month
            case "years": .year
            default: .day
            }
        let difference = calendar.dateComponents([component], from: start, to: end)
        return .value(.number(Double(difference.value(for: component) ?? 0)))
    }
}

/// The periods `start-of` and `end-of` know, and the calendar's unit for each.
enum DatePeriod {
    static let names = ["day", "week", "month", "year"]

    /// The period of `unit` holding `date`, in the current calendar and time zone (a week starts
    /// on the locale's first day of the week).
    static func interval(_ unit: String, holding date: Date) throws -> DateInterval {
        let component: Calendar.Component =
            switch unit.lowercased() {
            case "day": .day
            case "week": .weekOfYear
            case "month": .month
            case "year": .year
            default: throw IntentError("'\(unit)' is not a period; use \(names.joined(separator: ", "))")
            }
        guard let interval = Calendar.current.dateInterval(of: component, for: date) else {
            throw IntentError("the calendar has no \(unit) holding \(DateFormatting.iso8601(date))")
        }
        return interval
    }
}

/// `start-of`: the first moment of the day, week, month or year.
struct StartOf: Intent {
    static let summary = "Outputs the first moment of the day, week, month or year the input date is in."
    static let examples = [
        IntentExample("- date: 2026-11-24 15:30\n- start-of: month\n- format-date: \"yyyy-MM-dd HH:mm\"", output: "2026-11-01 00:00"),
    ]
    static let output = OutputType.date

    @Parameter(input: true, summary: "The date.") var date: Date
    @Parameter(primary: true, summary: "The period.", choices: DatePeriod.names) var period: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.date(try DatePeriod.interval(period, holding: date).start))
    }
}

/// `end-of`: the last second of the day, week, month or year.
struct EndOf: Intent {
    static let summary = "Outputs the last second of the day, week, month or year the input date is in."
    static let examples = [
        IntentExample("- date: 2026-02-10\n- end-of: month\n- format-date: \"yyyy-MM-dd HH:mm:ss\"", output: "2026-02-28 23:59:59"),
    ]
    static let output = OutputType.date

    @Parameter(input: true, summary: "The date.") var date: Date
    @Parameter(primary: true, summary: "The period.", choices: DatePeriod.names) var period: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.date(try DatePeriod.interval(period, holding: date).end.addingTimeInterval(-1)))
    }
}
