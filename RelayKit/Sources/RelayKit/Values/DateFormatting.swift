import Foundation

/// Reads and writes dates the way workflows spell them.
public enum DateFormatting {
    /// ISO 8601 in the current time zone, e.g. `2026-11-22T09:30:00Z`.
    public static func iso8601(_ date: Date, timeZone: TimeZone = .current) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: timeZone))
    }

    /// Reads an ISO 8601 date or date-time, `YYYY-MM-DD HH:MM[:SS]`, or one of
    /// `today`, `yesterday`, `tomorrow` (the start of that day) and `now`.
    /// Returns nil for any other text.
    public static func parse(_ text: String, now: Date = Date(), calendar: Calendar = .current) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch trimmed.lowercased() {
        case "now": return now
        case "today": return calendar.startOfDay(for: now)
        case "yesterday": return calendar.date(byAdding: .day, value: -1, to: calendar.startOfDay(for: now))
        case "tomorrow": return calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: now))
        default: return parseNumeric(Array(trimmed.utf8), calendar: calendar)
        }
    }

    /// Parses `YYYY-MM-DD`, optionally followed by `T` or a space, `HH:MM`, `:SS`,
    /// fractional seconds, and `Z` or `±HH:MM` / `±HHMM`.
    private static func parseNumeric(_ bytes: [UInt8], calendar: Calendar) -> Date? {
        var scanner = ByteScanner(bytes: bytes)
        guard let year = scanner.digits(4), scanner.skip("-"),
            let month = scanner.digits(2), scanner.skip("-"),
            let day = scanner.digits(2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var components = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var timeZone: TimeZone? = nil
        if !scanner.atEnd {
            guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
                let hour = scanner.digits(2), scanner.skip(":"), let minute = scanner.digits(2),
                hour < 24, minute < 60
            else { return nil }
            components.hour = hour
            components.minute = minute
            if scanner.skip(":") {
                guard let second = scanner.digits(2), second < 61 else { return nil }
                components.second = second
                if scanner.skip(".") || scanner.skip(",") {
                    let start = scanner.position
                    guard scanner.skipDigits() > 0 else { return nil }
                    let fraction = Double("0." + String(decoding: bytes[start..<scanner.position], as: UTF8.self)) ?? 0
                    components.nanosecond = Int(fraction * 1_000_000_000)
                }
            }
            if scanner.skip("Z") || scanner.skip("z") {
                timeZone = TimeZone(secondsFromGMT: 0)
            } else if let sign = scanner.peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                scanner.position += 1
                guard let offsetHours = scanner.digits(2) else { return nil }
                _ = scanner.skip(":")
                let offsetMinutes = scanner.digits(2) ?? 0
                let seconds = (offsetHours * 3600 + offsetMinutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
                timeZone = TimeZone(secondsFromGMT: seconds)
            }
            guard scanner.atEnd else { return nil }
        }
        var calendar = calendar
        if let timeZone { calendar.timeZone = timeZone }
        guard let date = calendar.date(from: components),
            calendar.component(.day, from: date) == day
        else { return nil }
        return date
    }
}
