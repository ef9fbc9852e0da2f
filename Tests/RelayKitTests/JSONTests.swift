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
}
