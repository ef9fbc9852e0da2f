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

    @Test("a key a step needs, left out, is named in the grammar's words", arguments: ControlGrammar.steps.map(\.keyword))
    func requiredKeys(keyword: String) throws {
        let step = try #require(ControlGrammar.step(keyword))
        guard let needed = step.keys.first(where: \.isRequired) else { return }
        let found = diagnostics("steps:\n  - \(keyword): x\n").map(\.message)
        let need = needed.need.hasPrefix(", ") ? String(needed.need.dropFirst(2)) : needed.need
        #expect(found.count == 1 && found[0].contains("step needs '\(needed.name):'") && found[0].contains(need), "\(keyword): \(found)")
    }

    @Test("what a control step gives the next step is its grammar's")
    func outputs() throws {
        // A loop gives a list, whose count is known to be a number; a branch may give anything.
        let countIsAFile = "  - delete-file: { file: \"${r.count}\" }\n"
        #expect(ControlGrammar.step("for-each")?.output == .eachTime)
        let loop = try #require(ControlGrammar.step("repeat"))
        #expect(loop.output == .eachTime)
        let looped = "steps:\n" + loop.example.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n    as: r\n  - text: x\n" + countIsAFile
        #expect(diagnostics(looped).map(\.message).contains { $0.contains("${r.count} is a number") })
        let branch = try #require(ControlGrammar.step("if"))
        #expect(branch.output == .branch(fallback: "else", when: "its condition is false"))
        let yaml = "steps:\n" + branch.example.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n    as: r\n  - text: x\n" + countIsAFile
        #expect(diagnostics(yaml).filter { $0.severity == .error }.isEmpty)
        // A set passes its input through: a number stays a number.
        #expect(ControlGrammar.step("set")?.output == .input)
        #expect(diagnostics("steps:\n  - number: 1\n  - set: { a: 1 }\n  - get-value: a\n").map(\.message).contains { $0.contains("outputs a number") })
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
