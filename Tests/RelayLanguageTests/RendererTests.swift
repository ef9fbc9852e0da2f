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

    @Test("control characters from a file, a server or a package are shown, never sent to the terminal")
    func controlCharacters() {
        // libyaml refuses a workflow with control characters; other files shown under an error may have them.
        let file = SourceFile(path: "w\u{1B}.yaml", text: "steps:\n  - text: \"\u{1B}[2J\"\n  - nope\u{1B}]0;owned\u{7}: 1\n")
        let found = Diagnostic.error(
            "unknown action 'nope\u{1B}]0;owned\u{7}'", at: SourceRange(file: file, start: SourcePosition(line: 3, column: 5), length: 15))
        let rendered = DiagnosticRenderer().render(found)
        #expect(!rendered.contains("\u{1B}") && !rendered.contains("\u{7}"))
        #expect(rendered.contains("w␛.yaml:3:5: error: unknown action 'nope␛]0;owned␇'"), "\(rendered)")
        // One picture for one character: the caret stays under the step.
        #expect(rendered.contains("    3 |   - nope␛]0;owned␇: 1\n      |     ^~~~~~~~~~~~~~~\n"), "\(rendered)")
        let message = Diagnostic.error("GET http://x/ answered 500: \u{1B}[31mred\u{9B}1m\nsecond line", at: nil)
        #expect(DiagnosticRenderer().render(message) == "error: GET http://x/ answered 500: ␛[31mred\u{FFFD}1m\nsecond line\n")
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
