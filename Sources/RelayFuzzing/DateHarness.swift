import Foundation
import RelayActions

/// A text from anywhere, read by `get-dates`: what it finds are dates within years 1 to 9999, no
/// more than one for every eight bytes (the shortest form, `2026-1-1`, is longer), and found again
/// in the same order when the text is read a second time.
enum DateHarness {
    static func check(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let dates = DateFinder.dates(in: text, calendar: calendar)
        if dates.count > bytes.count / 8 + 1 { return "\(dates.count) dates in \(bytes.count) bytes" }
        for date in dates {
            let year = calendar.component(.year, from: date)
            if !(1...9999).contains(year) { return "a date in the year \(year)" }
        }
        if DateFinder.dates(in: text, calendar: calendar) != dates { return "a second reading found other dates" }
        return nil
    }
}
