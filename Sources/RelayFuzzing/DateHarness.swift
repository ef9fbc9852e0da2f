import Foundation
import RelayActions

/// A text from anywhere, read by `get-dates`: what it finds are dates of years 0 to 9999 written
/// in some time zone (so between 2 BC and 10000 AD in UTC), no more than one for every eight bytes (the shortest form, `2026-1-1`, is longer), and found again
/// in the same order when the text is read a second time.
enum DateHarness {
    static func check(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let dates = DateFinder.dates(in: text, calendar: calendar)
        if dates.count > bytes.count / 8 + 1 { return "\(dates.count) dates in \(bytes.count) bytes" }
        // From the start of the year 0 to the end of 9999, with a month to spare at each end: the
        // zone written with a date, and the Julian days Foundation's calendar has before 1582.
        let earliest = -62_167_219_200.0 - 31 * 86_400, latest = 253_402_300_800.0 + 31 * 86_400
        for date in dates where !(earliest...latest).contains(date.timeIntervalSince1970) {
            return "a date \(date.timeIntervalSince1970) s from 1970, outside the years 0 to 9999"
        }
        if DateFinder.dates(in: text, calendar: calendar) != dates { return "a second reading found other dates" }
        return nil
    }
}
