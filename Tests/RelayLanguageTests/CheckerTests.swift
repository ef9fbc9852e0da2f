import RelayKit
import Testing

@testable import RelayLanguage

@Suite("Checker diagnostics")
struct CheckerTests {
    /// The one diagnostic `yaml` gives, as `line:column: message`.
    private func only(_ yaml: String) -> String {
        let found = diagnostics(yaml)
        #expect(found.count == 1, "\(found.map(\.summary))")
        return found.first?.summary ?? ""
    }

    @Test("a valid workflow has no diagnostics and binds arguments")
    func valid() throws {
        let workflow = try #require(checked("""
            steps:
              - text: hello world
              - change-case: upper
              - replace-text: { find: WORLD, with: Relay }
              - dictionary: { a: 1, b: "${previous}" }
            """))
        #expect(workflow.steps.count == 4)
        guard case .action(let replace) = workflow.steps[2].kind else { Issue.record("not an action"); return }
        #expect(replace.arguments.compactMap { $0 }.count == 2)
        guard case .action(let dictionary) = workflow.steps[3].kind else { Issue.record("not an action"); return }
        #expect(dictionary.arguments.compactMap { $0 }.count == 1)
    }

    @Test("a step's output that the next step drops unread is a warning; named, read or kept it is not")
    func discardedOutput() {
        #expect(only("steps:\n  - text: hello\n  - current-date\n")
            == "2:5: the output of 'text' is not used: the next step, 'current-date', takes no input")
        for fine in [
            "steps:\n  - text: hello\n    as: greeting\n  - current-date\n",
            "steps:\n  - text: hello\n  - text: \"${previous} there\"\n",
            "steps:\n  - text: hello\n  - change-case: upper\n",
            "steps:\n  - text: hello\n  - nothing\n",
            "steps:\n  - text: hello\n  - show\n  - current-date\n",
        ] {
            #expect(diagnostics(fine).isEmpty, "\(fine): \(diagnostics(fine).map(\.summary))")
        }
    }

    @Test("a condition written as plain text that reads like a comparison is a warning: it is always true")
    func plainTextCondition() {
        #expect(only("steps:\n  - text: a\n    when: item.amount < floor\n")
            == "3:11: 'when:' is the text 'item.amount < floor', which is always true (a text that is not empty is true)")
        #expect(only("steps:\n  - if: not done\n    then:\n      - text: b\n").hasPrefix("2:9: 'if:' is the text 'not done'"))
        for fine in ["steps:\n  - text: a\n    when: ${1 < 2}\n", "steps:\n  - text: a\n    when: true\n", "steps:\n  - text: a\n    when: ready\n"] {
            #expect(diagnostics(fine).isEmpty, "\(fine): \(diagnostics(fine).map(\.summary))")
        }
    }

    @Test("unknown top-level keys suggest the right one")
    func topLevel() {
        #expect(only("name: x\nstep:\n  - count\nsteps: []\n") == "2:1: unknown top-level key 'step'; did you mean 'steps'?")
    }

    @Test("a workflow needs steps, as a list")
    func steps() {
        #expect(only("name: x\n") == "1:1: a workflow needs a 'steps:' list")
        #expect(only("steps: hello\n").contains("takes a list of steps"))
        #expect(only("- text: a\n").contains("a workflow file is a mapping"))
    }

    @Test("unknown actions suggest the closest name")
    func unknownAction() {
        #expect(only("steps:\n  - text: hello\n  - chnage-case: upper\n") == "3:5: unknown action 'chnage-case'; did you mean 'change-case'?")
        #expect(only("steps:\n  - frobnicate\n") == "2:5: unknown action 'frobnicate'")
    }

    @Test("unknown and missing parameters")
    func parameters() {
        #expect(only("steps:\n  - replace-text: { fnd: a, with: b }\n").hasPrefix("2:21: 'replace-text' has no parameter 'fnd'; did you mean 'find'?"))
        #expect(only("steps:\n  - replace-text: { with: b }\n") == "2:5: 'replace-text' needs 'find'")
        #expect(only("steps:\n  - current-date: x\n") == "2:19: 'current-date' takes no parameters")
        #expect(only("steps:\n  - set-value: x\n").contains("has no primary parameter"))
    }

    @Test("literal arguments that cannot convert are reported before running")
    func literalTypes() {
        #expect(only("steps:\n  - number: abc\n") == "2:13: 'number' parameter 'value' wants a number, found text 'abc'")
        #expect(only("steps:\n  - url: example.com\n").contains("wants a url"))
        #expect(only("steps:\n  - change-case: uper\n").contains("did you mean 'upper'?"))
        #expect(only("steps:\n  - date: someday\n").contains("wants a date"))
    }

    @Test("undefined variables, with suggestions")
    func undefinedVariables() {
        #expect(only("steps:\n  - set: { name: Ada }\n  - text: \"Hi ${nmae}\"\n") == "3:17: undefined variable 'nmae'; did you mean 'name'?")
        #expect(only("steps:\n  - text: \"${item}\"\n").contains("undefined variable 'item'"))
        let outside = diagnostics("steps:\n  - text: \"${item}\"\n")
        #expect(outside.first?.notes.first?.contains("only inside a for-each block") == true)
        #expect(diagnostics("steps:\n  - text: \"${input} ${previous}\"\n").isEmpty)
        #expect(diagnostics("steps:\n  - text: \"${x}\"\n", predefined: ["x"]).isEmpty)
        #expect(diagnostics("variables: { x: 1 }\nsteps:\n  - text: \"${x}\"\n").isEmpty)
    }

    @Test("a variable set in any branch is defined after it, not in the other branch")
    func branches() {
        let yaml = """
            steps:
              - if: true
                then:
                  - set: { a: 1 }
                else:
                  - text: "${a}"
              - text: "${a}"
            """
        #expect(diagnostics(yaml).map(\.summary) == ["6:18: undefined variable 'a'"])
    }

    @Test("item, index and error exist only inside their blocks; loop bodies see their own sets")
    func blocks() {
        let yaml = """
            steps:
              - list: [a, b]
              - for-each:
                as: letter
                do:
                  - text: "${letter} ${index} ${seen}"
                  - set: { seen: "${letter}" }
              - text: "${letter}"
              - fail: x
                on-error:
                  - text: "${error}"
              - repeat: 2
                do:
                  - calculate: "${index} * 2"
            """
        #expect(diagnostics(yaml).map(\.summary) == ["8:14: undefined variable 'letter'"])
    }

    @Test("a parameter's own check runs on literal values before running: formulas, key paths, patterns, waits")
    func parameterChecks() {
        #expect(only("steps:\n  - calculate: \"1 / 0\"\n") == "2:16: 'calculate' parameter 'expression': division by zero")
        #expect(only("steps:\n  - calculate: \"(1 + 2\"\n").contains("missing ')'"))
        #expect(only("steps:\n  - number: 1\n  - round-number: { places: 2.5 }\n") == "3:29: 'round-number' parameter 'places': number 2.5 is not a whole number (one with no fraction, within ±9.2e18)")
        #expect(only("steps:\n  - list: [1]\n  - filter: { limit: 1e300 }\n") == "3:22: 'filter' parameter 'limit': number 1e+300 is not a whole number (one with no fraction, within ±9.2e18)")
        #expect(diagnostics("steps:\n  - find-files: { in: ., sort: random, limit: 2 }\n").isEmpty, "random is an order, not a property")
        #expect(only("steps:\n  - find-files: { in: ., sort: randomly }\n").contains("randomly"))
        #expect(only("steps:\n  - calculate: \"factorial(2.5)\"\n") == "2:16: 'calculate' parameter 'expression': factorial of a number that is not a whole number of 0 or more")
        #expect(only("steps:\n  - calculate: \"factorial(171)\"\n") == "2:16: 'calculate' parameter 'expression': 'factorial(171)' has no finite result")
        #expect(only("steps:\n  - calculate: \"asin(2)\"\n") == "2:16: 'calculate' parameter 'expression': asin of a number outside -1 to 1")
        #expect(diagnostics("steps:\n  - text: x\n  - calculate: \"${previous} / 0\"\n").isEmpty, "not literal: checked when it runs")
        let key = (0..<300).map { _ in "a" }.joined(separator: ".")
        #expect(only("steps:\n  - dictionary: {}\n  - set-value: { key: \"\(key)\", value: 1 }\n")
            == "3:23: 'set-value' parameter 'key': the key path has 300 parts; at most 200 are allowed")
        #expect(only("steps:\n  - text: a\n  - match-text: \"(\"\n").contains("'match-text' parameter 'pattern': '(' is not a valid regular expression"))
        #expect(only("steps:\n  - wait: 1e11\n") == "2:11: 'wait' parameter 'seconds': at most 31622400 seconds (a year) is allowed, not 100000000000")
        #expect(only("steps:\n  - wait: -1\n").contains("a number of seconds from 0 to 31622400 is needed, not -1"))
    }

    @Test("numbers at their limits are refused where they are written: timeout, repeat")
    func numberLimits() {
        #expect(only("steps:\n  - text: a\n    timeout: .inf\n") == "3:14: 'timeout': a number of seconds from 0 to 31622400 is needed, not Infinity")
        #expect(only("steps:\n  - text: a\n    timeout: 1e300\n") == "3:14: 'timeout': at most 31622400 seconds (a year) is allowed, not 1e+300")
        #expect(only("steps:\n  - repeat: 1e10\n    do:\n      - stop\n").contains("'repeat' takes a whole number of times from 0 to 2147483647"))
    }

    @Test("expressions nested past the limit are an error, not a crash: parentheses, long chains, prefixes")
    func expressionDepth() {
        let parentheses = String(repeating: "(", count: 750) + "1" + String(repeating: ")", count: 750)
        #expect(only("steps:\n  - text: \"${\(parentheses)}\"\n").contains("nested more than 200 levels deep"))
        let chain = (0..<16_000).map { _ in "1" }.joined(separator: " + ")
        #expect(only("steps:\n  - text: \"${\(chain)}\"\n").contains("nested more than 200 levels deep"))
        #expect(only("steps:\n  - text: \"${\(String(repeating: "not ", count: 5_000))true}\"\n").contains("nested more than 200 levels deep"))
        #expect(only("steps:\n  - text: \"${\(String(repeating: "-", count: 5_000))1}\"\n").contains("nested more than 200 levels deep"))
        let fine = (0..<150).map { _ in "1" }.joined(separator: " + ")
        #expect(diagnostics("steps:\n  - text: \"${\(fine)}\"\n").isEmpty)
        let formula = String(repeating: "(", count: 8_000) + "1" + String(repeating: ")", count: 8_000)
        #expect(only("steps:\n  - calculate: \"\(formula)\"\n").contains("'calculate' parameter 'expression': the expression is nested more than 200"))
    }

    @Test("an input type that can never convert is an error")
    func inputTypes() {
        #expect(only("steps:\n  - number: 5\n  - get-value: a\n") == "3:5: 'get-value' takes a dictionary as input, but the previous step, 'number' (line 2), outputs a number")
        #expect(diagnostics("steps:\n  - text: '{\"a\": 1}'\n  - get-value: a\n").isEmpty)
        #expect(diagnostics("steps:\n  - list: [a, b]\n  - change-case: upper\n").isEmpty)
    }

    @Test("a declared output the last step cannot give is an error")
    func outputType() {
        #expect(only("output: date\nsteps:\n  - number: 5\n").contains("declares output date"))
        #expect(diagnostics("output: text\nsteps:\n  - number: 5\n").isEmpty)
    }

    @Test("step shapes: one action, not only modifiers, no lists")
    func stepShapes() {
        #expect(only("steps:\n  - replace-text:\n    find: a\n").contains("a step has exactly one action; found 'replace-text', 'find'"))
        #expect(only("steps:\n  - as: x\n").contains("has no action, only modifiers"))
        #expect(only("steps:\n  - [a, b]\n").contains("not a list"))
        #expect(only("steps:\n  - 5\n").contains("a step is an action name or a mapping"))
        #expect(only("steps:\n  - text: a\n    text: b\n").contains("duplicate key 'text'"))
    }

    @Test("control steps: required parts, unknown keys, literal checks")
    func controlSteps() {
        #expect(only("steps:\n  - if: true\n").contains("needs 'then:'"))
        #expect(only("steps:\n  - if: true\n    then: []\n    esle: []\n").contains("did you mean 'else'?"))
        #expect(only("steps:\n  - repeat: 3\n").contains("needs 'do:'"))
        #expect(only("steps:\n  - repeat: -1\n    do: []\n").contains("whole number"))
        #expect(only("steps:\n  - repeat: 2.5\n    do: []\n").contains("whole number"))
        #expect(only("steps:\n  - for-each:\n    parallel: 0\n    do: []\n").contains("'parallel'"))
        #expect(only("steps:\n  - list: [a]\n  - for-each:\n    parallel:\n    do: []\n").contains("'parallel' takes"))
        #expect(only("steps:\n  - menu: Pick\n").contains("needs 'options:'"))
        #expect(only("steps:\n  - set: [a]\n").contains("mapping of variable names"))
        #expect(only("steps:\n  - set: { 1x: 2 }\n").contains("not a variable name"))
        #expect(only("steps:\n  - if:\n    then: []\n").contains("'if' needs a condition"))
    }

    @Test("modifiers: as, on-error, timeout")
    func modifiers() {
        #expect(only("steps:\n  - count:\n    as: my-count\n").contains("'my-count' is not a variable name"))
        #expect(only("steps:\n  - count:\n    on-error: ignore\n").contains("'on-error' takes 'continue'"))
        #expect(only("steps:\n  - count:\n    timeout: -1\n").contains("'timeout' takes a number of seconds"))
        #expect(diagnostics("steps:\n  - count:\n    as: n\n    label: Count\n    timeout: 2\n    when: true\n    on-error: continue\n").isEmpty)
    }

    @Test("every problem is reported at once, in file order per phase")
    func allAtOnce() {
        let found = diagnostics("steps:\n  - chnage-case: upper\n  - number: abc\n  - text: \"${nope}\"\n  - replace-text: { fnd: a }\n")
        // The misspelt parameter is reported; the missing one it stands for is not.
        #expect(found.filter { $0.severity == .error }.count == 4)
    }

    @Test("ambiguous short names list the candidates")
    func ambiguous() throws {
        struct Hello: Intent {
            static let summary = ""
            static let output = OutputType.text
            func perform(_ context: any IntentContext) async throws -> IntentResult { .nothing }
        }
        enum First: IntentPackage {
            static let name = "first"
            static let intents: [any Intent.Type] = [Hello.self]
        }
        enum Second: IntentPackage {
            static let name = "second"
            static let intents: [any Intent.Type] = [Hello.self]
        }
        var registry = builtinRegistry
        try registry.register(First.self, prefixed: true)
        try registry.register(Second.self, prefixed: true)
        let file = SourceFile(path: "t.yaml", text: "steps:\n  - hello\n  - first.hello\n")
        let workflow = try #require(WorkflowParser.parse(file).workflow)
        let found = Checker.check(workflow, registry: registry).diagnostics
        #expect(found.map(\.summary) == ["2:5: action 'hello' is ambiguous"])
        #expect(found.first?.notes.first == "note: write one of 'first.hello', 'second.hello'")
    }
}
