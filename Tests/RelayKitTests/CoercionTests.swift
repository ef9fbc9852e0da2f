import Foundation
import Testing

@testable import RelayKit

@Suite("Coercion (Docs/Language.md, 'Types and conversion')")
struct CoercionTests {
    @Test("text → number reads -12, 3.5, 1e3 and 1,234.5", arguments: [
        ("-12", -12.0), ("3.5", 3.5), ("1e3", 1000.0), ("1,234.5", 1234.5), (" 42 ", 42.0), ("1,234,567", 1_234_567.0),
    ])
    func textToNumber(text: String, expected: Double) throws {
        #expect(try Value.text(text).coerced(to: .number) == .number(expected))
    }

    @Test("text → number rejects other text, naming it", arguments: ["abc", "12abc", "1,23", "", "inf", "nan", "1,2345"])
    func textToNumberRejects(text: String) {
        #expect(throws: CoercionError.self) { try Value.text(text).coerced(to: .number) }
        do {
            _ = try Value.text(text).numberValue()
        } catch {
            #expect(error.description.contains("'\(text)'"))
        }
    }

    @Test("text → boolean takes true/false/yes/no/1/0 in any case")
    func textToBoolean() throws {
        for (text, expected) in [("true", true), ("YES", true), ("1", true), ("False", false), ("no", false), ("0", false)] {
            #expect(try Value.text(text).coerced(to: .boolean) == .boolean(expected))
        }
        #expect(throws: CoercionError.self) { try Value.text("maybe").coerced(to: .boolean) }
    }

    @Test("text → date reads ISO dates, date-times, 'YYYY-MM-DD HH:MM' and relative words")
    func textToDate() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let day = try Value.text("2026-11-22").dateValue()
        #expect(calendar.dateComponents([.year, .month, .day, .hour], from: day) == DateComponents(year: 2026, month: 11, day: 22, hour: 0))
        let utc = try Value.text("2026-11-22T10:30:00Z").dateValue()
        #expect(utc.timeIntervalSince1970 == 1_795_343_400)
        let offset = try Value.text("2026-11-22T12:30:00+02:00").dateValue()
        #expect(offset == utc)
        let spaced = try Value.text("2026-11-22 10:30").dateValue()
        #expect(calendar.component(.minute, from: spaced) == 30)
        let today = try Value.text("today").dateValue()
        #expect(today == calendar.startOfDay(for: Date()))
        #expect(try Value.text("tomorrow").dateValue().timeIntervalSince(today) > 0)
        #expect(try Value.text("yesterday").dateValue() < today)
        #expect(abs(try Value.text("now").dateValue().timeIntervalSinceNow) < 5)
        for bad in ["2026-13-01", "2026-02-30", "22/11/2026", "soon", "2026-11-22T25:00"] {
            #expect(throws: CoercionError.self) { try Value.text(bad).dateValue() }
        }
    }

    @Test("text → url needs an absolute URL with a scheme")
    func textToURL() throws {
        #expect(try Value.text("https://example.com/a?b=1").coerced(to: .url) == .url(URL(string: "https://example.com/a?b=1")!))
        #expect(throws: CoercionError.self) { try Value.text("example.com").coerced(to: .url) }
        #expect(throws: CoercionError.self) { try Value.text("not a url").coerced(to: .url) }
    }

    @Test("text → dictionary reads a JSON object, keeping key order")
    func textToDictionary() throws {
        let value = try Value.text(#"{"b": 1, "a": [true, null, "x"], "c": {"d": 2.5}}"#).coerced(to: .dictionary)
        guard case .dictionary(let entries) = value else {
            Issue.record("not a dictionary")
            return
        }
        #expect(Array(entries.keys) == ["b", "a", "c"])
        #expect(entries["a"] == .list([.boolean(true), .nothing, .text("x")]))
        #expect(throws: CoercionError.self) { try Value.text("[1, 2]").coerced(to: .dictionary) }
        #expect(throws: CoercionError.self) { try Value.text("{oops}").coerced(to: .dictionary) }
    }

    @Test("number → text has no .0 for integers and is the shortest that reads back")
    func numberToText() {
        #expect(Value.number(3).textValue == "3")
        #expect(Value.number(-0.0).textValue == "0")
        #expect(Value.number(2.5).textValue == "2.5")
        #expect(Value.number(0.1 + 0.2).textValue == "0.30000000000000004")
        #expect(Value.number(1e20).textValue == "1e+20")
        #expect(Value.number(1_000_000).textValue == "1000000")
    }

    @Test("date → text is ISO 8601")
    func dateToText() {
        let date = Date(timeIntervalSince1970: 1_795_343_400)
        #expect(DateFormatting.iso8601(date, timeZone: TimeZone(secondsFromGMT: 0)!) == "2026-11-22T10:30:00Z")
    }

    @Test("list → text joins with newlines; dictionary → text is JSON")
    func containersToText() {
        #expect(Value.list(["a", 1, true]).textValue == "a\n1\ntrue")
        let dictionary = Value.dictionary(["k": "v"])
        #expect(dictionary.textValue == "{\n  \"k\": \"v\"\n}")
    }

    @Test("any single value → list is a list of one; nothing is an empty list")
    func toList() throws {
        #expect(try Value.text("a").coerced(to: .list) == .list(["a"]))
        #expect(try Value.nothing.coerced(to: .list) == .list([]))
        #expect(try Value.list([1, 2]).coerced(to: .list) == .list([1, 2]))
    }

    @Test("a list of one item converts as its item")
    func singleItemList() throws {
        #expect(try Value.list(["7"]).coerced(to: .number) == .number(7))
        #expect(throws: CoercionError.self) { try Value.list([1, 2]).coerced(to: .number) }
    }

    @Test("conversions that cannot be done name both types")
    func impossible() {
        do {
            _ = try Value.date(Date()).coerced(to: .number)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("to a number"))
            #expect(error.description.contains("date"))
        }
    }

    @Test("conditions: false, 0, nothing, empty text or list, and the texts false/no are false")
    func truthiness() {
        for value: Value in [false, 0, .nothing, "", [], "false", "No", "FALSE"] { #expect(!value.isTruthy) }
        for value: Value in [true, 1, -2, "x", [0], "yes", "0.0"] { #expect(value.isTruthy) }
    }
}
