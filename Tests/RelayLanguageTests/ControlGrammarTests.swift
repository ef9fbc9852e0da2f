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
