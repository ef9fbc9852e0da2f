import Foundation
import RelayKit

/// A five-field cron schedule — minute, hour, day of the month, month, day of the week — or one of
/// `@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly` (Docs/Automations.md, "Schedules").
///
/// Times are the clock on the wall in a time zone: a time that does not happen (the hour skipped
/// when summer time starts) runs when the clock jumps past it; a time that happens twice (the hour
/// repeated when it ends) runs at its first. So a change of the clock neither skips nor doubles a run.
public struct CronSchedule: Sendable, Equatable {
    /// The allowed values of each field.
    public let minutes: Set<Int>
    public let hours: Set<Int>
    public let days: Set<Int>
    public let months: Set<Int>
    /// 0 is Sunday (7 is read as 0).
    public let weekdays: Set<Int>
    /// Whether the day of the month and the day of the week were each limited: then a day matching
    /// either runs (as every cron does).
    let daysLimited: Bool
    let weekdaysLimited: Bool

    /// The text as written.
    public let text: String

    private static let macros = [
        "@hourly": "0 * * * *", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@weekly": "0 0 * * 0",
        "@monthly": "0 0 1 * *", "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *",
    ]
    private static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// Reads `text`; the error says which field is wrong and why.
    public init(_ text: String) throws(CronError) {
        self.text = text
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let expanded: String
        if trimmed.hasPrefix("@") {
            guard let macro = Self.macros[trimmed.lowercased()] else {
                throw CronError(
                    "unknown schedule '\(Excerpt.start(of: trimmed))'\(Suggestions.didYouMean(trimmed.lowercased(), in: Array(Self.macros.keys).sorted()))"
                )
            }
            expanded = macro
        } else {
            expanded = trimmed
        }
        let fields = expanded.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count == 5 else {
            throw CronError(
                "a schedule has five fields — minute, hour, day of the month, month, day of the week — not \(fields.count) (\"30 7 * * 1-5\" is 7:30 on weekdays)"
            )
        }
        minutes = try Self.field(fields[0], "minute", 0...59)
        hours = try Self.field(fields[1], "hour", 0...23)
        days = try Self.field(fields[2], "day of the month", 1...31)
        months = try Self.field(fields[3], "month", 1...12, names: Self.monthNames, firstName: 1)
        weekdays = Set(try Self.field(fields[4], "day of the week", 0...7, names: Self.weekdayNames, firstName: 0).map { $0 % 7 })
        daysLimited = !fields[2].hasPrefix("*")
        weekdaysLimited = !fields[4].hasPrefix("*")
    }

    /// One field: `*`, `N`, `A-B`, each with an optional `/STEP`, separated by commas.
    private static func field(_ text: String, _ what: String, _ bounds: ClosedRange<Int>, names: [String] = [], firstName: Int = 0) throws(CronError) -> Set<Int> {
        var values = Set<Int>()
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            var step = 1
            if pieces.count == 2 {
                guard let number = Int(pieces[1]), number >= 1, number <= bounds.upperBound else {
                    throw CronError("the \(what) field's step '\(pieces[1])' is not a whole number from 1 to \(bounds.upperBound)")
                }
                step = number
            }
            let range: ClosedRange<Int>
            if pieces[0] == "*" {
                range = bounds
            } else {
                let ends = pieces[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                let low = try value(ends[0], what, bounds, names: names, firstName: firstName)
                let high = ends.count == 2 ? try value(ends[1], what, bounds, names: names, firstName: firstName) : (pieces.count == 2 ? bounds.upperBound : low)
                guard low <= high else { throw CronError("the \(what) range '\(pieces[0])' goes backwards") }
                range = low...high
            }
            values.formUnion(stride(from: range.lowerBound, through: range.upperBound, by: step))
        }
        return values
    }

    private static func value(_ text: Substring, _ what: String, _ bounds: ClosedRange<Int>, names: [String], firstName: Int) throws(CronError) -> Int {
        if let index = names.firstIndex(of: text.lowercased()) { return index + firstName }
        guard let number = Int(text) else {
            let choices = names.isEmpty ? "" : " or a name (\(names.prefix(3).joined(separator: ", ")) …)"
            throw CronError("the \(what) field takes a number from \(bounds.lowerBound) to \(bounds.upperBound)\(choices), not '\(Excerpt.start(of: String(text)))'")
        }
        guard bounds.contains(number) else {
            throw CronError("\(what) \(number) is out of range: it goes from \(bounds.lowerBound) to \(bounds.upperBound)")
        }
        return number
    }

