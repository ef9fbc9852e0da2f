import Foundation
import RelayKit
import RelayLanguage
import Testing

@testable import RelayRuntime

/// `variables:` written with a type (Docs/Language.md, "A workflow file").
@Suite("Variables declared with a type")
struct TypedVariableTests {
    private let header = """
        variables:
          count: { type: number, default: 2, description: How many }
          who: { type: text, description: Whom to greet }
          labels: { type: car, wheels: 4 }

        """

    @Test("a value given from outside is converted to the type; a default is used; one without a default must be given")
    func givenDefaultAndMissing() async throws {
        let steps = "steps:\n  - text: \"${who} ${count + 1} ${labels.type}\"\n"
        #expect(try await run(header + steps, variables: ["who": .text("Ada"), "count": .text("7")]) == .text("Ada 8 car"))
        #expect(try await run(header + steps, variables: ["who": .text("Ada")]) == .text("Ada 3 car"))
        let missing = await failureMessage(header + steps, variables: ["count": .text("7")])
        #expect(missing == "variable 'who' has no value: it is declared as a text without a default; give it one with --set who=VALUE")
        let wrong = await failureMessage(header + steps, variables: ["who": .text("Ada"), "count": .text("many")])
        #expect(wrong?.contains("variable 'count'") == true && wrong?.contains("'many' is not a number") == true, "\(wrong ?? "")")
    }

    @Test("the checker says where a declaration is wrong: a misspelt key, a default that is not of the type")
    func checked() throws {
        let text = "variables:\n  count: { type: number, default: \"abc\" }\n  other: { type: number, defualt: 2 }\nsteps:\n  - text: \"${count} ${other}\"\n"
        let (workflow, diagnostics) = WorkflowLoader(registry: registry).load(SourceFile(path: "typed.yaml", text: text))
        #expect(workflow == nil)
        let messages = diagnostics.map(\.message)
        #expect(messages.contains("variable 'count' is declared as a number, but its default is a text"), "\(messages)")
        #expect(messages.contains("unknown key 'defualt' in variable 'other'; did you mean 'default'?"), "\(messages)")
    }

    private func failureMessage(_ yaml: String, variables: [String: Value]) async -> String? {
        do {
            _ = try await run(yaml, variables: variables)
            return nil
        } catch let error as RuntimeError {
            return error.message
        } catch {
            return "\(error)"
        }
    }
}
