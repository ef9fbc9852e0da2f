import RelayKit
import Testing

@testable import RelayLanguage

@Suite("Diagnostic rendering")
struct RendererTests {
    @Test("like a compiler: location, severity, the line, a caret under the range, notes")
    func text() {
        let found = diagnostics("steps:\n  - text: hello\n  - chnage-case: upper\n", path: "workflows/t.yaml")
        #expect(DiagnosticRenderer().render(found) == """
            workflows/t.yaml:3:5: error: unknown action 'chnage-case'; did you mean 'change-case'?
                3 |   - chnage-case: upper
                  |     ^~~~~~~~~~~

            """)
    }

    @Test("colour only when asked")
    func color() {
        let found = diagnostics("steps:\n  - nope\n")
        #expect(DiagnosticRenderer(usesColor: true).render(found).contains("\u{1B}[1;31merror:"))
        #expect(!DiagnosticRenderer().render(found).contains("\u{1B}"))
    }

    @Test("JSON has file, line, column, severity and message")
    func json() {
        let found = diagnostics("steps:\n  - nope\n")
        #expect(JSONWriter.string(for: found[0].jsonValue, pretty: false)
            == #"{"file":"test.yaml","line":2,"column":5,"severity":"error","message":"unknown action 'nope'","notes":["note: 'relay actions' lists every action"]}"#)
    }

    @Test("a long line number widens the gutter")
    func gutter() {
        let text = "steps:\n" + String(repeating: "  - count\n", count: 123_455) + "  - nope\n"
        let found = diagnostics(text)
        #expect(DiagnosticRenderer().render(found).contains("\n 123457 |   - nope\n        |     ^~~~\n"))
    }
}
