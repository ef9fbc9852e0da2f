import Foundation
import RelayKit
import Testing

@testable import RelayRuntime

@Suite("Interpreter: chaining, variables, control flow, modifiers")
struct InterpreterTests {
    @Test("match runs the first case equal to the value, else default, else gives nothing", arguments: [
        ("- text: png\n- match: ${previous}\n  cases:\n    pdf: [{ text: doc }]\n    png: [{ text: image }]", #""image""#),
        ("- text: gif\n- match: ${previous}\n  cases:\n    pdf: [{ text: doc }]\n  default: [{ text: other }]", #""other""#),
        ("- text: gif\n- match: ${previous}\n  cases:\n    pdf: [{ text: doc }]", "null"),
        // Without a value it matches its input; a number matches a case written as one.
        ("- number: 5\n- match:\n  cases:\n    \"6\": [{ text: no }]\n    5: [{ text: five }]", #""five""#),
        // Texts compare ignoring case, as == does, unless the step says case counts.
        ("- text: PDF\n- match: ${previous}\n  cases:\n    pdf: [{ text: doc }]\n  default: [{ text: exact }]", #""doc""#),
        ("- text: PDF\n- match: ${previous}\n  case-sensitive: true\n  cases:\n    pdf: [{ text: doc }]\n  default: [{ text: exact }]", #""exact""#),
        ("- match: true\n  cases:\n    true: [{ text: yes }]", #""yes""#),
        // A branch's first step gets the match's input; a variable set in a case is known after it.
        ("- text: in\n- match: a\n  cases:\n    a:\n      - set: { seen: \"${previous}\" }\n- text: \"${seen}\"", #""in""#),
    ])
    func match(steps: String, expected: String) async throws {
        #expect(try await json(steps) == expected)
    }

    @Test("${…} in a URL parameter is encoded for where it stands; in text it stays as it is")
    func urlInterpolation() async throws {
        let steps = "- text: \"x&admin=1#y\"\n  as: term\n"
        #expect(try await run(steps + "- url: \"https://api.example.com/search?q=${term}\"") == .url(try #require(URL(string: "https://api.example.com/search?q=x%26admin%3D1%23y"))))
        #expect(try await run(steps + "- text: \"https://api.example.com/search?q=${term}\"") == "https://api.example.com/search?q=x&admin=1#y")
    }

    @Test("each step's output is the next one's input; previous and input are readable")
    func chaining() async throws {
        #expect(try await json("- text: hello world\n- change-case: upper\n- replace-text: { find: WORLD, with: Relay }") == #""HELLO Relay""#)
        #expect(try await json("- text: a\n- text: \"${previous}b\"\n- text: \"${input}-${previous}\"", input: "in") == #""in-ab""#)
    }

    @Test("a single-item action given a list runs once per item")
    func mapsOverLists() async throws {
        #expect(try await json("- list: [hello, world]\n- change-case: upper") == #"["HELLO","WORLD"]"#)
        #expect(try await json("- list: [a, b]\n- count") == "2")
    }

    @Test("a scalar that is exactly one ${…} keeps its type")
    func typedInterpolation() async throws {
        #expect(try await json("- number: 3\n  as: n\n- list: [\"${n}\", \"n=${n}\"]") == #"[3,"n=3"]"#)
    }

    @Test("expressions: arithmetic, comparison, logic, contains, matches, properties, indexes")
    func expressions() async throws {
        let cases: [(String, String)] = [
            ("${1 + 2 * 3 - 4 / 2 % 3}", "5"), ("${'a' + 'b'}", #""ab""#), ("${'5' + 1}", "6"), ("${'x' + 1}", #""x1""#),
            ("${10 > '9'}", "true"), ("${'apple' < 'Banana'}", "true"), ("${2 == '2.0'}", "true"), ("${'a' != 'A'}", "false"), ("${'a' !== 'A'}", "true"), ("${'a' === 'a'}", "true"), ("${'a' == 'A'}", "true"),
            ("${not (1 > 2) and (false or 3)}", "true"), ("${nothing == nothing}", "true"), ("${-(2 + 3)}", "-5"),
            ("${'hello' contains 'ell'}", "true"), ("${'abc123' matches '\\\\d+$'}", "true"),
            ("${list.count + list[-1] + list[1]}", "7"), ("${dict.name + dict['the key']}", #""Adax""#),
            ("${list contains 3}", "true"), ("${dict contains 'name'}", "true"), ("${'hello'.count}", "5"),
            ("${[1, 'two', list[1] + 2,]}", #"[1,"two",3]"#), ("${[]}", "[]"), ("${[[1], [2, 3]][2][1]}", "2"),
            ("${2 in list}", "true"), ("${'jpg' in ['png', 'JPG']}", "true"), ("${'Hello' contains 'ELL'}", "true"), ("${'ell' in 'hello'}", "true"),
            ("${'name' in dict}", "true"), ("${not 5 in list}", "true"), ("${list + [4]}", "[1,2,3,4]"),
        ]
        let setup = "- set: { list: [1, 2, 3], dict: { name: Ada, the key: x } }\n"
        for (expression, expected) in cases {
            #expect(try await json(setup + "- stop: \"\(expression)\"") == expected, "\(expression)")
        }
    }

    @Test("expression errors are located runtime errors", arguments: [
        ("- text: \"${1 / 0}\"", "division by zero"),
        ("- set: { l: [1] }\n- text: \"${l[3]}\"", "index 3 is out of range"),
        ("- set: { l: [1] }\n- text: \"${l.size}\"", "has no property 'size'"),
        ("- text: \"${'a' - 1}\"", "cannot convert text 'a' to a number"),
        ("- text: \"${[1] < 2}\"", "cannot compare"),
        ("- text: \"${[1 2]}\"", "invalid expression"),
    ])
    func expressionErrors(steps: String, fragment: String) async {
        do {
            _ = try await run(steps)
            Issue.record("expected an error")
        } catch let error as RuntimeError {
            #expect(error.message.contains(fragment), "\(error.message)")
            #expect(error.range != nil)
        } catch {
            #expect(String(describing: error).contains(fragment), "\(error)")
        }
    }

    @Test("a property of nothing names the step that gave the nothing")
    func nothingNamesItsStep() async {
        let cases = [
            ("- list: [a]\n- if: ${previous.count > 5}\n  then:\n    - text: big\n- text: \"${previous.id}\"", "the 'if' at line 3 gives nothing when its condition is false (it has no 'else' steps), or ran steps that gave nothing"),
            ("- nothing\n- text: \"${previous.id}\"", "step 'nothing' at line"),
            ("- text: a\n- match: ${previous}\n  cases:\n    b:\n      - text: x\n- text: \"${previous.id}\"",
             "the 'match' at line 3 gives nothing when no case matches (it has no 'default' steps), or ran steps that gave nothing"),
        ]
        for (steps, note) in cases {
            let error = await failure(steps)
            #expect(error?.message.hasPrefix("nothing has no property 'id'") == true, "\(String(describing: error))")
            #expect(error?.notes.contains { $0.contains(note) } == true, "\(error?.notes ?? [])")
        }
    }

    @Test("variables are run-wide: a set inside an if or a loop is visible after it")
    func variableScope() async throws {
        let steps = """
            - if: true
              then:
                - set: { a: 1 }
            - repeat: 2
              do:
                - set: { b: "${index}" }
            - text: "${a} ${b}"
            """
        #expect(try await json(steps) == #""1 2""#)
    }

    @Test("item, index and error are restored after their block; inner loops hide outer ones")
    func blockNames() async throws {
        let steps = """
            - set: { index: outer }
            - list: [a, b]
            - for-each:
              do:
                - list: [x]
                - for-each:
                  do:
                    - text: "${item}${index}"
            - text: "${previous} ${index}"
            """
        #expect(try await json(steps) == "\"x1\\nx1 outer\"")
    }

    @Test("control steps output: if the branch's last output, loops the list of results")
    func controlOutputs() async throws {
        #expect(try await json("- if: ${1 > 2}\n  then:\n    - text: yes") == "null")
        #expect(try await json("- number: 4\n- if: \"${previous > 3}\"\n  then:\n    - text: big\n  else:\n    - text: small") == #""big""#)
        #expect(try await json("- repeat: 3\n  do:\n    - calculate: \"${index} * 10\"") == "[10,20,30]")
        #expect(try await json("- repeat: 0\n  do:\n    - text: never") == "[]")
        #expect(try await json("- list: [1, 2]\n- for-each:\n  as: n\n  do:\n    - calculate: \"${n} + ${index}\"") == "[2,4]")
        #expect(try await json("- text: in\n- repeat: 2\n  do:\n    - text: \"${previous}!\"") == #"["in!","in!"]"#)
    }

    @Test("set and append pass their input through; append builds lists")
    func setAndAppend() async throws {
        #expect(try await json("- text: kept\n- set: { a: 1 }") == #""kept""#)
        let steps = """
            - list: [a, b]
            - for-each:
              do:
                - append: { letters: "${item}!" }
            - append: { letters: [c, d] }
            - text: "${letters}"
            """
        #expect(try await json(steps) == "\"a!\\nb!\\nc\\nd\"")
    }

    @Test("parallel for-each keeps the order and isolates variables")
    func parallel() async throws {
        let steps = """
            - set: { shared: before }
            - list: [3, 1, 2, 5, 4]
            - for-each:
              parallel: 3
              do:
                - set: { shared: "${item}" }
                - wait: "${item / 100}"
                - calculate: "${item} * ${index}"
            - text: "${previous} ${shared}"
            """
        #expect(try await json(steps) == "\"3\\n2\\n6\\n20\\n20 before\"")
        #expect(try await json("- list: [1, 2]\n- for-each:\n  parallel: true\n  do:\n    - calculate: \"${item} * 2\"") == "[2,4]")
    }

    @Test("stop ends the workflow from any depth with its value, or the input")
    func stop() async throws {
        #expect(try await json("- text: first\n- stop: done\n- text: never") == #""done""#)
        #expect(try await json("- text: kept\n- stop\n- text: never") == #""kept""#)
        let nested = """
            - repeat: 5
              do:
                - if: ${index == 2}
                  then:
                    - stop: "stopped at ${index}"
            - text: never
            """
        #expect(try await json(nested) == #""stopped at 2""#)
        #expect(try await json("- list: [1, 2, 3]\n- for-each:\n  parallel: 2\n  do:\n    - stop: early") == #""early""#)
    }

    @Test("as stores the output; input replaces the chained input; when skips the step, passing the input")
    func modifiers() async throws {
        #expect(try await json("- text: a\n  as: first\n- text: b\n- text: \"${first}${previous}\"") == #""ab""#)
        #expect(try await json("- text: ignored\n- change-case: upper\n  input: given") == #""GIVEN""#)
        #expect(try await json("- text: kept\n- change-case: upper\n  when: ${1 > 2}") == #""kept""#)
        #expect(try await json("- text: kept\n- change-case: upper\n  when: yes") == #""KEPT""#)
    }

    @Test("on-error: continue outputs nothing; steps run with ${error}; their output is the step's")
    func onError() async throws {
        #expect(try await json("- text: in\n- fail: boom\n  on-error: continue") == "null")
        #expect(try await json("- text: in\n- fail: boom\n  on-error:\n    - text: \"caught ${error} from ${previous}\"") == #""caught boom from in""#)
        #expect(try await json("- text: x\n- calculate: \"${previous}\"\n  on-error:\n    - number: 0") == "0")
    }

    @Test("timeout fails a step that runs longer; a fast step is unaffected")
    func timeout() async throws {
        let error = await failure("- wait: 5\n  timeout: 0.05\n  label: Slow step")
        #expect(error?.message.contains("timed out after 0.05 seconds") == true)
        #expect(error?.stepName == "Slow step")
        #expect(try await json("- text: quick\n  timeout: 5") == #""quick""#)
    }

    @Test("a regular expression that would run for ages stops at its step's timeout", .timeLimit(.minutes(10)), arguments: [
        "- match-text: '(a+)+$'", "- replace-text: { find: '(a+)+$', with: x, regex: true }",
        "- if: \"${previous matches '(a+)+$'}\"\n  then:\n    - text: y", "- split-text: ' '\n- filter: { where: { item: { matches: '(a+)+$' } } }",
    ])
    func catastrophicRegex(step: String) async throws {
        // On 60 a's and a '!', '(a+)+$' tries about 2^60 ways: it would never end by itself, so
        // the run ending at all, with the timeout's error, is the step stopped. (How long that takes
        // on two loaded cores is not what is tested; the time limit only keeps a hang from lasting.)
        let error = await failure("- text: \(String(repeating: "a", count: 60))!\n\(step)\n  timeout: 0.5")
        #expect(error?.message.contains("timed out after 0.5 seconds") == true, "\(String(describing: error))")
    }

    @Test("runtime errors name the step (its label or action) and its place")
    func located() async throws {
        let error = try #require(await failure("- text: abc\n- calculate: \"${previous} + 1\"\n  label: Add one"))
        #expect(error.stepName == "Add one")
        #expect(error.range?.start.line == 3)
        #expect(error.description.contains("abc"))
        let unlabelled = try #require(await failure("- text: abc\n- number: \"${previous}\""))
        #expect(unlabelled.stepName == "number")
        #expect(unlabelled.message == "parameter 'value' wants a number: cannot convert text 'abc' to a number: 'abc' is not a number")
    }

    @Test("a loop variable read before it is set is a runtime error, not an empty value")
    func unsetVariable() async {
        let error = await failure("- repeat: 2\n  do:\n    - text: \"${later}\"\n    - set: { later: 1 }")
        #expect(error?.message == "variable 'later' has no value yet")
    }

    @Test("menu runs the chosen option")
    func menu() async throws {
        let steps = "- menu: Pick\n  options:\n    Archive:\n      - text: archived\n    Delete:\n      - text: deleted"
        #expect(try await json(steps, answers: ["Pick": "Delete"]) == #""deleted""#)
    }

    @Test("the workflow's declared input and output types convert, and the input has a default")
    func declaredTypes() async throws {
        #expect(try await json("input: number\nsteps:\n  - calculate: \"${input} + 1\"", input: "41") == "42")
        #expect(try await json("input: { type: number, default: 9 }\nsteps:\n  - calculate: \"${input} + 1\"") == "10")
        #expect(try await json("output: number\nsteps:\n  - text: \"12\"") == "12")
        await #expect(throws: RuntimeError.self) { try await run("input: number\nsteps:\n  - count", input: "many") }
        #expect(try await json("variables: { greeting: hi }\nsteps:\n  - text: \"${greeting}\"") == #""hi""#)
    }

    @Test("--set variables override the file's variables")
    func setVariables() async throws {
        let value = try await run("variables: { who: file }\nsteps:\n  - text: \"${who}\"", variables: ["who": "cli"])
        #expect(value == "cli")
    }

    @Test("count of items looks at the files it is given and reads none, so the gate is not asked; counting their text reads them")
    func countReadsNoFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-count-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try ["a.txt", "b.txt"].map { name in
            let url = folder.appendingPathComponent(name)
            try "secret".write(to: url, atomically: true, encoding: .utf8)
            return Value.file(FileReference(path: url.path))
        }
        // Nothing outside the workflow's own folder is granted, and there is no terminal to ask on.
        #expect(try await run("- count", input: .list(files)) == .number(2))
        #expect(try await run("- count", input: files[0]) == .number(1))
        // Counting a file's characters, words or lines reads its text: the gate is asked.
        for steps in ["- get-text", "- count: characters", "- count: lines"] {
            do {
                let value = try await run(steps, input: files[0])
                Issue.record("a file not granted was read by '\(steps)': \(value)")
            } catch let error as RuntimeError {
                #expect(error.denial != nil, "\(error.message)")
            }
        }
    }
}
