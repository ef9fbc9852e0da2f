import Foundation
import RelayEngine
import RelayKit
import RelayLanguage
import Testing

@testable import RelayRuntime

/// Steps planned once when the workflow is checked, which run without waiting
/// (Docs/Architecture.md, "Steps that wait for nothing").
@Suite("Steps that wait for nothing")
struct InstantStepTests {
    /// Formulas with values in them, each with values that are numbers and a value whose text is
    /// not one: a planned step gives what the formula's text gives (the same number, or the same
    /// error), which a value as text, written into the formula, still gets.
    @Test(
        "a planned calculate gives what its text gives",
        arguments: [
            "${a} * 2 + 1", "- -${a} ^ 2", "2 ^ ${b}", "${a} ^ ${b} ^ 2", "(${a} - ${b}) % 3", "max(${a}, ${b}, 7) / min(${b}, 2)",
            "${a} / (${b} - ${b})", "${a} % 0", "factorial(${a})", "sqrt(${b})", "${a} ^ 1000", "1e3 * ${a}", "${a}", "+${a}",
            "ln(${b}) - ${a}", "random(${a}, ${a})", "${a}(2)", "2${a}", "${a}${b}", "sqrt${a}", "${a}e2", "2.${a}", "${a} + ",
            // -0's text is 0: what a negative power of it makes, and what tells the two apart.
            "max(${a} ^ -1, 0)", "atan(${a} ^ -1)", "e ^ (${a} ^ -1)",
        ])
    func sameAsText(_ formula: String) async throws {
        for (a, b) in [(5, -3), (0.1, 0.2), (-0.0, 1e21), (10, 0), (170, 4)] as [(Double, Double)] {
            let planned = await outcome("- set: { a: \(a), b: \(b) }\n- calculate: \"\(formula)\"")
            // The numbers' text, as a step that reads them as text is given them.
            let (textA, textB) = (NumberFormatting.text(a), NumberFormatting.text(b))
            let written = await outcome("- set: { a: \"\(textA)\", b: \"\(textB)\" }\n- calculate: \"\(formula)\"")
            #expect(planned == written, "\(formula) with a = \(a), b = \(b)")
        }
    }

    /// A formula is worked out as it is read: a mistake in its writing after a part that fails
    /// (a division by zero, a function given the wrong count) is not what the step says.
    @Test("what is worked out before a mistake in the formula fails first", arguments: [
        ("- set: { a: 5 }\n- calculate: \"${a} / 0 + )\"", "division by zero"),
        ("- set: { a: 4 }\n- calculate: \"sqrt(${a}, 2) * (1\"", "sqrt takes one number, not 2"),
        ("- set: { a: 2 }\n- calculate: \"${a} + )\"", "unexpected ')' at ')' in '2 + )'"),
    ])
    func errorsInOrder(_ steps: String, _ message: String) async {
        #expect(await outcome(steps) == "error: " + message)
    }

    @Test("a literal formula's check says what fails first")
    func checkSaysWhatFailsFirst() {
        #expect(throws: DiagnosticsError.self) { try load("- calculate: \"sqrt(-1) + )\"") }
        do {
            _ = try load("- calculate: \"sqrt(-1) + )\"")
        } catch {
            #expect("\(error)".contains("sqrt of a negative number"), "\(error)")
        }
    }

    @Test("a step of an action that plans it is planned, with what it reads")
    func planned() throws {
        let workflow = try load("- set: { a: 1 }\n- calculate: \"${a} * 2\"\n- calculate: \"3 * 4\"\n- calculate: \"${a.b}\"\n- text: \"${a}\"")
        let plans = workflow.steps.map(\.instant)
        #expect(plans[1]?.reads.count == 1)
        #expect(plans[2]?.reads.count == 0)
        // A property may have to be fetched, and `text` plans nothing.
        #expect(plans[3] == nil)
        #expect(plans[4] == nil)
    }

    /// A planned step runs its plan, not `perform`; a value the plan declines runs `perform`.
    @Test("a planned step runs without making the intent, unless its plan declines the values")
    func runsThePlan() async throws {
        let registry = registry(with: [Doubling.self])
        #expect(try await run(steps: "- set: { n: 4 }\n- double: \"${n}\"", registry: registry) == .text("planned 8"))
        #expect(try await run(steps: "- set: { n: four }\n- double: \"${n}\"", registry: registry) == .text("performed four"))
        // An error of the plan is the step's, located at it.
        do {
            _ = try await run(steps: "- set: { n: -1 }\n- double: \"${n}\"", registry: registry)
            Issue.record("a negative number should fail")
        } catch let error as RuntimeError {
            #expect(error.message == "no negative numbers")
            #expect(error.stepName == "double")
            #expect(error.range?.start.line == 3)
        }
    }

    /// A run that has secrets takes the usual way, which follows them.
    @Test("a run with secrets does not take the plan")
    func secretsTakeTheUsualWay() async throws {
        let loader = WorkflowLoader(registry: registry(with: [Doubling.self]))
        let text = "steps:\n  - set: { n: 4 }\n  - double: \"${n}\""
        let workflow = try #require(loader.load(SourceFile(path: "test.yaml", text: text)).0)
        let environment = RunEnvironment(interaction: ScriptedInteraction(), output: CollectedOutput(), loader: loader, gate: gate(for: "test.yaml"))
        environment.secrets.add("TOKEN", value: "a secret")
        #expect(try await Interpreter(workflow: workflow, environment: environment).run(input: .nothing) == .text("performed 4"))
    }

    private func load(_ steps: String) throws -> CheckedWorkflow {
        let text = "steps:\n" + steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        let (workflow, diagnostics) = WorkflowLoader(registry: registry).load(SourceFile(path: "test.yaml", text: text))
        guard let workflow else { throw DiagnosticsError(diagnostics) }
        return workflow
    }

    /// The output as JSON, or the error's message.
    private func outcome(_ yaml: String) async -> String {
        do {
            return JSONWriter.string(for: try await run(yaml), pretty: false)
        } catch let error as RuntimeError {
            return "error: " + error.message
        } catch {
            return "error: \(error)"
        }
    }
}

/// Doubles a number: planned for a value alone, said apart from `perform` by its words.
private struct Double_: InstantIntent {
    static let name = "double"
    static let summary = "Doubles a number."
    static let output = OutputType.text
    @Parameter(primary: true) var number: String
    func perform(_ context: any IntentContext) async throws -> IntentResult { .value(.text("performed \(number)")) }

    static func instant(_ arguments: [InstantArgument?]) -> InstantAction? {
        guard case .value? = arguments.first else { return nil }
        return plan
    }

    private static let plan = InstantAction { values in
        guard case .number(let number)? = values.first else { return nil }
        guard number >= 0 else { throw IntentError("no negative numbers") }
        return .text("planned \(NumberFormatting.text(number * 2))")
    }
}

private enum Doubling: IntentPackage {
    static let name = "doubling"
    static let intents: [any Intent.Type] = [Double_.self]
}
