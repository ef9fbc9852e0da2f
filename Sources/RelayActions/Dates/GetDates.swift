import Foundation
import RelayKit

/// `get-dates`: the dates written in a text (Shortcuts' Get Dates from Input).
struct GetDates: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.detect.date", title: "Get Dates from Input", parameters: ["WFInput": "value"]),
    ]
    static let summary =
        "Outputs the dates written in the input text, in the order met: ISO 8601 (2026-11-27, 2026-11-27T09:30:00Z), mail's and RSS's dates (Fri, 27 Nov 2026 09:30:00 +0000), and dates with an English month's name (27 November 2026, Nov 27, 2026), each with the time written after it (9:30, 9:30 pm) if any. Dates with slashes (11/12/2026) are left out: they are read differently in different countries."
    static let examples = [
        IntentExample(
            "- text: \"Due 2026-12-01; the review is on 3 Dec 2026 at 14:30.\"\n- get-dates\n- for-each:\n  do:\n    - format-date: yyyy-MM-dd HH:mm",
            output: "2026-12-01 00:00\n2026-12-03 14:30"),
    ]
    static let output = OutputType.list(of: .date)

    @Parameter(primary: true, input: true, summary: "A text, a date, or a list of them.") var value: Value

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        var dates: [Value] = []
        for item in value.asList {
            try Task.checkCancellation()
            switch item {
            case .nothing: continue
            case .date: dates.append(item)
            default: dates += DateFinder.dates(in: item.textValue).map(Value.date)
            }
        }
        return .value(.list(dates))
    }
}

/// Finds dates written in a text, by the forms `get-dates` documents.
package enum DateFinder {
    private static let months = [
        "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10, "nov": 11, "dec": 12,
    ]
    private static let monthName = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?"
    private static let time = "(?:,?\\s+(?:at\\s+)?(\\d{1,2}):(\\d{2})(?::(\\d{2}))?\\s*(am|pm|a\\.m\\.|p\\.m\\.)?(?:\\s*(gmt|utc|z|[+-]\\d{4}))?)?"
    // ISO 8601 first; then a day before its month's name (with a weekday, as mail writes it),
    // then a month's name before its day.
    private static let patterns: [NSRegularExpression] = [
        "\\b\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?(?![\\d-])",
        "\\b(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\\s+)?(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?\(monthName),?\\s+(\\d{4})\\b\(time)",
        "\\b\(monthName)\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b\(time)",
    ].compactMap { try? NSRegularExpression(pattern: $0, options: [.caseInsensitive]) }

    /// The dates in `text`, in the order they are written; a place two forms both match is read once.
    package static func dates(in text: String, calendar: Calendar = .current) -> [Date] {
        let whole = NSRange(text.startIndex..., in: text)
        var found: [(location: Int, end: Int, date: Date)] = []
        for (index, pattern) in patterns.enumerated() {
            for match in pattern.matches(in: text, range: whole) {
                guard !found.contains(where: { match.range.location < $0.end && $0.location < match.range.location + match.range.length }) else { continue }
                let date: Date?
                if index == 0 {
                    date = Range(match.range, in: text).flatMap { DateFormatting.parse(String(text[$0]), calendar: calendar) }
                } else {
                    let groups = (1..<match.numberOfRanges).map { number in
                        Range(match.range(at: number), in: text).map { String(text[$0]).lowercased() }
                    }
                    // Day, month, year (index 1) or month, day, year (index 2); then the time.
                    let (day, month, year) = index == 1 ? (groups[0], groups[1], groups[2]) : (groups[1], groups[0], groups[2])
                    date = make(day: day, month: month, year: year, time: Array(groups[3...]), calendar: calendar)
                }
                if let date { found.append((match.range.location, match.range.location + match.range.length, date)) }
            }
        }
        return found.sorted { $0.location < $1.location }.map(\.date)
    }

    private static func make(day: String?, month: String?, year: String?, time: [String?], calendar: Calendar) -> Date? {
        guard let day = day.flatMap({ Int($0) }), let year = year.flatMap({ Int($0) }),
            let month = month.flatMap({ months[String($0.prefix($0.hasPrefix("sept") ? 4 : 3)).trimmingCharacters(in: .punctuationCharacters)] }),
            (1...31).contains(day)
        else { return nil }
        var components = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var calendar = calendar
        if let hourText = time[0], var hour = Int(hourText), let minute = time[1].flatMap({ Int($0) }), minute < 60 {
            let meridiem = time[3]?.replacingOccurrences(of: ".", with: "")
            if let meridiem {
                guard (1...12).contains(hour) else { return nil }
                hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
            }
            guard hour < 24 else { return nil }
            components.hour = hour
            components.minute = minute
            components.second = time[2].flatMap { Int($0) }.flatMap { $0 < 61 ? $0 : nil } ?? 0
            switch time[4] {
            case "gmt"?, "utc"?, "z"?: calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
            case let offset? where offset.count == 5:
                let digits = Int(offset.dropFirst()) ?? 0
                let seconds = ((digits / 100) * 3600 + (digits % 100) * 60) * (offset.hasPrefix("-") ? -1 : 1)
                calendar.timeZone = TimeZone(secondsFromGMT: seconds) ?? calendar.timeZone
            default: break
            }
        }
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return date
    }
}
