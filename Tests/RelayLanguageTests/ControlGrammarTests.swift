import RelayLanguage
import Testing

/// The control steps and modifiers, declared once: each example checks, and the parser knows
/// exactly the keys declared.
@Suite("The control-step grammar")
struct ControlGrammarTests {
    @Test("each control step's example checks without a problem", arguments: ControlGrammar.steps.map(\.keyword))
    func examples(keyword: String) throws {
        let step = try #require(ControlGrammar.step(keyword))
        let yaml = "steps:\n" + step.example.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n"
        let found = diagnostics(yaml)
        #expect(found.isEmpty, "\(keyword): \(found.map(\.summary))")
    }

    @Test("a key the grammar does not declare for a step is refused with the ones it does", arguments: ControlGrammar.steps.map(\.keyword))
    func unknownKeys(keyword: String) throws {
        let step = try #require(ControlGrammar.step(keyword))
        let yaml = "steps:\n" + step.example.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n    sideways: 1\n"
        let found = diagnostics(yaml).map(\.summary).joined(separator: "\n")
        #expect(found.contains("unknown key 'sideways'") || found.contains("sideways"), "\(keyword): \(found)")
    }

    @Test("every control step and modifier is described")
    func described() {
        for name in ControlGrammar.keywords + ControlGrammar.modifierNames {
            #expect(ControlGrammar.describe(name)?.isEmpty == false, "\(name)")
        }
        #expect(ControlGrammar.describe("sideways") == nil)
    }
}

@Suite("Parallel loops and the variables they set")
struct ParallelAssignmentTests {
    @Test("a set of a workflow variable inside a parallel for-each is a warning at the set; one item at a time, or a variable of the item's own, is not")
    func warned() {
        let body = "  - set: { total: 0 }\n  - list: [1, 2]\n  - for-each:\n    parallel: PARALLEL\n    do:\n      - set: { SETS: \"${item}\" }\n"
        let lost = diagnostics("steps:\n" + body.replacingOccurrences(of: "PARALLEL", with: "2").replacingOccurrences(of: "SETS", with: "total"))
        #expect(lost.count == 1 && lost.first?.severity == .warning, "\(lost.map(\.summary))")
        #expect(lost.first?.range?.start.line == 7)
        let serial = diagnostics("steps:\n" + body.replacingOccurrences(of: "PARALLEL", with: "false").replacingOccurrences(of: "SETS", with: "total"))
        #expect(serial.isEmpty, "\(serial.map(\.summary))")
        let own = diagnostics("steps:\n" + body.replacingOccurrences(of: "PARALLEL", with: "true").replacingOccurrences(of: "SETS", with: "mine"))
        #expect(own.isEmpty, "\(own.map(\.summary))")
    }
}
