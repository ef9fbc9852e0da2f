import Foundation
import RelayKit
import Testing

@testable import RelayRuntime

/// Each built-in action, through a real workflow run: steps → compact JSON of the output.
@Suite("Built-in actions")
struct ActionTests {
    @Test("text, lists, dictionaries, math, dates, web", arguments: [
        // text
        ("- text: \"a ${1 + 2}\"", #""a 3""#),
        ("- text: Hello World\n- replace-text: { find: o, with: \"0\" }", #""Hell0 W0rld""#),
        ("- text: Hello World\n- replace-text: { find: '(\\w+) (\\w+)', with: '$2 $1', regex: true }", #""World Hello""#),
        ("- text: Hello World\n- replace-text: { find: hello, with: Bye, case-sensitive: false }", #""Bye World""#),
        ("- text: \"a b  c\"\n- split-text: spaces", #"["a","b","c"]"#),
        ("- text: abc\n- split-text: characters", #"["a","b","c"]"#),
        ("- text: \"x\\ny\\n\"\n- split-text", #"["x","y"]"#),
        ("- text: \"a\\r\\nb\\rc\\u2028d\\r\\n\"\n- split-text: newline", #"["a","b","c","d"]"#),
        ("- text: \"a\\r\\n\\r\\nb\"\n- count: lines", "3"),
        ("- text: a--b\n- split-text: \"--\"", #"["a","b"]"#),
        ("- list: [a, b]\n- combine-text", "\"a\\nb\""),
        ("- list: [a, b]\n- combine-text: space", #""a b""#),
        ("- list: [a, 1]\n- combine-text: \", \"", #""a, 1""#),
        ("- text: hello wORLD\n- change-case: title", #""Hello World""#),
        ("- text: Hello\n- change-case: lower", #""hello""#),
        ("- text: a1 b22 c333\n- match-text: '\\d+'", #"["1","22","333"]"#),
        ("- text: \"  padded \\n\"\n- trim-text", #""padded""#),
        ("- list: [a, b, c]\n- count", "3"),
        ("- text: héllo\n- count: characters", "5"),
        ("- text: one two, three\n- count: words", "3"),
        ("- text: \"a\\nb\\nc\\n\"\n- count: lines", "3"),
        ("- nothing\n- count", "0"),
        ("- dictionary: { a: 1, b: 2 }\n- count", "2"),
        // lists
        ("- list: [a, 1, true]", #"["a",1,true]"#),
        ("- list: solo", #"["solo"]"#),
        ("- list: [a, b, c]\n- get-item: first", #""a""#),
        ("- list: [a, b, c]\n- get-item: last", #""c""#),
        ("- list: [a, b, c]\n- get-item: 2", #""b""#),
        ("- list: [a, b, c]\n- get-item: -2", #""b""#),
        ("- list: [a, b, c, d]\n- get-item: { from: 2, to: 3 }", #"["b","c"]"#),
        ("- list: [a, b, c, d]\n- get-item: { from: -2 }", #"["c","d"]"#),
        // dictionaries
        ("- dictionary: { b: 1, a: x }", #"{"b":1,"a":"x"}"#),
        ("- dictionary: '{\"z\": [1, {\"y\": null}]}'", #"{"z":[1,{"y":null}]}"#),
        ("- dictionary: { user: { name: Ada, langs: [Swift, C] } }\n- get-value: user.langs.2", #""C""#),
        ("- dictionary: { a.b: 1 }\n- get-value: a.b", "1"),
        ("- dictionary: { a: 1 }\n- get-value: missing", "null"),
        ("- dictionary: { a: 1 }\n- set-value: { key: b.c, value: 2 }", #"{"a":1,"b":{"c":2}}"#),
        ("- dictionary: { a: 1, b: 2 }\n- get-keys", #"["a","b"]"#),
        ("- dictionary: { a: 1, b: [2] }\n- get-values", #"[1,[2]]"#),
        // math
        ("- number: \"1,234.5\"", "1234.5"),
        ("- calculate: \"2 + 3 * 4 ^ 2 / 8 - -1\"", "9"),
        ("- calculate: \"2 ^ 3 ^ 2\"", "512"),
        ("- calculate: \"sqrt(16) + abs(-2) + round(2.5) + floor(2.7) + ceil(2.1) + min(4, 1, 9) + max(1, 5)\"", "20"),
        ("- calculate: \"(1 + 2) * 3 % 4\"", "1"),
        ("- calculate: \"factorial(5) + factorial(0) + factorial(1) + cos(0) + sin(0) + tan(0)\"", "123"),
        ("- calculate: \"round(asin(1) * 2 / pi) + acos(1) + atan(0) + round(factorial(170) / 7.257415615307994e306)\"", "2"),
        ("- calculate: \"1e3 / 4\"", "250"),
        ("- number: 2.345\n- round-number: { places: 2 }", "2.35"),
        ("- number: 2.341\n- round-number: { places: 2, mode: up }", "2.35"),
        ("- number: 2.349\n- round-number: { mode: down }", "2"),
        ("- number: 3.14159\n- format-number: 3", #""3.142""#),
        ("- number: 7\n- format-number", #""7.00""#),
        ("- list: [3, 1, \"4\", 2]\n- statistics: sum", "10"),
        ("- list: [3, 1, 4, 2]\n- statistics: average", "2.5"),
        ("- list: [3, 1, 4, 2]\n- statistics: median", "2.5"),
        ("- list: [3, 1, 4]\n- statistics: median", "3"),
        ("- list: [3, 1, 4]\n- statistics: min", "1"),
        ("- list: [3, 1, 4]\n- statistics: max", "4"),
        ("- list: [3, 1, 4]\n- statistics: count", "3"),
        // dates
        ("- date: 2026-01-31\n- adjust-date: { add: 1 month }\n- format-date: yyyy-MM-dd", #""2026-02-28""#),
        ("- date: 2026-03-10\n- adjust-date: { subtract: 1 week 2 days }\n- format-date: yyyy-MM-dd", #""2026-03-01""#),
        ("- date: \"2026-03-10 08:00\"\n- adjust-date: { add: 90 minutes }\n- format-date: HH:mm", #""09:30""#),
        ("- date: 2026-11-22\n- format-date: EEEE d MMMM yyyy", #""Sunday 22 November 2026""#),
        ("- date: 2026-11-22\n- time-between: { end: 2026-12-25 }", "33"),
        ("- date: 2026-11-22\n- time-between: { end: 2027-02-01, unit: months }", "2"),
        ("- date: \"2026-11-22 10:00\"\n- time-between: { end: \"2026-11-22 13:30\", unit: hours }", "3"),
        ("- current-date\n- get-type", #""date""#),
        // scripting
        ("- list: [a, b]\n- get-details: count", "2"),
        ("- number: 1\n- get-type", #""number""#),
        ("- dictionary: { a: 1 }\n- get-type", #""dictionary""#),
        ("- text: kept\n- wait: 0.01", #""kept""#),
        ("- text: kept\n- comment: a note", #""kept""#),
        ("- text: gone\n- nothing", "null"),
        // web
        ("- url: https://example.com/a", #""https://example.com/a""#),
        ("- text: a b&c/é\n- url-encode", #""a%20b%26c%2F%C3%A9""#),
        ("- text: a%20b+c%C3%A9\n- url-decode", #""a b cé""#),
        ("- text: Relay ✓\n- base64-encode", #""UmVsYXkg4pyT""#),
        ("- text: UmVsYXkg4pyT\n- base64-decode", #""Relay ✓""#),
    ])
    func action(steps: String, expected: String) async throws {
        #expect(try await json(steps) == expected)
    }

    @Test("filter: comparators, match any, sort by several keys, limit")
    func filter() async throws {
        let people = """
            - list:
                - { name: Ada, age: 36, city: London }
                - { name: grace, age: 85, city: New York }
                - { name: Alan, age: 41, city: London }
                - { name: Edsger, age: 72, city: Austin }
            """
        func names(_ filter: String) async throws -> String {
            try await json(people + "\n" + filter + "\n- for-each:\n  do:\n    - text: \"${item.name}\"")
        }
        #expect(try await names("- filter: { where: { city: london }, sort: name }") == #"["Ada","Alan"]"#)
        #expect(try await names("- filter: { where: { city: { is: london, case-sensitive: true } } }") == "[]")
        #expect(try await names("- filter: { where: { age: { between: [40, 80] } }, sort: { by: age, order: descending } }") == #"["Edsger","Alan"]"#)
        #expect(try await names("- filter: { where: { name: { begins-with: a }, age: { greater-than: 40 } } }") == #"["Alan"]"#)
        #expect(try await names("- filter: { where: { name: { begins-with: a }, age: { greater-than: 80 } }, match: any, sort: name }") == #"["Ada","Alan","grace"]"#)
        #expect(try await names("- filter: { where: { city: { is-any-of: [Austin, New York] } }, sort: name }") == #"["Edsger","grace"]"#)
        #expect(try await names("- filter: { where: { name: { matches: '^[AE]' } }, sort: [city, name], limit: 2 }") == #"["Edsger","Ada"]"#)
        #expect(try await names("- filter: { where: { name: { does-not-contain: a } } }") == #"["Edsger"]"#)
        #expect(try await names("- filter: { where: { name: { ends-with: CE } } }") == #"["grace"]"#)
        #expect(try await names("- filter: { where: { age: { at-most: 41, at-least: 41 } } }") == #"["Alan"]"#)
        #expect(try await names("- filter: { where: { nickname: { has-any-value: false } }, limit: 1 }") == #"["Ada"]"#)
        #expect(try await names("- filter: { where: { name: { is-not: Ada } }, sort: name, limit: 1 }") == #"["Alan"]"#)
    }

    @Test("get-dates finds ISO, mail's and month-named dates in order, with their times; impossible days and slashed dates are left out")
    func getDates() async throws {
        let text = "Due 2026-12-01; review on 3 Dec 2026 at 14:30. Sent Fri, 27 Nov 2026 09:30:00 +0100. Then Sept. 5th, 2027 at 9:05 pm; not 31 Feb 2026, 2026-13-01 or 11/12/2026; at last 2026-11-27T08:00:00Z."
        let found = try await run("- text: \"\(text)\"\n- get-dates").asList
        let local = found.prefix(2).map { value -> String in
            guard case .date(let date) = value else { return "\(value)" }
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            return formatter.string(from: date)
        }
        #expect(local == ["2026-12-01 00:00", "2026-12-03 14:30"], "\(found)")
        #expect(found.count == 5, "\(found)")
        if found.count == 5 {
            #expect(found[2] == .date(Date(timeIntervalSince1970: 1_795_768_200)))  // 08:30 UTC
            #expect(found[4] == .date(Date(timeIntervalSince1970: 1_795_766_400)))
        }
        // A long text of near-dates is read in one pass, not by trying every start against every form.
        let long = String(repeating: "2026-11-2 3 Novembe 12:3 ", count: 20_000)
        #expect(try await run("- text: \"\(long)\"\n- get-dates\n- count") == .number(0))
    }

    @Test("format-date: rfc2822 is mail's and RSS's date, in English, with the machine's offset")
    func rfc2822() async throws {
        let text = try await json("- date: \"2026-03-10 08:05\"\n- format-date: rfc2822")
        #expect(text.hasPrefix(#""Tue, 10 Mar 2026 08:05:00 "#) && text.range(of: #" [+-][0-9]{4}"$"#, options: .regularExpression) != nil, "\(text)")
        #expect(try await json("- date: \"2026-03-10 08:05\"\n- format-date: { style: RFC2822 }") == text)
    }

    @Test("sort: random gives what passed in a random order; with a limit, a random few of them")
    func randomOrder() async throws {
        let numbers = "- list: [\((1...20).map(String.init).joined(separator: ", "))]\n"
        var seen = Set<Int>(), orders = Set<[Int]>()
        for _ in 0..<200 {
            let few = try JSONDecoder().decode([Int].self, from: Data(try await json(numbers + "- filter: { where: { item: { at-most: 10 } }, sort: random, limit: 3 }").utf8))
            #expect(few.count == 3 && Set(few).count == 3 && few.allSatisfy { (1...10).contains($0) }, "\(few)")
            seen.formUnion(few)
            orders.insert(try JSONDecoder().decode([Int].self, from: Data(try await json(numbers + "- filter: { sort: RANDOM }").utf8)))
        }
        // Each of the ten is among three chosen in 200 draws but with a chance of (7/10)^200.
        #expect(seen == Set(1...10))
        #expect(orders.count > 100 && orders.allSatisfy { $0.sorted() == Array(1...20) })
        #expect(try await json(numbers + "- filter: { sort: random, limit: 0 }") == "[]")
    }

    @Test("filter on plain values and dates")
    func filterValues() async throws {
        #expect(try await json("- list: [5, 1, 4, 9]\n- filter: { where: { item: { less-than: 5 } }, sort: item }") == "[1,4]")
        #expect(try await json("- list: [b, A, c]\n- filter: { sort: { by: item, order: descending } }") == #"["c","b","A"]"#)
        let dated = "- list: [2026-01-05, 2026-02-10, 2026-03-15]\n"
        #expect(try await json(dated + "- filter: { where: { item: { is-before: 2026-02-10 } } }") == #"["2026-01-05"]"#)
        #expect(try await json(dated + "- filter: { where: { item: { is-after: 2026-02-01, is-before: 2026-03-01 } } }") == #"["2026-02-10"]"#)
        let today = "- current-date:\n  as: now\n- list: [\"${now}\"]\n"
        #expect(try await json(today + "- filter: { where: { item: { is-today: true } } }\n- count") == "1")
        #expect(try await json(today + "- filter: { where: { item: { in-last: 1 days } } }\n- count") == "1")
        #expect(try await json(today + "- filter: { where: { item: { in-next: 2 hours } } }\n- count") == "0")
    }

    @Test("filter errors name the problem", arguments: [
        ("- list: [1]\n- filter: { where: { item: { greter-than: 0 } } }", "did you mean 'greater-than'?"),
        ("- list: [1]\n- filter: { where: { item: { between: 3 } } }", "'between' takes [low, high]"),
        ("- list: [1]\n- filter: { sort: { order: up } }", "'sort' needs 'by'"),
        ("- list: [[1]]\n- filter: { where: { item: { greater-than: 0 } } }", "cannot compare"),
    ])
    func filterErrors(steps: String, fragment: String) async {
        let error = await failure(steps)
        #expect(error?.message.contains(fragment) == true, "\(String(describing: error))")
    }

    @Test("actions fail with clear messages", arguments: [
        // A group asked of a pattern that has none: an error, not a range from 1 to 0.
        ("- text: start\n- match-text: { pattern: x, group: \"1\" }", "the pattern has 0 groups; there is no group 1"),
        ("- text: start\n- match-text: { pattern: \"(x)\", group: 2 }", "the pattern has 1 group; there is no group 2"),
        // Formulas from a variable: written literally they are the checker's (CheckerTests).
        ("- text: \"abc + 1\"\n- calculate: \"${previous}\"", "cannot read 'abc' as a number"),
        ("- text: \"1 / 0\"\n- calculate: \"${previous}\"", "division by zero"),
        ("- text: \"sqr(4)\"\n- calculate: \"${previous}\"", "did you mean 'sqrt'?"),
        ("- text: \"(1 + 2\"\n- calculate: \"${previous}\"", "missing ')'"),
        ("- list: [a]\n- get-item: 5", "index 5 is out of range"),
        ("- list: []\n- statistics: average", "empty list"),
        ("- text: x\n- replace-text: { find: \"(\", regex: true }", "not a valid regular expression"),
        ("- date: 2026-01-01\n- adjust-date: { add: soon }", "'soon' is not a duration"),
        ("- date: 2026-01-01\n- adjust-date", "give 'add' or 'subtract'"),
        ("- fail: \"custom message\"", "custom message"),
        ("- text: \"%%\"\n- base64-decode", "not Base64"),
        ("- list: []\n- choose-from-list", "the list is empty"),
        ("- text: \"${previous}\"\n- number: \"${previous}\"", "wants a number"),
    ])
    func errors(steps: String, fragment: String) async {
        let error = await failure(steps)
        #expect(error?.message.contains(fragment) == true, "\(String(describing: error))")
    }

    @Test("show prints during the run and outputs nothing")
    func show() async throws {
        let output = CollectedOutput()
        let result = try await run("- text: one\n- show\n- text: two\n- show", output: output)
        #expect(output.values == ["one", "two"])
        #expect(result == .nothing)
    }

    @Test("ask: by prompt, by the step's as name, by default; typed")
    func ask() async throws {
        #expect(try await json("- ask: \"Name?\"", answers: ["Name?": "Ada"]) == #""Ada""#)
        #expect(try await json("- ask: { prompt: \"Age?\", type: number }\n  as: age", answers: ["age": "36"]) == "36")
        #expect(try await json("- ask: { prompt: \"Age?\", type: number, default: 7 }") == "7")
        let error = await failure("- ask: \"Name?\"")
        #expect(error?.message.contains("no answer") == true)
        await #expect(throws: RuntimeError.self) { try await run("- ask: { prompt: \"Age?\", type: number }", answers: ["Age?": "old"]) }
    }

    @Test("choose-from-list: one, or several with multiple")
    func choose() async throws {
        #expect(try await json("- list: [red, green]\n- choose-from-list: { prompt: Colour }", answers: ["Colour": "green"]) == #""green""#)
        #expect(try await json("- list: [r, g, b]\n- choose-from-list: { prompt: C, multiple: true }", answers: ["C": "r,b"]) == #"["r","b"]"#)
    }

    @Test("confirm passes its input through on yes and cancels the run on no")
    func confirm() async throws {
        #expect(try await json("- text: kept\n- confirm: Sure?", answers: ["Sure?": "yes"]) == #""kept""#)
        await #expect(throws: RunCancelled.self) { try await run("- confirm: Sure?", answers: ["Sure?": "no"]) }
    }

    @Test("every action has a summary, and every parameter a summary")
    func documented() {
        for action in registry.actions {
            #expect(!action.summary.isEmpty, "\(action.name)")
            for parameter in action.parameters {
                #expect(!parameter.summary.isEmpty, "\(action.name).\(parameter.name)")
            }
        }
    }

    @Test("the issue's actions are all registered, and every built-in declaration is valid")
    func registered() {
        #expect(registry.declarationErrors().isEmpty)
        let names = "text number list dictionary date current-date replace-text split-text combine-text change-case match-text trim-text count get-item filter get-value set-value get-keys get-values calculate round-number format-number statistics adjust-date format-date time-between get-details get-type show ask choose-from-list confirm wait nothing comment fail run-workflow url url-encode url-decode base64-encode base64-decode"
        for name in names.split(separator: " ") {
            #expect(registry.action(named: String(name)) != nil, "\(name)")
        }
    }
}
