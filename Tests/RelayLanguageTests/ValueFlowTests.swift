import Foundation
import Testing

@testable import RelayLanguage

/// How values flow between steps, as the checker holds it (Docs/Language.md, "How values flow").
@Suite struct ValueFlowTests {
    private func errors(_ yaml: String) -> [String] {
        diagnostics(yaml).filter { $0.severity == .error }.map(\.message)
    }

    @Test("a step's first key decides its kind: an action's parameter may be called 'match'")
    func firstKeyDecides() throws {
        let yaml = """
            steps:
              - find-files: .
                where: { extension: png, name: { contains: scan } }
                match: any
            """
        #expect(errors(yaml).isEmpty)
        let workflow = try #require(checked(yaml))
        guard case .action(let action) = try #require(workflow.steps.first).kind else {
            Issue.record("the step is not an action")
            return
        }
        #expect(action.definition.name == "find-files")
        // A control keyword first is still a control step, and its own key written first too.
        #expect(errors("steps:\n  - match: a\n    cases:\n      a:\n        - text: x\n").isEmpty)
        #expect(errors("steps:\n  - then:\n      - text: x\n    if: true\n").isEmpty)
        // An action then a control keyword: the keyword is taken as a parameter, and reported as one.
        #expect(errors("steps:\n  - text: a\n    if: true\n").contains { $0.contains("'text' has no parameter 'if'") })
    }

    @Test("a declared output: a last step that gives nothing is an error, one that may a warning")
    func declaredOutput() {
        #expect(errors("output: text\nsteps:\n  - text: hi\n  - show\n")
            == ["the workflow declares output text, but its last step, 'show' (line 4), gives nothing"])
        let maybe = diagnostics("output: text\nsteps:\n  - number: 1\n  - if: ${previous > 5}\n    then:\n      - text: big\n")
        #expect(maybe.map(\.severity) == [.warning])
        #expect(maybe.first?.message.contains("has no 'else'") == true)
        let match = diagnostics("output: text\nsteps:\n  - match: a\n    cases:\n      b:\n        - text: x\n")
        #expect(match.map(\.severity) == [.warning])
        #expect(match.first?.message.contains("has no 'default'") == true)
        // Nothing to keep: no declared output, or one that nothing fits.
        #expect(diagnostics("steps:\n  - text: hi\n  - show\n").isEmpty)
        #expect(diagnostics("output: list\nsteps:\n  - if: true\n    then:\n      - list: [a]\n").isEmpty)
    }

    @Test("an action with one obvious value takes it after its name", arguments: [
        "- number: 2.345\n- round-number: 2",
        "- get-contents-of-url: https://example.com/status\n  retry: 3",
        "- delete-file: old.log",
        "- open: https://example.com",
        "- current-date\n- adjust-date: 3 days",
        "- text: a b\n- make-pdf: out/a.pdf",
        "- base64-encode: hello",
        "- trim-text: \"  x  \"",
    ])
    func primaries(steps: String) {
        let yaml = "steps:\n" + steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n"
        #expect(errors(yaml).isEmpty, "\(errors(yaml))")
    }

    @Test("files found where the workflow says and changed later are asked for as that place, in loops too")
    func sourcesInTheReport() throws {
        let inPlace = try #require(checked("steps:\n  - find-files: { in: pics }\n  - rotate-image: 180\n  - rename-file: a.png\n"))
        let report = PermissionReport(inPlace)
        let writes = report.needs.filter { $0.capability == .write }.map { ($0.target as NSString?)?.lastPathComponent }
        #expect(writes == ["pics", "pics"], "\(report.text())")
        let loop = try #require(checked("""
            steps:
              - find-files: { in: pics }
              - for-each:
                as: pic
                do:
                  - rename-file: "${index}.png"
                    input: ${pic}
              - find-files: { in: docs }
                as: docs
              - for-each: ${docs}
                do:
                  - delete-file
            """))
        let needs = PermissionReport(loop).needs.filter { $0.capability == .write }.map { ($0.target as NSString?)?.lastPathComponent }
        #expect(needs == ["pics", "docs"])
        // Through the steps that only pick from the files, and an item of a variable that keeps them.
        let picked = try #require(checked(
            "steps:\n  - find-files: { in: data }\n    as: f\n  - filter: { where: { name: x.txt } }\n  - get-item: 1\n  - delete-file\n  - delete-file: \"${f[1]}\"\n  - delete-file: \"${f.last}\"\n"))
        #expect(PermissionReport(picked).needs.filter { $0.capability == .write }.map { ($0.target as NSString?)?.lastPathComponent } == ["data", "data", "data"])
        // What only the run decides stays so.
        let unknown = try #require(checked("steps:\n  - text: a.png\n  - rotate-image: 90\n"))
        #expect(PermissionReport(unknown).needs.filter { $0.capability == .write }.map(\.target) == [nil])
    }

    @Test("match cases that differ only in case are one case, unless case counts; === and !== parse")
    func comparingTexts() {
        #expect(errors("steps:\n  - match: a\n    cases:\n      pdf: []\n      PDF: []\n").contains { $0.contains("the case 'PDF' is written twice") })
        #expect(errors("steps:\n  - match: a\n    case-sensitive: true\n    cases:\n      pdf: []\n      PDF: []\n").isEmpty)
        #expect(errors("steps:\n  - match: a\n    case-sensitive: maybe\n    cases:\n      pdf: []\n").contains { $0.contains("'case-sensitive' takes true or false") })
        #expect(errors("steps:\n  - text: \"${'a' === 'A'} ${'a' !== 'b'}\"\n").isEmpty)
    }

    @Test("a list's items have a type the checker holds an action run once per item to")
    func itemTypes() {
        #expect(errors("steps:\n  - list: [1, 2]\n  - delete-file\n")
            == ["'delete-file' takes a file that exists as input, but the previous step, 'list' (line 2), outputs a list of numbers"])
        // Kept through the steps that only pick from the list, and through input:.
        #expect(errors("steps:\n  - list: [1, 2]\n  - filter: { where: { item: { greater-than: 1 } } }\n  - sort-list\n  - rename-file: x\n")
            .contains { $0.contains("outputs a list of numbers") })
        #expect(errors("steps:\n  - delete-file:\n    input: [1, 2]\n").contains { $0.contains("'input:' gives a list of numbers") })
        // Items that may convert, items of mixed types, and unknown items are left to the run.
        #expect(errors("steps:\n  - split-text: { by: spaces }\n    input: \"a b\"\n  - change-case: upper\n").isEmpty)
        #expect(errors("steps:\n  - find-files: .\n  - rotate-image: 90\n").isEmpty)
        // A list written with items of several types: each item is held to the input's type.
        #expect(errors("steps:\n  - list: [a.txt, 2]\n  - delete-file\n")
            == ["'delete-file' takes a file that exists as input, but the previous step, 'list' (line 2), outputs a list whose item 2 is number 2"])
        #expect(errors("steps:\n  - list: [a.txt, b.txt]\n  - delete-file\n").isEmpty)
        #expect(errors("steps:\n  - delete-file:\n    input: [a.txt, { a: 1 }]\n").contains { $0.contains("'input:' gives a list whose item 2 is a dictionary") })
        #expect(errors("steps:\n  - list: [1, 2]\n  - for-each:\n    do:\n      - number: 3\n  - delete-file\n").isEmpty)
    }

    @Test("a sub-workflow's declared output is what its run-workflow step gives, held where it is used")
    func subWorkflowOutput() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-flow-sub-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "output: number\nsteps:\n  - number: 5\n".write(to: folder.appendingPathComponent("five.yaml"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("main.yaml").path
        let found = diagnostics("steps:\n  - run-workflow: five.yaml\n  - get-value: a\n", path: path).map(\.message)
        #expect(found == ["'get-value' takes a dictionary as input, but the previous step, 'run-workflow' (line 2), outputs a number"])
        #expect(diagnostics("steps:\n  - run-workflow: five.yaml\n  - round-number: 1\n", path: path).isEmpty)
        // A device is never read (it would never end), nor a workflow outside the workflow's folder.
        #expect(diagnostics("steps:\n  - run-workflow: /dev/zero\n  - get-value: a\n", path: path).allSatisfy { !$0.message.contains("outputs") })
    }

    @Test("a variable set in one place with a known type is held where it is used")
    func variableTypes() {
        let found = errors("steps:\n  - number: 5\n    as: n\n  - text: x\n  - delete-file: { file: \"${n}\" }\n  - delete-file:\n    input: ${n}\n")
        #expect(found.contains("'delete-file' parameter 'file' takes a file that exists, but ${n} is a number (set at line 2)"), "\(found)")
        #expect(found.contains { $0.contains("'input:' gives a number") }, "\(found)")
        // Set in two places, or given from outside: no type to hold.
        #expect(errors("steps:\n  - number: 5\n    as: n\n  - set: { n: a.txt }\n  - delete-file: { file: \"${n}\" }\n").isEmpty)
        #expect(errors("variables: { n: a.txt }\nsteps:\n  - number: 5\n    as: n\n  - delete-file: { file: \"${n}\" }\n").isEmpty)
        // A list of files kept in a variable runs once per file.
        #expect(errors("steps:\n  - find-files: .\n    as: files\n  - text: x\n  - delete-file: { file: \"${files}\" }\n").isEmpty)
        #expect(errors("steps:\n  - list: [1, 2]\n    as: l\n  - text: x\n  - delete-file: { file: \"${l}\" }\n")
            .contains { $0.contains("but ${l} is a list of numbers") })
    }

    @Test("a property of a value of known type has a known type: a list's property is a list, and a missing one is an error")
    func propertyTypes() {
        // `count` is a number, of a list and of a single value alike.
        let counted = errors("steps:\n  - find-files: .\n    as: files\n  - text: x\n  - delete-file:\n    input: ${files.count}\n")
        #expect(counted.contains { $0.contains("'input:' gives a number") }, "\(counted)")
        // A property of a list of files is a list of that property: sizes are numbers, not files.
        let sizes = errors("steps:\n  - find-files: .\n    as: files\n  - text: x\n  - delete-file: { file: \"${files.size}\" }\n")
        #expect(sizes.contains("'delete-file' parameter 'file' takes a file that exists, but ${files.size} is a list of numbers (set at line 2)"), "\(sizes)")
        // `first` of a list of files is a file; a path of one is text, which names a file.
        #expect(errors("steps:\n  - find-files: .\n    as: files\n  - text: x\n  - delete-file: { file: \"${files.first}\" }\n").isEmpty)
        #expect(errors("steps:\n  - find-files: .\n    as: files\n  - text: x\n  - delete-file: { file: \"${files.first.path}\" }\n").isEmpty)
        // A property no such value has stops the check, with the ones there are.
        let misspelt = errors("steps:\n  - find-files: .\n    as: files\n  - text: \"${files.widht}\"\n")
        #expect(misspelt == ["${files} is a list of files (set at line 2), which has no property 'widht'; did you mean 'width'?"])
        // A text's size (its bytes, as Shortcuts' File Size of a text) is a number.
        let textSize = errors("steps:\n  - text: w\n    as: t\n  - text: x\n  - delete-file:\n    input: ${t.size}\n")
        #expect(textSize.contains { $0.contains("'input:' gives a number") }, "\(textSize)")
        #expect(errors("steps:\n  - current-date:\n    as: now\n  - text: \"${now.yaer}\"\n")
            == ["${now} is a date (set at line 2), which has no property 'yaer'; did you mean 'year'?"])
        // Where the type is not known, the run decides: a dictionary's keys, a variable set twice.
        #expect(errors("steps:\n  - dictionary: { a: 1 }\n    as: d\n  - text: \"${d.anything}\"\n").isEmpty)
        #expect(errors("steps:\n  - current-date:\n    as: now\n  - set: { now: x }\n  - text: \"${now.yaer}\"\n").isEmpty)
        // A block's own names hide a variable of the same name, and previous is always the input.
        #expect(errors("steps:\n  - number: 5\n    as: error\n  - fail: oops\n    on-error:\n      - text: \"${error.words.count}\"\n").isEmpty)
        #expect(errors("steps:\n  - current-date:\n    as: index\n  - repeat: 2\n    do:\n      - number: ${index}\n").isEmpty)
        #expect(errors("steps:\n  - number: 5\n    as: previous\n  - text: a b\n  - text: \"${previous.words.count}\"\n").isEmpty)
        // What a value has is said apart from what every value has as a list of one.
        let numbers = diagnostics("steps:\n  - list: [1, 2]\n    as: l\n  - text: \"${l.foo}\"\n").flatMap(\.notes)
        #expect(numbers == ["note: a number has no properties of its own; the list itself has count, first, last"], "\(numbers)")
        // A single value's list properties: a date's count is 1, its first the date.
        #expect(errors("steps:\n  - current-date:\n    as: now\n  - text: \"${now.count} ${now.first.year}\"\n").isEmpty)
    }
}
