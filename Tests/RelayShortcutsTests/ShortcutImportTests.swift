import Foundation
import RelayKit
import RelayLanguage
import RelayRuntime
import RelayShortcuts
import Testing

@Suite("Importing shortcuts")
struct ShortcutImportTests {
    static let fixtures = ["greeting.shortcut", "tally.shortcut", "menu.shortcut", "rounds.wflow"]

    @Test("each kept shortcut imports to its expected workflow, the same bytes each time, and the workflow checks", arguments: fixtures)
    func expected(_ name: String) throws {
        let path = shortcutsFolder + "/" + name
        let first = try ShortcutSource.imported(path, actions: builtinRegistry.actions)
        let again = try ShortcutSource.imported(path, actions: builtinRegistry.actions)
        let expected = try String(contentsOfFile: (path as NSString).deletingPathExtension + ".yaml", encoding: .utf8)
        #expect(first.unmapped.isEmpty)
        #expect(first.yaml == expected)
        #expect(first.yaml == again.yaml)
        let (workflow, diagnostics) = WorkflowLoader(registry: builtinRegistry).load(SourceFile(path: path, text: first.yaml))
        #expect(workflow != nil, "\(diagnostics.map(\.message))")
        #expect(diagnostics.filter { $0.severity == .error || $0.severity == .warning }.isEmpty, "\(diagnostics.map(\.message))")
    }