    /// The first time after `date` the schedule runs, on the clocks of `zone`; nil when it never
    /// does in the next eight years (the 31st of February).
    public func next(after date: Date, in zone: TimeZone) -> Date? {
        // The wall clock's minute after `date`'s.
        var wall = WallTime(date, in: zone)
        wall.addMinute()
        let limit = wall.year + 8
        while wall.year <= limit {
            if !months.contains(wall.month) {
                wall.nextMonth()
                continue
            }
            if !matchesDay(wall) {
                wall.nextDay()
                continue
            }
            if !hours.contains(wall.hour) {
                wall.nextHour()
                continue
            }
            if !minutes.contains(wall.minute) {
                wall.addMinute()
                continue
            }
            // A wall time already passed (the first of a repeated hour) is not run again.
            if let instant = wall.instant(in: zone), instant > date { return instant }
            wall.addMinute()
        }
        return nil
    }

    private func matchesDay(_ wall: WallTime) -> Bool {
        let day = days.contains(wall.day), weekday = weekdays.contains(wall.weekday)
        if daysLimited && weekdaysLimited { return day || weekday }
        return day && weekday
    }
}

/// What is wrong with a schedule.
public struct CronError: Error, Sendable {
    public let message: String
    init(_ message: String) { self.message = message }
}

/// A time as a clock on the wall shows it: no time zone, no seconds.
package struct WallTime: Equatable {
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int

    init(year: Int, month: Int, day: Int, hour: Int, minute: Int) {
        (self.year, self.month, self.day, self.hour, self.minute) = (year, month, day, hour, minute)
    }

    /// What the clocks of `zone` show at `date`.
    package init(_ date: Date, in zone: TimeZone) {
        let local = Int((date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))).rounded(.down))
        let (days, seconds) = local.quotientAndRemainder(dividingBy: 86_400)
        let (dayNumber, secondOfDay) = seconds < 0 ? (days - 1, seconds + 86_400) : (days, seconds)
        (year, month, day) = WallTime.civil(fromDays: dayNumber)
        hour = secondOfDay / 3_600
        minute = secondOfDay % 3_600 / 60
    }

    /// 0 is Sunday.
    var weekday: Int {
        let days = WallTime.days(year: year, month: month, day: day)
        return ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday
    }

    mutating func addMinute() {
        minute += 1
        if minute == 60 { nextHour() }
    }

    mutating func nextHour() {
        minute = 0
        hour += 1
        if hour == 24 { nextDay() }
    }

    mutating func nextDay() {
        (minute, hour) = (0, 0)
        day += 1
        if day > WallTime.daysIn(month: month, year: year) { nextMonth() }
    }

    mutating func nextMonth() {
        (minute, hour, day) = (0, 0, 1)
        month += 1
        if month == 13 { (month, year) = (1, year + 1) }
    }

    /// The instant the clocks of `zone` show this: the earlier of two (a repeated hour), or the
    /// moment the clock jumped past it (a skipped one).
    func instant(in zone: TimeZone) -> Date? {
        let asUTC = Double(WallTime.days(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60)
        let guess = Date(timeIntervalSince1970: asUTC)
        // The offsets either side of the time: the same but near a change of the clock.
        let offsets = Set([zone.secondsFromGMT(for: guess.addingTimeInterval(-86_400)), zone.secondsFromGMT(for: guess), zone.secondsFromGMT(for: guess.addingTimeInterval(86_400))])
        let candidates = offsets.map { Date(timeIntervalSince1970: asUTC - Double($0)) }.filter { WallTime($0, in: zone) == self }.sorted()
        if let first = candidates.first { return first }
        // Skipped: the clock jumped from before this time to after it; run at the jump.
        let before = Date(timeIntervalSince1970: asUTC - Double(offsets.max() ?? 0))
        return zone.nextDaylightSavingTimeTransition(after: before.addingTimeInterval(-86_400)).flatMap { $0 <= before.addingTimeInterval(86_400) ? $0 : nil }
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (`civil_from_days`).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
