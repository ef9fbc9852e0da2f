import Testing

@testable import RelayLanguage

@Suite("YAML front end")
struct YAMLTests {
    @Test("nodes keep 1-based line and column ranges")
    func marks() throws {
        let root = try yaml("steps:\n  - text: hello\n  - count\n")
        guard case .mapping(let pairs) = root.kind, case .sequence(let steps) = pairs[0].value.kind else {
            Issue.record("unexpected shape")
            return
        }
        #expect(pairs[0].key.range.start == SourcePosition(line: 1, column: 1))
        guard case .mapping(let step) = steps[0].kind else { return }
        #expect(step[0].key.range.start == SourcePosition(line: 2, column: 5))
        #expect(step[0].value.range.start == SourcePosition(line: 2, column: 11))
        #expect(step[0].value.range.end == SourcePosition(line: 2, column: 16))
        #expect(steps[1].range.start == SourcePosition(line: 3, column: 5))
    }

    @Test("lines end where libyaml ends them: LF, CR LF, CR, NEL, LS, PS", arguments: ["\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"])
    func lineBreaks(newline: String) throws {
        let text = ["steps:", "  - text: hi", "  - count"].joined(separator: newline) + newline
        let file = SourceFile(path: "w.yaml", text: text)
        #expect(file.lineCount == 4)
        #expect(file.line(2) == "  - text: hi")
        #expect(file.line(4) == "")
        #expect(try steps(of: YAMLParser.parse(file))[1].range.start == SourcePosition(line: 3, column: 5))
        do {
            _ = try yaml(["steps:", "  - text: \"open"].joined(separator: newline))
            Issue.record("expected an error")
        } catch {
            #expect(error.range?.start == SourcePosition(line: 2, column: 11))
        }
    }

    @Test("columns count characters, though libyaml counts Unicode scalars")
    func columnsInCharacters() throws {
        // A flag is two scalars and an accented e written with a combining accent is two: one character each.
        #expect(try steps(of: yaml("steps: [{text: \"🇫🇷 e\u{301}\"}, {count: 1}]\n"))[1].range.start == SourcePosition(line: 1, column: 24))
        let file = SourceFile(path: "w.yaml", text: "e\u{301}🇫🇷x\n")
        var cursor = SourceFile.ColumnCursor()
        #expect(file.column(line: 1, scalars: 5, cursor: &cursor) == 4)
        #expect(file.column(line: 1, scalars: 2, cursor: &cursor) == 2)
        #expect(file.column(line: 1, scalars: 99, cursor: &cursor) == 4)
        #expect(file.column(line: 7, scalars: 3, cursor: &cursor) == 1)
    }

    @Test("scalars resolve by the YAML 1.2 core schema, respecting quotes", arguments: [
        ("5", ResolvedScalar.number(5)), ("\"5\"", .text("5")), ("'5'", .text("5")), ("-3.5e2", .number(-350)),
        ("0x1F", .number(31)), ("0o17", .number(15)), (".inf", .number(.infinity)), ("true", .boolean(true)),
        ("False", .boolean(false)), ("no", .text("no")), ("yes", .text("yes")), ("on", .text("on")), ("~", .null),
        ("null", .null), ("", .null), ("1.2.3", .text("1.2.3")), ("12abc", .text("12abc")), ("!!str 5", .text("5")),
        ("!!int \"7\"", .number(7)), ("'true'", .text("true")),
    ])
    func scalarResolution(source: String, expected: ResolvedScalar) throws {
        let root = try yaml("value: \(source)\n")
        guard case .mapping(let pairs) = root.kind else { return }
        #expect(ScalarResolver.resolve(pairs[0].value) == expected)
    }

    @Test("block scalars are text")
    func blockScalars() throws {
        let root = try yaml("value: |\n  5\n")
        guard case .mapping(let pairs) = root.kind else { return }
        #expect(ScalarResolver.resolve(pairs[0].value) == .text("5\n"))
    }

    @Test("anchors and aliases copy the anchored node")
    func aliases() throws {
        let root = try yaml("base: &b [1, 2]\ncopy: *b\n")
        guard case .mapping(let pairs) = root.kind, case .sequence(let items) = pairs[1].value.kind else {
            Issue.record("alias not resolved")
            return
        }
        #expect(items.count == 2)
    }

    @Test("malformed YAML is a located error", arguments: [
        ("steps:\n  - text: \"open\n", 2, "quoted scalar"),
        ("steps:\n\t- text: a\n", 2, "tab"),
        ("a: b: c\n", 1, "mapping values are not allowed"),
        ("steps: [a, b\n", 1, "flow sequence"),
        ("a: *missing\n", 1, "alias"),
        ("steps:\n  - text: \"a\u{1B}[2J\"\n", 2, "control characters are not allowed (found U+001B)"),
    ])
    func malformed(text: String, line: Int, fragment: String) {
        do {
            _ = try yaml(text)
            Issue.record("expected an error")
        } catch {
            #expect(error.range?.start.line == line)
            #expect((error.message + error.notes.joined()).contains(fragment))
        }
    }

    @Test("an empty file and two documents are errors")
    func documents() {
        #expect(throws: Diagnostic.self) { try yaml("") }
        #expect(throws: Diagnostic.self) { try yaml("# only a comment\n") }
        #expect(throws: Diagnostic.self) { try yaml("a: 1\n---\nb: 2\n") }
    }

    @Test("alias bombs are refused, not expanded without end")
    func aliasBomb() {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            text += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        #expect(throws: Diagnostic.self) { try yaml(text) }
    }

    @Test("very deep nesting is refused")
    func deepNesting() {
        let text = "a: " + String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000) + "\n"
        #expect(throws: Diagnostic.self) { try yaml(text) }
    }

    /// The items of the sequence that is the first value of `root`, a mapping.
    private func steps(of root: YAMLNode) throws -> [YAMLNode] {
        guard case .mapping(let pairs) = root.kind, let first = pairs.first, case .sequence(let steps) = first.value.kind, steps.count > 1 else {
            throw ShapeError()
        }
        return steps
    }

    private struct ShapeError: Error {}
}