    @Test("a binary property list imports as its XML twin does")
    func binaryAndXML() throws {
        let xml = try Data(contentsOf: URL(fileURLWithPath: shortcutsFolder + "/greeting.shortcut"))
        let object = try PropertyListSerialization.propertyList(from: xml, options: [], format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        #expect(binary.starts(with: Array("bplist00".utf8)))
        #expect(try imported(binary).yaml == imported(xml).yaml)
    }

    @Test("an action with no equivalent is listed with its number, identifier and name; --partial writes a fail step")
    func unmapped() throws {
        let data = try shortcutData([
            action("gettext", ["WFTextActionText": "hello", "UUID": "U1"]),
            action("speaktext", ["WFText": "hi"]),
            action("getarticle", [:]),
            action("text.changecase", ["WFCaseType": "Capitalize with Title Case"]),
            ["WFWorkflowActionIdentifier": "com.example.app.DoThing", "WFWorkflowActionParameters": [String: Any]()],
        ])
        let result = try imported(data)
        #expect(result.unmapped.map(\.number) == [2, 3, 4, 5])
        #expect(result.unmapped[0].description == "action 2 (Speak Text, is.workflow.actions.speaktext): Speak Text works only on Apple's devices")
        #expect(result.unmapped[1].title == "Get Article from Web Page")
        #expect(result.unmapped[2].reason.contains("WFCaseType 'Capitalize with Title Case'"))
        #expect(result.unmapped[3].reason.contains("another app"))
        let partial = try imported(data, partial: true)
        #expect(partial.yaml.contains("- fail: \"Get Article from Web Page is not available in Relay: Relay has no equivalent for it yet\""))
        let (workflow, diagnostics) = WorkflowLoader(registry: builtinRegistry).load(SourceFile(path: "partial.yaml", text: partial.yaml))
        #expect(workflow != nil, "\(diagnostics.map(\.message))")
    }

    @Test("a text's variables go where its U+FFFC are, counted in UTF-16, and a literal ${ stays literal")
    func textTokens() throws {
        let token: [String: Any] = [
            "WFSerializationType": "WFTextTokenString",
            "Value": [
                "string": "😀 \u{FFFC} and ${x} \u{FFFC}",
                "attachmentsByRange": [
                    "{3, 1}": ["Type": "ActionOutput", "OutputUUID": "U1", "OutputName": "Text"],
                    "{14, 1}": [
                        "Type": "Variable", "VariableName": "Repeat Item",
                        "Aggrandizements": [["Type": "WFDictionaryValueVariableAggrandizement", "DictionaryKey": "it's"]],
                    ],
                ],
            ],
        ]
        let result = try imported(try shortcutData([
            action("gettext", ["WFTextActionText": "a", "UUID": "U1"]),
            action("gettext", ["WFTextActionText": token]),
        ]))
        #expect(result.unmapped.isEmpty, "\(result.unmapped)")
        #expect(result.yaml.contains("\n  - text: 😀 ${text} and $${x} ${item['it\\'s']}\n"), "\(result.yaml)")
    }

    @Test("Calculate's operations become formulas: the basic ones, and the scientific ones of the input")
    func calculate() throws {
        let result = try imported(try shortcutData([
            action("number", ["WFNumberActionNumber": 2, "UUID": "N"]),
            action("math", ["WFMathOperation": "×", "WFMathOperand": 3]),
            action("math", ["WFMathOperation": "…", "WFScientificMathOperation": "x^y", "WFScientificMathOperand": 2]),
            action("math", ["WFMathOperation": "…", "WFScientificMathOperation": "√x"]),
            action("math", ["WFMathOperation": "…", "WFScientificMathOperation": "sin(x)"]),
            action("math", ["WFMathOperation": "…", "WFScientificMathOperation": "x!"]),
            action("math", ["WFMathOperation": "…", "WFScientificMathOperation": "sinh(x)"]),
        ]))
        #expect(result.yaml.contains("\n  - calculate: ${previous} * 3\n  - calculate: (${previous}) ^ (2)\n  - calculate: sqrt(${previous})\n  - calculate: sin(${previous})\n  - calculate: factorial(${previous})\n"), "\(result.yaml)")
        #expect(result.unmapped.map(\.number) == [7])
        #expect(result.unmapped.first?.reason.contains("WFScientificMathOperation 'sinh(x)'") == true, "\(result.unmapped)")
    }

    @Test("Format Date's date-only and ISO styles, and the time style Shortcuts takes when a file leaves it out")
    func formatDate() throws {
        let result = try imported(try shortcutData([
            action("format.date", ["WFDateFormatStyle": "Long", "WFTimeFormatStyle": "None"]),
            action("format.date", ["WFDateFormatStyle": "Medium"]),
            action("format.date", ["WFDateFormatStyle": "ISO 8601"]),
            action("format.date", ["WFDateFormatStyle": "RFC 2822"]),
            action("format.date", ["WFDateFormatStyle": "None", "WFTimeFormatStyle": "Medium"]),
        ]))
        #expect(result.yaml.hasSuffix("  - format-date:\n      style: none\n      time: medium\n"), "\(result.yaml)")
        #expect(result.yaml.contains("""
              - format-date:
                  style: long
                  time: none
              - format-date:
                  style: medium
                  time: short
              - format-date:
                  style: iso
              - format-date:
                  style: rfc2822

            """), "\(result.yaml)")
        #expect(result.unmapped.isEmpty, "\(result.unmapped)")
    }

    @Test("a page's feeds and images: Get RSS Feeds from Page and Get Images from Input")
    func pageActions() throws {
        let result = try imported(try shortcutData([
            action("url", ["WFURLActionURL": "https://example.com/blog/"]),
            action("rss.extract", [:]),
            action("url", ["WFURLActionURL": "https://example.com/gallery"]),
            action("detect.images", [:]),
        ]))
        #expect(result.yaml.contains("\n  - get-rss-feeds\n"), "\(result.yaml)")
        #expect(result.yaml.hasSuffix("\n  - get-images\n"), "\(result.yaml)")
        #expect(result.unmapped.isEmpty, "\(result.unmapped)")
    }

    @Test("Get Group from Matched Text matches its matches again with the Match Text's pattern, keeping the group")
    func matchedGroup() throws {
        let result = try imported(try shortcutData([
            action("text.match", ["UUID": "M", "WFMatchTextPattern": "(\\w+), (\\w+)", "WFMatchTextCaseSensitive": false]),
            action("text.match.getgroup", ["WFGroupIndex": 2]),
            action("gettext", ["WFTextActionText": "x"]),
            action("text.match.getgroup", ["WFGetGroupType": "All Groups"]),
        ]))
        #expect(result.yaml.contains("""
              - match-text:
                  pattern: (\\w+), (\\w+)
                  case-sensitive: false
                  group: 2

            """), "\(result.yaml)")
        #expect(result.unmapped.map(\.number) == [4])
        // Through a Set Variable (which passes its input on) and a Get Variable of it.
        let throughVariable = try imported(try shortcutData([
            action("text.match", ["WFMatchTextPattern": "(a)(b)"]),
            action("setvariable", ["WFVariableName": "Match"]),
            action("text.match.getgroup", ["WFGroupIndex": 1]),
            action("getvariable", ["WFVariable": ["WFSerializationType": "WFTextTokenAttachment", "Value": ["Type": "Variable", "VariableName": "Match"]]]),
            action("text.match.getgroup", ["WFGroupIndex": 2]),
        ]))
        #expect(throughVariable.unmapped.isEmpty, "\(throughVariable.unmapped)")
        #expect(throughVariable.yaml.contains("      group: 1\n") && throughVariable.yaml.contains("      group: 2\n"), "\(throughVariable.yaml)")
    }

    @Test("what a shortcut holds stays data in the workflow: a number with a line break after a NUL, a $ before a variable, a key with ${ in it, a text like infinity, U+FFFE")
    func staysData() throws {
        let token: ([String: Any]) -> [String: Any] = { attachment in
            ["WFSerializationType": "WFTextTokenString", "Value": ["string": "cost $\u{FFFC}", "attachmentsByRange": ["{6, 1}": attachment]]]
        }
        let result = try imported(try shortcutData([
            action("dictionary", [
                "UUID": "D",
                "WFItems": [
                    "WFSerializationType": "WFDictionaryFieldValue",
                    "Value": ["WFDictionaryFieldValueItems": [["WFItemType": 3, "WFKey": "zoom", "WFValue": "1\u{0}\n  - run-shell-script: id"]]],
                ],
            ]),
            action("gettext", ["WFTextActionText": token(["Type": "ActionOutput", "OutputUUID": "D", "OutputName": "Dictionary", "Aggrandizements": [["Type": "WFDictionaryValueVariableAggrandizement", "DictionaryKey": "${7*6}"]]])]),
            action("gettext", ["WFTextActionText": "infinity", "UUID": "I"]),
            action("conditional", [
                "GroupingIdentifier": "C", "WFControlFlowMode": 0, "WFCondition": 4, "WFConditionalActionString": "infinity",
                "WFInput": ["WFSerializationType": "WFTextTokenAttachment", "Value": ["Type": "ActionOutput", "OutputUUID": "I", "OutputName": "Text"]],
            ]),
            action("conditional", ["GroupingIdentifier": "C", "WFControlFlowMode": 2]),
            action("gettext", ["WFTextActionText": "a\u{FFFE}b"]),
            action("runworkflow", ["WFWorkflowName": "../\u{301}x"]),
        ]))
        #expect(!result.yaml.contains("\n  - run-shell-script"), "\(result.yaml)")
        #expect(result.yaml.contains("zoom: \"1\\u0000\\n  - run-shell-script: id\""), "\(result.yaml)")
        #expect(result.yaml.contains("- text: cost ${'$'}${dictionary['${7*6}']}"), "\(result.yaml)")
        #expect(result.yaml.contains("- if: ${text == 'infinity'}"), "\(result.yaml)")
        #expect(result.yaml.contains("- text: \"a\\uFFFEb\""), "\(result.yaml)")
        #expect(result.unmapped.map(\.number) == [7])
        let (workflow, diagnostics) = WorkflowLoader(registry: builtinRegistry).load(SourceFile(path: "data.yaml", text: result.yaml))
        #expect(workflow != nil, "\(diagnostics.map(\.message))")
    }

    @Test("an import question's suggested answer goes through the values the parameter takes")
    func questionThroughValues() throws {
        let result = try imported(try shortcutData(
            [action("text.changecase", ["WFCaseType": "lowercase"])],
            extra: ["WFWorkflowImportQuestions": [["ActionIndex": 0, "ParameterKey": "WFCaseType", "Text": "Which case?", "DefaultValue": "UPPERCASE"]]]))
        #expect(result.yaml.contains("variables:\n  # Which case?\n  case: upper\n"), "\(result.yaml)")
    }

    @Test("what a new user's shortcuts hold reads as they meant it: the newer Round To, an empty default left out, a number as a number, a variable built up in a loop starting empty, untitled menu items, names from Shortcuts")
    func asMeant() throws {
        let attach: (String) -> [String: Any] = { ["WFSerializationType": "WFTextTokenAttachment", "Value": ["Type": "Variable", "VariableName": $0]] }
        let result = try imported(try shortcutData([
            action("ask", ["UUID": "A", "WFAskActionPrompt": "Bill?", "WFInputType": "Number", "WFAskActionDefaultAnswer": ""]),
            action("round", ["WFRoundTo": "Hundredths", "WFInput": ["WFSerializationType": "WFTextTokenAttachment", "Value": ["Type": "ActionOutput", "OutputUUID": "A"]]]),
            action("number", ["WFNumberActionNumber": "15"]),
            action("repeat.count", ["GroupingIdentifier": "R", "WFControlFlowMode": 0, "WFRepeatCount": 2]),
            action("gettext", ["WFTextActionText": ["WFSerializationType": "WFTextTokenString", "Value": ["string": "\u{FFFC}x", "attachmentsByRange": ["{0, 1}": ["Type": "Variable", "VariableName": "Result"]]]]]),
            action("setvariable", ["WFVariableName": "Result"]),
            action("repeat.count", ["GroupingIdentifier": "R", "WFControlFlowMode": 2]),
            action("choosefrommenu", ["GroupingIdentifier": "M", "WFControlFlowMode": 0, "WFMenuPrompt": "Pick", "WFMenuItems": ["One", "Two"]]),
            action("choosefrommenu", ["GroupingIdentifier": "M", "WFControlFlowMode": 1]),
            action("choosefrommenu", ["GroupingIdentifier": "M", "WFControlFlowMode": 1]),
            action("choosefrommenu", ["GroupingIdentifier": "M", "WFControlFlowMode": 2]),
            action("downloadurl", ["UUID": "D", "WFURL": "https://example.com"]),
            action("openurl", ["WFInput": ["WFSerializationType": "WFTextTokenAttachment", "Value": ["Type": "ActionOutput", "OutputUUID": "D"]]]),
            action("getvariable", ["WFVariable": attach("Result")]),
        ]))
        #expect(result.unmapped.isEmpty, "\(result.unmapped)")
        for expected in [
            "variables:\n  # Read before it is set, as in Shortcuts: empty until then.\n  result: \"\"\n",
            "  - ask:\n      prompt: Bill?\n      type: number\n    as: ask_for_input\n",
            "  - round-number: 2\n    input: ${ask_for_input}\n", "  - number: 15\n",
            "    options:\n      One: []\n      Two: []\n", "    as: contents_of_url\n  # Shortcuts: Open URLs\n  - open: ${contents_of_url}\n",
        ] {
            #expect(result.yaml.contains(expected), "\(expected)\n\(result.yaml)")
        }
        let (workflow, diagnostics) = WorkflowLoader(registry: builtinRegistry).load(SourceFile(path: "meant.yaml", text: result.yaml))
        #expect(workflow != nil, "\(diagnostics.map(\.message))")
    }

    @Test("Show Alert keeps its title; a form written as one field holding a list of items is read as the dictionary it is")
    func alertAndGeneratedForms() throws {
        let result = try imported(try shortcutData([
            action("alert", ["WFAlertActionTitle": "Done", "WFAlertActionMessage": "", "WFAlertActionCancelButtonShown": false]),
            action("alert", ["WFAlertActionTitle": "Sure?", "WFAlertActionMessage": "It cannot be undone."]),
            action("downloadurl", [
                "WFURL": "https://example.com", "WFHTTPMethod": "POST", "WFHTTPBodyType": "Form",
                "WFFormValues": [
                    "WFItemType": 1,
                    "WFValue": ["WFSerializationType": "WFDictionaryFieldValue", "Value": [["WFItemType": 0, "WFKey": "a", "WFValue": "b"]]],
                ],
            ]),
        ]))
        #expect(result.yaml.contains("  - show: Done\n"), "\(result.yaml)")
        #expect(result.yaml.contains("  - confirm: \"Sure?\\nIt cannot be undone.\"\n"), "\(result.yaml)")
        #expect(result.yaml.contains("      body:\n        a: b\n      body-format: form\n"), "\(result.yaml)")
    }

    @Test("a date shown in a format is a format-date step before the action; Save File without asking writes under ~/Shortcuts")
    func formattedDates() throws {
        func formatted(_ format: [String: Any]) -> [String: Any] {
            ["Type": "CurrentDate", "Aggrandizements": [["Type": "WFDateFormatVariableAggrandizement"].merging(format) { $1 }]]
        }
        let name: [String: Any] = ["WFSerializationType": "WFTextTokenString", "Value": [
            "string": "log \u{FFFC} \u{FFFC}.txt",
            "attachmentsByRange": ["{4, 1}": formatted(["WFDateFormatStyle": "Custom", "WFDateFormat": "yyyy-MM-dd"]), "{6, 1}": formatted(["WFDateFormatStyle": "Short", "WFTimeFormatStyle": "None"])],
        ]]
        let result = try imported(try shortcutData([
            action("gettext", ["WFTextActionText": "a line"]),
            action("documentpicker.save", ["WFAskWhereToSave": false, "WFFileDestinationPath": name]),
            action("documentpicker.save", ["WFAskWhereToSave": false, "WFFileDestinationPath": "notes.txt", "WFSaveFileOverwrite": true]),
            action("documentpicker.save", [:]),
            action("gettext", ["WFTextActionText": ["WFSerializationType": "WFTextTokenString", "Value": [
                "string": "\u{FFFC}", "attachmentsByRange": ["{0, 1}": formatted(["WFDateFormatStyle": "Fortnightly"])]]]]),
        ]))
        #expect(result.yaml.contains("""
              - text: a line
                as: text
              - current-date:
                as: current_date
              - format-date: yyyy-MM-dd
                input: ${current_date}
                as: formatted_date
              - format-date:
                  style: short
                  time: none
                input: ${current_date}
                as: formatted_date_2
              - save-file:
                  to: ~/Shortcuts/log ${formatted_date} ${formatted_date_2}.txt
                  overwrite: rename
                input: ${text}
            """), "\(result.yaml)")
        #expect(result.yaml.contains("  - save-file:\n      to: ~/Shortcuts/notes.txt\n      overwrite: \"true\"\n"), "\(result.yaml)")
        // Asking where to save (Shortcuts' default): the path is asked before the step.
        #expect(result.yaml.contains("""
              - ask: "Save File: where should the file be saved?"
                as: answer
              - save-file:
                  to: ${answer}
                  overwrite: rename
            """), "\(result.yaml)")
        // A date style Shortcuts has not has no equivalent.
        #expect(result.unmapped.map(\.number) == [5], "\(result.unmapped)")
        #expect(result.unmapped.last?.reason.contains("the style 'Fortnightly'") == true, "\(result.unmapped)")
    }

    @Test("Get File reads a file of the Shortcuts folder, or asks which file where Shortcuts shows a picker; picking several has no equivalent")
    func getFile() throws {
        let result = try imported(try shortcutData([
            action("documentpicker.open", ["WFShowFilePicker": false, "WFGetFilePath": "notes/a.txt"]),
            action("documentpicker.open", [:]),
            action("documentpicker.open", ["SelectMultiple": true]),
        ]), partial: true)
        #expect(result.yaml.contains("""
              - read-file: ~/Shortcuts/notes/a.txt
              - ask: "Get File: which file?"
                as: answer
              # Shortcuts: Get File
              - read-file: ${answer}
            """), "\(result.yaml)")
        #expect(result.unmapped.map(\.number) == [3])
        #expect(result.unmapped.first?.reason == "Get File with SelectMultiple 'true', WFShowFilePicker 'true', which Relay has no equivalent for")
    }

    @Test("an Ask Each Time variable becomes an 'ask' step before the action, asking with the action's title and the parameter's label")
    func askEachTime() throws {
        let ask: [String: Any] = ["WFSerializationType": "WFTextTokenAttachment", "Value": ["Type": "Ask"]]
        let inText: [String: Any] = ["WFSerializationType": "WFTextTokenString", "Value": ["string": "Hello, \u{FFFC}!", "attachmentsByRange": ["{7, 1}": ["Type": "Ask"]]]]
        let result = try imported(try shortcutData([
            action("makezip", ["WFZIPName": ask]),
            action("gettext", ["WFTextActionText": inText]),
        ]))
        #expect(result.unmapped.isEmpty, "\(result.unmapped)")
        #expect(result.yaml.contains("""
              - ask: "Make Archive: ZIP Name"
                as: answer
              - make-archive: ${answer}.zip
                input: ${input}
              - ask: "Text: Text Action Text"
                as: answer_2
              - text: Hello, ${answer_2}!
            """), "\(result.yaml)")
        let (workflow, diagnostics) = WorkflowLoader(registry: builtinRegistry).load(SourceFile(path: "asked.yaml", text: result.yaml))
        #expect(workflow != nil && diagnostics.filter { $0.severity == .error }.isEmpty, "\(diagnostics)")
    }

    @Test("Current Date becomes a step before the action that reads it; the previous output the action read is named, so it still reads it")
    func currentDate() throws {
        let year: [String: Any] = ["Type": "CurrentDate", "Aggrandizements": [["Type": "WFPropertyVariableAggrandizement", "PropertyName": "Year"]]]
        let result = try imported(try shortcutData([
            action("count", ["WFCountType": "Characters"]),
            action("format.date", [
                "WFDate": ["WFSerializationType": "WFTextTokenAttachment", "Value": ["Type": "CurrentDate"]], "WFDateFormatStyle": "Custom", "WFDateFormat": "yyyy",
            ]),
            action("conditional", [
                "GroupingIdentifier": "C", "WFControlFlowMode": 0, "WFCondition": 4,
                "WFConditionalActionString": ["WFSerializationType": "WFTextTokenString", "Value": ["string": "\u{FFFC}", "attachmentsByRange": ["{0, 1}": year]]],
            ]),
            action("gettext", ["WFTextActionText": "same year"]),
            action("conditional", ["GroupingIdentifier": "C", "WFControlFlowMode": 2]),
        ]))
        #expect(result.unmapped.isEmpty, "\(result.unmapped)")
        #expect(result.yaml.hasSuffix("""
              - count: characters
              - current-date:
                as: current_date
              - format-date: yyyy
                input: ${current_date}
                as: format_date
              - current-date:
                as: current_date_2
              - if: ${format_date == current_date_2.year}
                then:
                  - text: same year

            """), "\(result.yaml)")
        let (workflow, diagnostics) = WorkflowLoader(registry: builtinRegistry).load(SourceFile(path: "date.yaml", text: result.yaml))
        #expect(workflow != nil, "\(diagnostics.map(\.message))")
    }

    @Test("a shortcut that posts to a server imports to a step the gate sees: that host, that method")
    func gateSeesTheRequest() throws {
        let result = try imported(try shortcutData([
            action("downloadurl", [
                "WFURL": "https://hooks.example.com/in", "WFHTTPMethod": "POST", "WFHTTPBodyType": "JSON",
                "WFJSONValues": [
                    "WFSerializationType": "WFDictionaryFieldValue",
                    "Value": ["WFDictionaryFieldValueItems": [["WFItemType": 0, "WFKey": "a", "WFValue": "b"]]],
                ],
            ])
        ]))
        let (workflow, _) = WorkflowLoader(registry: builtinRegistry).load(SourceFile(path: "post.yaml", text: result.yaml))
        let report = PermissionReport(try #require(workflow), entityTypes: builtinRegistry.entityTypes)
        #expect(report.needs.filter { $0.capability == .net }.map(\.target) == ["hooks.example.com"], "\(result.yaml)")
    }

    @Test("every mapping names parameters its action has, and one identifier's mappings never hold together")
    func mappingsAreSound() {
        var byIdentifier: [String: [ShortcutsMapping]] = [:]
        for definition in builtinRegistry.actions {
            let names = Set(definition.parameters.map(\.name)).union(["input"])
            for mapping in definition.shortcuts {
                byIdentifier[mapping.identifier, default: []].append(mapping)
                for parameter in mapping.parameters.values { #expect(names.contains(parameter), "\(definition.name): \(parameter)") }
                for parameter in mapping.templates.keys { #expect(names.contains(parameter), "\(definition.name): \(parameter)") }
                for parameter in mapping.fixed.keys { #expect(names.contains(parameter), "\(definition.name): \(parameter)") }
                for key in mapping.values.keys { #expect(mapping.keys.contains(key), "\(definition.name): values for \(key), which it does not read") }
                // A value a table gives must be one the parameter takes.
                for (key, table) in mapping.values {
                    guard let parameter = mapping.parameters[key], let definition = definition.parameters.first(where: { $0.name == parameter }) else { continue }
                    for relay in table.values { #expect(definition.choiceProblem(relay) == nil, "\(definition.name): \(relay)") }
                }
            }
        }
        for (identifier, mappings) in byIdentifier where mappings.count > 1 {
            for (index, mapping) in mappings.enumerated() {
                #expect(!mapping.when.isEmpty, "\(identifier): a mapping that holds for every action beside others")
                for other in mappings[(index + 1)...] {
                    // They hold together when, for every key either names, the values either takes meet
                    // (a key only one names leaves the other open to any value).
                    let keys = Set(mapping.when.keys).union(other.when.keys)
                    let overlap = keys.allSatisfy { key in
                        guard let mine = mapping.when[key], let theirs = other.when[key] else { return true }
                        return !Set(mine).isDisjoint(with: theirs)
                    }
                    #expect(!overlap, "\(identifier): two mappings hold for the same action")
                }
            }
        }
    }
}
