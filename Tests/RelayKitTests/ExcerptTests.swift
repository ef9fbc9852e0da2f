import RelayKit
import Testing

/// No message quotes a whole file, page or answer (Docs/Reliability.md, "No crash, no hang, bounded memory").
@Suite("Quoted values in messages are capped")
struct ExcerptTests {
    @Test("a quoted value over 200 characters is cut to its start and …; short quotes and apostrophes stay")
    func capping() {
        let long = String(repeating: "x", count: 5_000)
        let capped = Excerpt.cappingQuotes(in: "step's input: cannot use '\(long)' as 'a number', (see 'docs')")
        #expect(capped == "step's input: cannot use '\(String(repeating: "x", count: 200))…' as 'a number', (see 'docs')")
        let short = "the step's 'id' is not 'name'; it's fine"
        #expect(Excerpt.cappingQuotes(in: short) == short)
        // A quote inside the value that is not followed by a space or punctuation does not end it.
        let inner = String(repeating: "a'b", count: 100)
        #expect(Excerpt.cappingQuotes(in: "found '\(inner)'").count < 220)
        // An unclosed quote is left as it is.
        let open = "found '" + long
        #expect(Excerpt.cappingQuotes(in: open) == open)
    }

    @Test("a value described in a conversion error is capped whatever its type")
    func briefDescriptions() {
        let url = Value.text("https://example.com/" + String(repeating: "p", count: 10_000))
        #expect(CoercionError(value: url, target: .number).description.count < 300)
    }
}

@Suite("Text shown on a terminal")
struct TerminalTextTests {
    @Test("escapes, carriage returns, C1 controls and bidirectional overrides are shown, not obeyed; tabs, line breaks where asked, and other text stay")
    func visible() {
        #expect(TerminalText.visible("plain café — Ελληνικά\ttab") == "plain café — Ελληνικά\ttab")
        #expect(TerminalText.visible("a\u{1B}[2Jb\rc\u{8}d\u{0}") == "a\u{241B}[2Jb\u{240D}c\u{2408}d\u{2400}")
        #expect(TerminalText.visible("x\u{9B}31m\u{7F}") == "x\u{FFFD}31m\u{2421}")
        #expect(TerminalText.visible("invoice\u{202E}fdp.exe\u{2066}\u{200F}") == "invoice<U+202E>fdp.exe<U+2066><U+200F>")
        #expect(TerminalText.visible("one\ntwo") == "one\u{240A}two")
        #expect(TerminalText.visible("one\ntwo", keepingLineBreaks: true) == "one\ntwo")
        // Line and paragraph separators break a line on some terminals: a question could be split.
        #expect(TerminalText.visible("allow\u{2028}read\u{2029}x\u{85}") == "allow<U+2028>read<U+2029>x\u{FFFD}")
    }
}
