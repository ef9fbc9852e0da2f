import Foundation
import RelayKit
import Testing

/// Durations as `adjust-date` and the like read them.
@Suite("Durations written as text")
struct DurationTextTests {
    @Test("units add up; weeks are seven days")
    func parts() throws {
        let duration = try DurationText.parse("1 week, 2 days 3 hours")
        #expect(duration.day == 9 && duration.hour == 3)
    }

    @Test("an amount past a billion of a unit, or one at Int's limits, is an error that says so, not a trap or nothing",
        arguments: ["9223372036854775807 seconds", "-9223372036854775808 days", "9223372036854775807 weeks", "1317624576693539401 weeks",
            "1000000000 days 1 day", "1000000001 years"])
    func tooLong(text: String) {
        do {
            let read = try DurationText.parse(text)
            Issue.record("'\(text)' read as \(read)")
        } catch {
            #expect(error.message.contains("is too long a duration"), "\(error.message)")
        }
    }
}
