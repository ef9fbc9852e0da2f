import Foundation
import Testing

@testable import RelayKit

@Suite("Properties, indexing and comparison")
struct ValueAccessTests {
    @Test("lists have count, first and last; indexes are 1-based and negative from the end")
    func lists() throws {
        let list: Value = ["a", "b", "c"]
        #expect(try list.property("count") == 3)
        #expect(try list.property("first") == "a")
        #expect(try list.property("last") == "c")
        #expect(try list.element(at: 1) == "a")
        #expect(try list.element(at: -1) == "c")
        #expect(throws: ValueAccessError.self) { try list.element(at: 0) }
        #expect(throws: ValueAccessError.self) { try list.element(at: 4) }
        #expect(throws: ValueAccessError.self) { try list.property("width") }
    }

    @Test("dictionaries read keys first, missing keys are nothing")
    func dictionaries() throws {
        let dictionary: Value = .dictionary(["name": "Relay", "count": 7])
        #expect(try dictionary.property("name") == "Relay")
        #expect(try dictionary.property("count") == 7)
        #expect(try dictionary.property("missing") == .nothing)
        #expect(try dictionary.element(at: "name") == "Relay")
        #expect(try dictionary.property("keys") == ["name", "count"])
    }

    @Test("texts, dates and URLs have their properties")
    func scalars() throws {
        #expect(try Value.text("héllo").property("count") == 5)
        #expect(try Value.text("a b\nc").property("lines") == ["a b", "c"])
        #expect(try Value.text("it's a well-known fact").property("words") == ["it's", "a", "well-known", "fact"])
        // A text's size is the file's it would be saved as: its bytes in UTF-8.
        #expect(try Value.text("héllo").property("size") == 6)
        let date = try Value.text("2026-11-22 10:30").dateValue()
        #expect(try Value.date(date).property("year") == 2026)
        #expect(try Value.date(date).property("minute") == 30)
        let url = Value.url(URL(string: "https://example.com/a/b?q=1#top")!)
        #expect(try url.property("host") == "example.com")
        #expect(try url.property("path") == "/a/b")
        #expect(try url.property("query") == "q=1")
        // A single value is a list of one where a list's own property is read; nothing is a list of none.
        #expect(try Value.number(1).property("count") == 1)
        #expect(try Value.number(1).property("first") == 1)
        #expect(try Value.url(URL(fileURLWithPath: "/tmp/a")).property("count") == 1)
        #expect(try Value.nothing.property("count") == 0)
        #expect(try Value.text("abc").property("count") == 3)
        do {
            _ = try Value.number(1).property("width")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("no properties"))
        }
    }

    @Test("numbers compare with texts that read as numbers; dates with date texts")
    func comparison() throws {
        #expect(ValueComparison.equal(5, "5"))
        #expect(ValueComparison.order("10", 9) == .orderedDescending)
        let date = try Value.text("2026-11-22").dateValue()
        #expect(ValueComparison.equal(.date(date), "2026-11-22"))
        #expect(ValueComparison.order(.date(date), "2026-12-01") == .orderedAscending)
        #expect(ValueComparison.equal("Abc", "abc", ignoringCase: true))
        #expect(!ValueComparison.equal("Abc", "abc"))
        #expect(ValueComparison.order("apple", "Banana") == .orderedAscending)
        #expect(ValueComparison.order("file2", "file10") == .orderedAscending)
        #expect(ValueComparison.order([1], 2) == nil)
    }

    @Test("fixed decimal places round half away from zero")
    func fixedPlaces() {
        #expect(NumberFormatting.text(3.14159, places: 2) == "3.14")
        #expect(NumberFormatting.text(2.5, places: 0) == "3")
        #expect(NumberFormatting.text(-0.001, places: 2) == "0.00")
        #expect(NumberFormatting.text(0.05, places: 3) == "0.050")
        #expect(NumberFormatting.text(-1.005, places: 1) == "-1.0")
    }

    @Test("a value's own size is held to the bounds: a text's bytes, a list's or a dictionary's items")
    func sizeBounds() {
        #expect(Value.text("small").sizeProblem == nil)
        #expect(Value.textSizeProblem(Limits.textBytes) == nil)
        #expect(Value.textSizeProblem(Limits.textBytes + 1)?.hasPrefix("a text may be at most 256 MiB") == true)
        #expect(Value.itemsProblem(Limits.collectionItems, of: "a list") == nil)
        #expect(Value.itemsProblem(Limits.collectionItems + 1, of: "a list") == "a list may hold at most 10000000 items; this one would hold 10000001")
        #expect(Value.list([1, 2]).sizeProblem == nil)
    }
}
