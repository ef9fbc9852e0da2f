import RelayKit
import Testing

@testable import RelayLanguage

@Suite("Templates and expressions (Docs/Language.md, 'Variables and expressions')")
struct ExpressionTests {
    private func template(_ scalar: String) throws(Diagnostic) -> Template {
        let root = try yaml("v: \(scalar)\n")
        guard case .mapping(let pairs) = root.kind else { throw Diagnostic.error("bad", at: nil) }
        return try TemplateParser.template(from: pairs[0].value)
    }

    @Test("exactly one ${…} keeps its type; text around it interpolates")
    func shapes() throws {
        guard case .expression = try template("${n}").kind else { Issue.record("not an expression"); return }
        guard case .interpolation(let parts) = try template("\"Hi ${name}!\"").kind else { Issue.record("not interpolated"); return }
        #expect(parts.count == 3)
        #expect(try template("plain").literalValue == "plain")
        #expect(try template("7").literalValue == 7)
    }

    @Test("$${ is a literal ${")
    func escape() throws {
        #expect(try template("\"cost: $${price}\"").literalValue == "cost: ${price}")
    }

    @Test("variables are collected with their columns")
    func references() throws {
        let references = try template("\"Hi ${first} ${last.name}\"").variableReferences
        #expect(references.map(\.name) == ["first", "last"])
        #expect(references[0].range.start == SourcePosition(line: 1, column: 10))
        #expect(references[1].range.start == SourcePosition(line: 1, column: 19))
    }

    @Test("a list literal of 100,000 items is read in time that grows with it, not with its square", .timeLimit(.minutes(1)))
    func wideList() throws {
        let items = Array(repeating: "1", count: 100_000).joined(separator: ", ")
        guard case .expression(let expression) = try template("\"${[\(items)]}\"").kind, case .list(let parsed) = expression.kind else {
            Issue.record("not a list"); return
        }
        #expect(parsed.count == 100_000)
        #expect(parsed.last?.range.start.column == 8 + 3 * 99_999)
    }

    @Test("the grammar: precedence, properties, indexes, keywords")
    func grammar() throws {
        guard case .expression(let expression) = try template("\"${a + b * 2 > 3 and not c.first contains 'x' or d[1] matches '^z'}\"").kind else {
            Issue.record("not an expression"); return
        }
        guard case .binary(.or, let left, let right) = expression.kind else { Issue.record("or is not at the top"); return }
        guard case .binary(.and, _, _) = left.kind else { Issue.record("and binds tighter than or"); return }
        guard case .binary(.matches, let indexed, _) = right.kind, case .index = indexed.kind else {
            Issue.record("matches with an index on the right"); return
        }
    }

    @Test("syntax errors point into the scalar", arguments: [
        ("\"${a +}\"", 10, "expected a value"),
        ("\"${a = 1}\"", 9, "'=='"),
        ("\"${a && b}\"", 9, "'and'"),
        ("\"${}\"", 7, "empty expression"),
        ("\"${'open}\"", 5, "unterminated"),
        ("\"${a b}\"", 9, "expected an operator"),
        ("\"x ${a\"", 7, "unterminated '${'"),
        ("\"${a.}\"", 9, "property name"),
    ])
    func syntaxErrors(source: String, column: Int, fragment: String) {
        do {
            _ = try template(source)
            Issue.record("expected an error")
        } catch {
            #expect(error.range?.start.column == column)
            #expect((error.message + error.notes.joined()).contains(fragment))
        }
    }

    @Test("lists and mappings of literals fold into one literal value")
    func folding() throws {
        #expect(try template("[a, 1, true]").literalValue == ["a", 1, true])
        guard case .list = try template("[a, \"${x}\"]").kind else { Issue.record("not folded"); return }
    }
}
