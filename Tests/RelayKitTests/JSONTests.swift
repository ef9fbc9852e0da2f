import Testing

@testable import RelayKit

@Suite("JSON writing and reading")
struct JSONTests {
    @Test("pretty JSON has two-space indents, key order, and a space after the colon only")
    func pretty() {
        let value: Value = .dictionary(["b": 1, "a": ["x", "y"], "e": .dictionary([:]), "l": []])
        #expect(JSONWriter.string(for: value, pretty: true) == """
            {
              "b": 1,
              "a": [
                "x",
                "y"
              ],
              "e": {},
              "l": []
            }
            """)
    }

    @Test("compact JSON and escapes")
    func compact() {
        let value: Value = ["quote \" back \\ line\n tab\t", 2.5, .nothing, false, "\u{01}"]
        #expect(JSONWriter.string(for: value, pretty: false) == #"["quote \" back \\ line\n tab\t",2.5,null,false,"\u0001"]"#)
    }

    @Test("reading round-trips what writing wrote")
    func roundTrip() throws {
        let value: Value = .dictionary(["z": [1, 2.5, -3e2], "a": .dictionary(["n": .nothing, "t": true]), "s": "é \u{1F600} \"q\""])
        let text = JSONWriter.string(for: value, pretty: true)
        #expect(try JSONReader.value(from: text) == value)
    }

    @Test("reading decodes \\u escapes and surrogate pairs")
    func unicodeEscapes() throws {
        #expect(try JSONReader.value(from: #""\u00e9\ud83d\ude00""#) == .text("é😀"))
    }

    @Test("malformed JSON is an error, not a crash", arguments: ["", "{", "[1,", "{\"a\" 1}", "tru", "\"open", "[1] x", "{\"a\":}", String(repeating: "[", count: 10_000)])
    func malformed(text: String) {
        #expect(throws: JSONReadError.self) { try JSONReader.value(from: text) }
    }

    // MARK: RFC 8259, rule by rule (Docs/Language.md, "Reading JSON")

    /// The error reading `text` gives, or nil when it reads.
    private func failure(_ text: String) -> JSONReadError? {
        do {
            _ = try JSONReader.value(from: text)
            return nil
        } catch {
            return error
        }
    }

    private func failure(bytes: [UInt8]) -> JSONReadError? {
        do {
            _ = try JSONReader.value(from: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test("value: any value may stand alone, with whitespace (space, tab, CR, LF) around it", arguments: [
        ("0", Value.number(0)), (" \t\r\n true \n", .boolean(true)), ("null", .nothing), ("\"x\"", .text("x")), ("[]", .list([])),
        ("{}", .dictionary([:])), ("-0.5e-1", .number(-0.05)),
    ])
    func standAlone(text: String, value: Value) throws {
        #expect(try JSONReader.value(from: text) == value)
    }

    @Test("value: only the three lowercase literals", arguments: ["True", "nul", "NULL", "nan", "NaN", "Infinity", "-Infinity", "undefined", "'a'", "truex"])
    func literals(text: String) {
        #expect(failure(text) != nil)
    }

    @Test("number: the grammar -? (0 | [1-9][0-9]*) (. digits)? ([eE] [+-]? digits)?", arguments: [
        ("0", 0.0), ("-0", -0.0), ("12", 12), ("-12", -12), ("1.5", 1.5), ("0.25", 0.25), ("1e3", 1000), ("1E3", 1000),
        ("1e+3", 1000), ("1e-3", 0.001), ("2.5E-2", 0.025), ("123456789012345678901234567890", 1.2345678901234568e29),
    ])
    func numbers(text: String, number: Double) throws {
        #expect(try JSONReader.value(from: text) == .number(number))
        #expect(try JSONReader.value(from: "[\(text)]") == .list([.number(number)]))
    }

    @Test("number: no plus sign, leading zero, bare point, empty exponent, hex or infinity", arguments: [
        ("+1", 0), ("-01", 2), ("012", 1), ("-012", 2), (".2e-3", 0), ("-.123", 1), ("0.e1", 2), ("2.e3", 2), ("2.e+3", 2),
        ("2.e-3", 2), ("1.", 2), ("-2.", 3), ("1e", 2), ("1e+", 3), ("0x1F", 1), ("-", 1), ("- 1", 1), ("1.5.2", 3), ("Inf", 0),
    ])
    func badNumbers(text: String, offset: Int) throws {
        let error = try #require(failure(text))
        #expect(error.offset == offset, "\(text): \(error)")
    }

    @Test("number: beyond a double's range is an error naming it; below it is zero")
    func numberRange() throws {
        let error = try #require(failure("[1e400]"))
        #expect(error.offset == 1)
        #expect(error.message.contains("1e400"))
        #expect(failure("-1e309") != nil)
        #expect(try JSONReader.value(from: "1e-400") == .number(0))
        #expect(try JSONReader.value(from: "1.7976931348623157e308") == .number(.greatestFiniteMagnitude))
    }

    @Test("string: raw control characters are errors naming the escape to write instead", arguments: [
        ("\"a\nb\"", "\\n"), ("\"a\tb\"", "\\t"), ("\"a\u{0}b\"", "\\u0000"), ("\"a\u{1F}b\"", "\\u001F"), ("\"\r\"", "\\r"),
    ])
    func controlCharacters(text: String, escape: String) throws {
        let error = try #require(failure(text))
        #expect(error.message.contains(escape), "\(error)")
        #expect(error.offset == text.utf8.firstIndex(where: { $0 < 0x20 }).map { text.utf8.distance(from: text.utf8.startIndex, to: $0) })
    }

    @Test("string: the escapes \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX, in either case of hex digit")
    func escapes() throws {
        #expect(try JSONReader.value(from: #""\"\\\/\b\f\n\r\t""#) == .text("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(try JSONReader.value(from: #""\u0041\u00e9\u00E9\u0000""#) == .text("Aéé\u{0}"))
    }

    @Test("string: other escapes and short or signed \\u are errors at the backslash's letter", arguments: [
        (#""\a""#, 2), (#""\x41""#, 2), (#""\'""#, 2), (#""\u12""#, 3), (#""\u+123""#, 3), (#""\u-123""#, 3), (#""\uGGGG""#, 3),
        (#""\U0041""#, 2), ("\"\\", 2),
    ])
    func badEscapes(text: String, offset: Int) throws {
        let error = try #require(failure(text))
        #expect(error.offset == offset, "\(text): \(error)")
    }

    @Test("string: a surrogate without its other half becomes U+FFFD; the character after it is kept", arguments: [
        (#"["\uD888\u1234"]"#, "\u{FFFD}\u{1234}"), (#"["\uD800\uD800\n"]"#, "\u{FFFD}\u{FFFD}\n"), (#"["\uDC00"]"#, "\u{FFFD}"),
        (#"["\uD800"]"#, "\u{FFFD}"), (#"["\uD800abc"]"#, "\u{FFFD}abc"), (#"["\uD800\""]"#, "\u{FFFD}\""),
        (#"["\uDBFF\uDFFF"]"#, "\u{10FFFF}"), (#"["\uDFFF\uD800"]"#, "\u{FFFD}\u{FFFD}"),
    ])
    func loneSurrogates(text: String, expected: String) throws {
        #expect(try JSONReader.value(from: text) == .list([.text(expected)]))
    }

    @Test("string: a bad escape after a high surrogate is still an error")
    func surrogateThenBadEscape() {
        #expect(failure(#"["\uD800\uD800\x"]"#) != nil)
    }

    @Test("string: bytes that are not UTF-8 are an error at the first bad byte")
    func notUTF8() throws {
        for (bytes, offset) in [([0x22, 0x61, 0xFF, 0x22], 2), ([0x22, 0xC0, 0xAF, 0x22], 1), ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),
            ([0x5B, 0x22, 0xE9, 0x22, 0x5D], 2), ([0x22, 0x80, 0x22], 1)] as [([UInt8], Int)]
        {
            let error = try #require(failure(bytes: bytes))
            #expect(error.offset == offset, "\(bytes): \(error)")
            #expect(error.message.contains("not UTF-8"))
        }
        #expect(failure(bytes: [0xE9]) != nil)  // outside a string: not a value
        #expect(try JSONReader.value(from: [0x22, 0xC3, 0xA9, 0x22]) == .text("é"))
    }

    @Test("a byte order mark at the start is skipped; anywhere else it is an error")
    func byteOrderMark() throws {
        #expect(try JSONReader.value(from: [0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == .dictionary([:]))
        #expect(failure(bytes: Array("[".utf8) + [0xEF, 0xBB, 0xBF] + Array("]".utf8)) != nil)
        #expect(failure(bytes: [0xEF, 0xBB, 0xBF]) != nil)
    }

    @Test("array and object: no trailing or missing commas, keys are strings, a colon after each key", arguments: [
        ("[1,]", 3), ("[1 2]", 3), ("[,1]", 1), ("[1,,2]", 3), ("{\"a\":1,}", 7), ("{\"a\" 1}", 5), ("{a:1}", 1), ("{1:1}", 1),
        ("{\"a\":1 \"b\":2}", 7), ("{\"a\"}", 4), ("[1}", 2), ("{\"a\":1]", 6), ("['a']", 1), ("[1", 2), ("{", 1),
    ])
    func structure(text: String, offset: Int) throws {
        let error = try #require(failure(text))
        #expect(error.offset == offset, "\(text): \(error)")
    }

    @Test("a trailing comma is named as such")
    func trailingComma() throws {
        #expect(try #require(failure("[1, 2,]")).message.contains("no trailing commas"))
    }

    @Test("object: a key given twice keeps its first place and its last value")
    func duplicateKeys() throws {
        #expect(try JSONReader.value(from: #"{"a":1,"b":2,"a":3}"#) == .dictionary(["a": 3, "b": 2]))
        guard case .dictionary(let entries) = try JSONReader.value(from: #"{"a":1,"b":2,"a":3}"#) else { return }
        #expect(entries.keys.elementsEqual(["a", "b"]))
    }

    @Test("object: a key given twice in a wide object, or in objects inside lists inside objects, keeps its first place and its last value")
    func duplicateKeysWide() throws {
        let keys = (1...20).map { "k\($0)" }
        let members = keys.enumerated().map { "\"\($0.element)\": \($0.offset)" } + ["\"k3\": \"again\"", "\"k20\": [1, {\"x\": 1, \"x\": 2}]"]
        let text = "[[0], {" + members.joined(separator: ", ") + "}, {\"k1\": true}, 9]"
        guard case .list(let items) = try JSONReader.value(from: text), items.count == 4, case .dictionary(let wide) = items[1] else {
            Issue.record("not a list of four with an object second")
            return
        }
        #expect(Array(wide.keys) == keys)
        #expect(wide["k3"] == .text("again") && wide["k2"] == .number(1))
        #expect(wide["k20"] == .list([.number(1), .dictionary(["x": 2])]))
        #expect(items[0] == .list([.number(0)]) && items[2] == .dictionary(["k1": .boolean(true)]) && items[3] == .number(9))
    }

    @Test("objects with the same keys share them: a list of records holds each key once; changing one record leaves the others")
    func sharedKeys() throws {
        guard case .list(let records) = try JSONReader.value(from: #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}, {"name": "c", "id": 3}]"#),
            case .dictionary(var first) = records[0], case .dictionary(let second) = records[1], case .dictionary(let third) = records[2]
        else {
            Issue.record("not three records")
            return
        }
        let storage = { (entries: ValueDictionary) in entries.keys.elements.withUnsafeBufferPointer { $0.baseAddress } }
        #expect(storage(first) == storage(second))
        #expect(storage(first) != storage(third), "another order is another shape")
        first["id"] = .number(10)
        #expect(second == ["id": 2, "name": "b"] && first == ["id": 10, "name": "a"])
        // Values take 32 bytes each, not the 88 of a file reference.
        #expect(MemoryLayout<Value>.stride <= 32)
    }

    @Test("text after the value is an error; whitespace is not", arguments: [("1 2", 2), ("{} {}", 3), ("null x", 5), ("\"a\"\"b\"", 3), ("[]\u{0}", 2)])
    func afterValue(text: String, offset: Int) throws {
        let error = try #require(failure(text))
        #expect(error.offset == offset, "\(text): \(error)")
    }

    @Test("nesting: 512 levels read; one more is an error saying so, as is 100,000 unclosed brackets")
    func depth() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(failure(deepest) == nil)
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = try #require(failure(tooDeep))
        #expect(error.message.contains("nest more than 512"))
        #expect(error.offset == 512)
        #expect(try #require(failure(String(repeating: "[", count: 100_000))).message.contains("nest more than 512"))
        #expect(try #require(failure(String(repeating: "{\"a\":", count: 600))).message.contains("nest more than 512"))
    }

    @Test("every error has an offset, a line and column when the text has lines, and an excerpt")
    func located() throws {
        let text = "{\n  \"name\": \"Ada\",\n  \"age\": 3x\n}"
        let error = try #require(failure(text))
        #expect(error.line == 3)
        #expect(error.column == 11)
        #expect(error.offset == text.utf8.count - 3)
        #expect(error.excerpt == "`  \"age\": 3x`")
        #expect(error.description == "expected ',' or '}' after a member, found 'x' at line 3, column 11 (offset \(error.offset)), near `  \"age\": 3x`")
        let flat = try #require(failure("[1, 2, tru]"))
        #expect(flat.line == nil)
        #expect(flat.description.hasPrefix("expected 'true', found 't' at offset 7, near `[1, 2, tru]`"))
        let long = try #require(failure("[" + String(repeating: "1,", count: 100) + "x]"))
        #expect(long.excerpt.hasPrefix("`…"))
        #expect(long.excerpt.hasSuffix("x]`"))
    }

    @Test("reading what the writer wrote gives the same value: control characters, surrogate pairs, numbers at their limits")
    func writerRoundTrip() throws {
        let value: Value = [
            "\u{0}\u{1F}\u{7F} \u{2028}", "😀", 1.7976931348623157e308, 5e-324, -0.0, 0.1, 1.2345678901234568e20, 1e-7, .nothing,
            .dictionary(["": 1, "\u{FFFD}": [[]]]),
        ]
        for pretty in [false, true] {
            #expect(try JSONReader.value(from: JSONWriter.string(for: value, pretty: pretty)) == value)
        }
    }
}
