import Foundation
import RelayKit

/// An action `relay import` has no equivalent for: its number, identifier, name and why.
public struct UnmappedAction: Sendable, Equatable, CustomStringConvertible {
    public let number: Int
    public let identifier: String
    public let title: String
    public let reason: String

    public var description: String { "action \(number) (\(title), \(identifier)): \(reason)" }
}

/// A shortcut as a workflow: the YAML, where each action's step starts, and the actions that
/// have no equivalent (Docs/Shortcuts.md).
public struct ShortcutImport: Sendable {
    public let yaml: String
    public let unmapped: [UnmappedAction]
    /// Each step's first line (from 1) and the action it comes from, in order.
    public let lines: [(line: Int, action: Int)]
    /// Each action's number → its name in Shortcuts.
    public let titles: [Int: String]

    /// The action whose step holds `line` (the lines are in order: a binary search).
    public func action(atLine line: Int) -> Int? {
        var low = 0, high = lines.count
        while low < high {
            let middle = (low + high) / 2
            if lines[middle].line <= line { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? lines[low - 1].action : nil
    }
}

/// Turns a shortcut into a workflow: each action through the mapping its Relay action declares
/// (`ShortcutsMapping`), control flow, variables and magic variables by the import's own rules.
public struct ShortcutImporter: Sendable {
    private let mappings: [String: [(definition: ActionDefinition, mapping: ShortcutsMapping)]]

    /// The Shortcuts actions the import turns into control steps and variables itself: their
    /// identifiers, names in Shortcuts, and what each becomes.
    public static let ownActions: [(identifier: String, title: String, becomes: String)] = [
        ("is.workflow.actions.conditional", "If", "if"),
        ("is.workflow.actions.repeat.count", "Repeat", "repeat"),
        ("is.workflow.actions.repeat.each", "Repeat with Each", "for-each"),
        ("is.workflow.actions.choosefrommenu", "Choose from Menu", "menu"),
        ("is.workflow.actions.setvariable", "Set Variable", "set"),
        ("is.workflow.actions.appendvariable", "Add to Variable", "append"),
        ("is.workflow.actions.getvariable", "Get Variable", "comment, with the variable as its input:"),
        ("is.workflow.actions.exit", "Stop This Shortcut", "stop"),
        ("is.workflow.actions.output", "Stop and Output", "stop"),
        ("is.workflow.actions.runworkflow", "Run Shortcut", "run-workflow"),
        ("is.workflow.actions.text.match.getgroup", "Get Group from Matched Text", "match-text with group:"),
    ]

    public init(actions: [ActionDefinition]) {
        var mappings: [String: [(definition: ActionDefinition, mapping: ShortcutsMapping)]] = [:]
        for definition in actions {
            for mapping in definition.shortcuts { mappings[mapping.identifier, default: []].append((definition, mapping)) }
        }
        self.mappings = mappings
    }

    /// The workflow for `shortcut`, named `name` unless the shortcut says its own. With
    /// `partial`, an action with no equivalent becomes a `fail` step; without, it is only listed.
    public func convert(_ shortcut: Shortcut, name: String, partial: Bool = false) throws(ShortcutError) -> ShortcutImport {
        var state = ImportState(shortcut: shortcut, mappings: mappings, partial: partial)
        state.nameVariables()
        let nodes = try ShortcutNode.blocks(of: shortcut.actions)
        let steps = state.steps(of: nodes, root: true)
        var writer = WorkflowWriter()
        writer.comment("Imported from a shortcut by relay import (Docs/Shortcuts.md).", indent: "")
        if let color = shortcut.iconColor {
            let hex = String((color >> 8) & 0xFFFFFF, radix: 16).uppercased()
            writer.comment("Its icon in Shortcuts: colour #\(String(repeating: "0", count: max(0, 6 - hex.count)) + hex)\(shortcut.iconGlyph.map { ", glyph \($0)" } ?? "").", indent: "")
        }
        writer.write("name: \(WorkflowWriter.scalar(shortcut.name ?? name))\n")
        if let input = state.inputType() { writer.write("input: \(input)\n") }
        if !state.variables.isEmpty || !state.emptyAtStart.isEmpty {
            // Shortcuts asks these when the shortcut is added; `--set NAME=VALUE` answers them here.
            writer.write("variables:\n")
            for name in state.emptyAtStart {
                writer.comment("Read before it is set, as in Shortcuts: empty until then.", indent: "  ")
                writer.write("  \(name): \"\"\n")
            }
            for variable in state.variables {
                writer.comment(variable.question, indent: "  ")
                writer.write("  \(variable.name):")
                writer.value(variable.defaultValue ?? .text(""), indent: "    ", after: true)
            }
        }
        writer.write("steps:")
        if steps.isEmpty {
            writer.write(" []\n")
        } else {
            writer.write("\n")
            writer.steps(steps, indent: "  ")
        }
        var titles: [Int: String] = [:]
        for action in shortcut.actions { titles[action.number] = state.title(of: action) }
        return ShortcutImport(yaml: writer.text, unmapped: state.unmapped, lines: writer.lines, titles: titles)
    }
}

/// What one import keeps as it goes.
struct ImportState {
    let shortcut: Shortcut
    let mappings: [String: [(definition: ActionDefinition, mapping: ShortcutsMapping)]]
    let partial: Bool
    var names = ShortcutNames()
    var unmapped: [UnmappedAction] = []
    var variables: [(name: String, question: String, defaultValue: WrittenValue?)] = []
    /// Named variables read before a Set Variable sets them: they start as an empty text.
    var emptyAtStart: [String] = []
    /// Whether a step reads the shortcut's input.
    var readsInput = false

    init(shortcut: Shortcut, mappings: [String: [(definition: ActionDefinition, mapping: ShortcutsMapping)]], partial: Bool) {
        self.shortcut = shortcut
        self.mappings = mappings
        self.partial = partial
    }

    /// Names the named variables, then every output a later action uses, in the order of the
    /// actions.
    mutating func nameVariables() {
        var used: [String: String] = [:]
        for action in shortcut.actions {
            for value in action.parameters.values { Self.collectOutputs(in: value, into: &used, depth: 0) }
        }
        for action in shortcut.actions where ["is.workflow.actions.setvariable", "is.workflow.actions.appendvariable"].contains(action.identifier) {
            guard let variable = action.parameters["WFVariableName"]?.plainText, names.variables[variable] == nil,
                ShortcutNames.builtIn(variable) == nil
            else { continue }
            names.variables[variable] = names.name(from: variable)
        }
        // A variable a Set Variable sets and an earlier action reads (a text built up in a loop)
        // is empty in Shortcuts until set: it starts as an empty text.
        var firstSet: [String: Int] = [:], firstRead: [String: Int] = [:]
        for action in shortcut.actions {
            if action.identifier == "is.workflow.actions.setvariable", let variable = action.parameters["WFVariableName"]?.plainText, firstSet[variable] == nil {
                firstSet[variable] = action.number
            }
            for value in action.parameters.values {
                for variable in Self.namedVariables(in: value, depth: 0) where firstRead[variable] == nil { firstRead[variable] = action.number }
            }
        }
        for (variable, read) in firstRead.sorted(by: { $0.value < $1.value }) {
            guard let set = firstSet[variable], read <= set, let name = names.variables[variable] else { continue }
            emptyAtStart.append(name)
        }
        for action in shortcut.actions {
            guard let id = action.parameters["UUID"]?.text, let outputName = used[id], names.outputs[id] == nil else { continue }
            // The name Shortcuts shows for it, else the Relay action's (a name in letters Relay's
            // variable names do not take, `提供的输入`, gives none).
            let fallback = Self.outputName(of: action, title: title(of: action))
            let given = action.parameters["CustomOutputName"]?.plainText ?? outputName
            names.outputs[id] = names.name(from: ShortcutNames.hasWords(given) ? given : fallback)
        }
    }

    /// The name Shortcuts shows for an action's output when the file does not say: a block's
    /// result, or the action's name without its "Get" (`Get Contents of URL` → contents of URL).
    static func outputName(of action: ShortcutAction, title: String) -> String {
        switch action.identifier {
        case "is.workflow.actions.conditional": return "If Result"
        case "is.workflow.actions.repeat.count", "is.workflow.actions.repeat.each": return "Repeat Results"
        case "is.workflow.actions.choosefrommenu": return "Menu Result"
        default: return title.hasPrefix("Get ") ? String(title.dropFirst(4)) : title
        }
    }

    /// The named variables a value reads.
    private static func namedVariables(in value: PropertyValue, depth: Int) -> [String] {
        guard depth < Limits.shortcutDepth else { return [] }
        switch value {
        case .dictionary(let entries):
            var found: [String] = []
            if entries["Type"]?.text == "Variable", let name = entries["VariableName"]?.text { found.append(name) }
            for inner in entries.values { found += namedVariables(in: inner, depth: depth + 1) }
            return found
        case .list(let items):
            return items.flatMap { namedVariables(in: $0, depth: depth + 1) }
        default:
            return []
        }
    }

    /// Every `ActionOutput` a value refers to: its UUID and the name Shortcuts shows for it.
    private static func collectOutputs(in value: PropertyValue, into used: inout [String: String], depth: Int) {
        guard depth < Limits.shortcutDepth else { return }
        switch value {
        case .dictionary(let entries):
            if entries["Type"]?.text == "ActionOutput", let id = entries["OutputUUID"]?.text {
                if used[id] == nil || used[id] == "" { used[id] = entries["OutputName"]?.text ?? "" }
            }
            for inner in entries.values { collectOutputs(in: inner, into: &used, depth: depth + 1) }
        case .list(let items):
            for item in items { collectOutputs(in: item, into: &used, depth: depth + 1) }
        default: break
        }
    }

    /// The action's name in Shortcuts, as its mapping or the catalog of Apple's actions says.
    func title(of action: ShortcutAction) -> String {
        mappings[action.identifier]?.first?.mapping.title ?? ShortcutsCatalog.title(of: action.identifier) ?? action.shortIdentifier
    }

    /// The workflow's input type, when every kind of input the shortcut takes is one of Relay's.
    func inputType() -> String? {
        guard readsInput, !shortcut.inputClasses.isEmpty else { return nil }
        let types = Set(shortcut.inputClasses.map { ShortcutsCatalog.inputType(of: $0) })
        guard types.count == 1, let type = types.first, let type else { return nil }
        return type
    }

    // MARK: Blocks and steps

    mutating func steps(of nodes: [ShortcutNode], root: Bool) -> [WrittenStep] {
        // The steps a block's opener needs (its condition's Current Date) wait for the block.
        let waiting = names.helpers
        defer { names.helpers = waiting }
        var steps: [WrittenStep] = []
        for node in nodes {
            let number: Int, identifier: String
            switch node {
            case .action(let action): (number, identifier) = (action.number, action.identifier)
            case .block(let parts, _): (number, identifier) = (parts[0].opener.number, parts[0].opener.identifier)
            }
            names.helpers = []
            do {
                var made = try converted(node)
                try place(&made, after: &steps, root: root)
                steps += made
            } catch {
                let action = shortcutAction(number)
                let title = action.map { self.title(of: $0) } ?? identifier
                unmapped.append(UnmappedAction(number: number, identifier: identifier, title: title, reason: error.message))
                if partial {
                    var fail = WrittenStep(action: number, key: "fail", value: .literal("\(title) is not available in Relay: \(error.message)"))
                    fail.comments = ["Shortcuts: \(title) (\(identifier))"]
                    // Its output keeps its name, so that the steps after it that use it still check.
                    let output: ShortcutAction?
                    switch node {
                    case .action(let action): output = action
                    case .block(_, let end): output = end
                    }
                    if let output, let name = stored(output) { fail.set("as", .value(.text(name))) }
                    steps.append(fail)
                }
            }
        }
        return steps
    }

    private func shortcutAction(_ number: Int) -> ShortcutAction? {
        number >= 1 && number <= shortcut.actions.count ? shortcut.actions[number - 1] : nil
    }

    /// Puts the steps an action's `Current Date` or `Clipboard` needs before it. The previous
    /// output it read is then named, so that it still reads it.
    private mutating func place(_ made: inout [WrittenStep], after steps: inout [WrittenStep], root: Bool) throws(ShortcutError) {
        guard var step = made.first else { return }
        let helpers = names.helpers
        guard !helpers.isEmpty else {
            for index in made.indices { Self.replacePrevious(in: &made[index], with: "previous") }
            return
        }
        let needsPrevious = Self.mentionsPrevious(step) || implicitInput(step)
        var previous = "previous"
        if needsPrevious {
            if root && steps.isEmpty {
                previous = "input"
                readsInput = true
            } else if let last = steps.indices.last, last >= 0 {
                if let stored = steps[last].storedAs, steps[last].key != "for-each" {
                    previous = stored
                } else if steps[last].key != "for-each" {
                    previous = names.name(from: steps[last].key)
                    steps[last].set("as", .value(.text(previous)))
                } else {
                    previous = names.name(from: "previous value")
                    var keep = WrittenStep(action: 0, key: "set")
                    keep.value = .dictionary([WrittenEntry(key: previous, value: .variable("previous"))])
                    steps.append(keep)
                }
            } else {
                previous = names.name(from: "previous value")
                var keep = WrittenStep(action: 0, key: "set")
                keep.value = .dictionary([WrittenEntry(key: previous, value: .variable("previous"))])
                steps.append(keep)
            }
            if implicitInput(step) { step.set("input", .value(.variable(previous))) }
        }
        Self.replacePrevious(in: &step, with: previous)
        made[0] = step
        for index in made.indices.dropFirst() { Self.replacePrevious(in: &made[index], with: "previous") }
        for helper in helpers {
            var before = WrittenStep(action: step.action, key: helper.kind, value: helper.value)
            before.parameters = helper.parameters
            if let input = helper.input { before.set("input", .value(input)) }
            before.set("as", .value(.text(helper.name)))
            steps.append(before)
        }
    }

    /// Whether the step takes the previous output without saying so.
    private func implicitInput(_ step: WrittenStep) -> Bool {
        guard step.siblings.allSatisfy({ $0.key != "input" }) else { return false }
        guard let definition = mappings.values.lazy.flatMap({ $0 }).first(where: { $0.definition.name == step.key })?.definition,
            let input = definition.inputParameter
        else { return false }
        return !step.parameters.contains { $0.key == input.name } && !(input.isPrimary && step.value != nil)
    }

    private static func mentionsPrevious(_ step: WrittenStep) -> Bool {
        var found = false
        var copy = step
        replacePrevious(in: &copy, with: "") { found = true }
        return found
    }

    /// Writes `name` where the step's values stand for the previous output.
    private static func replacePrevious(in step: inout WrittenStep, with name: String, found: () -> Void = {}) {
        func replace(_ value: inout WrittenValue) {
            switch value {
            case .text(let text) where text.contains(ShortcutNames.previous):
                found()
                value = .text(text.replacingOccurrences(of: ShortcutNames.previous, with: name))
            case .list(var items):
                for index in items.indices { replace(&items[index]) }
                value = .list(items)
            case .dictionary(var entries):
                for index in entries.indices { replace(&entries[index].value) }
                value = .dictionary(entries)
            default: break
            }
        }
        if var value = step.value {
            replace(&value)
            step.value = value
        }
        for index in step.parameters.indices { replace(&step.parameters[index].value) }
        for index in step.siblings.indices {
            if case .value(var value) = step.siblings[index].content {
                replace(&value)
                step.siblings[index].content = .value(value)
            }
        }
    }

    private mutating func converted(_ node: ShortcutNode) throws(ShortcutError) -> [WrittenStep] {
        switch node {
        case .action(let action): return try actionSteps(action)
        case .block(let parts, let end): return try block(parts, end: end)
        }
    }

    mutating func written(_ value: PropertyValue, action: Int) throws(ShortcutError) -> WrittenValue {
        var reader = ShortcutValues(names: names, action: action)
        let result = try reader.written(value)
        names = reader.names
        return result
    }

    private mutating func expression(of attachment: PropertyValue, action: Int) throws(ShortcutError) -> String {
        var reader = ShortcutValues(names: names, action: action)
        let result = try reader.expression(of: attachment)
        names = reader.names
        return result
    }

    /// The output name given to an action's `UUID`, if a later action uses it.
    func stored(_ action: ShortcutAction) -> String? {
        action.parameters["UUID"]?.text.flatMap { names.outputs[$0] }
    }
}

extension ImportState {
    // MARK: Actions

    /// The steps for one action that is not part of a block.
    mutating func actionSteps(_ action: ShortcutAction) throws(ShortcutError) -> [WrittenStep] {
        var step: WrittenStep
        switch action.identifier {
        case "is.workflow.actions.setvariable", "is.workflow.actions.appendvariable":
            guard let variable = action.parameters["WFVariableName"]?.plainText else {
                throw ShortcutError(action: action.number, "a variable action without the variable's name")
            }
            guard let name = names.variables[variable] else {
                throw ShortcutError(action: action.number, "'\(variable)' is Shortcuts' own variable, which cannot be set")
            }
            var value: WrittenValue?
            if let given = action.parameters["WFInput"] { value = try written(given, action: action.number) }
            step = WrittenStep(action: action.number, key: action.identifier.hasSuffix("setvariable") ? "set" : "append")
            step.value = .dictionary([WrittenEntry(key: name, value: value ?? .variable(ShortcutNames.previous))])
        case "is.workflow.actions.getvariable":
            guard let variable = action.parameters["WFVariable"] else {
                throw ShortcutError(action: action.number, "Get Variable without a variable")
            }
            let attachment = variable["Value"] ?? variable
            if attachment["Type"]?.text == "Variable", let named = attachment["VariableName"]?.text, ShortcutNames.builtIn(named) == nil,
                names.variables[named] == nil
            {
                // A variable nothing sets is empty in Shortcuts.
                step = WrittenStep(action: action.number, key: "nothing")
                step.comments = ["Shortcuts: Get Variable of '\(named)', which no action sets"]
                return [step]
            }
            let name = try expression(of: attachment, action: action.number)
            // A comment passes its input on: the variable's value becomes the previous output.
            step = WrittenStep(action: action.number, key: "comment", value: .literal("Get Variable"))
            step.set("input", .value(.variable(name)))
            if name == "input" { readsInput = true }
        case "is.workflow.actions.exit":
            step = WrittenStep(action: action.number, key: "stop")
        case "is.workflow.actions.output":
            var value: WrittenValue?
            if let given = action.parameters["WFOutput"] { value = try written(given, action: action.number) }
            step = WrittenStep(action: action.number, key: "stop", value: value ?? .variable(ShortcutNames.previous))
        case "is.workflow.actions.text.match.getgroup":
            step = try matchedGroup(action)
        case "is.workflow.actions.runworkflow":
            let named = action.parameters["WFWorkflowName"]?.plainText ?? action.parameters["WFWorkflow"]?["workflowName"]?.plainText
            guard let named, !named.isEmpty else { throw ShortcutError(action: action.number, "Run Shortcut without the shortcut's name") }
            guard !named.unicodeScalars.contains(where: { $0 == "/" || $0 == "\0" }), named.trimmingCharacters(in: .init(charactersIn: ".")) != "" else {
                throw ShortcutError(action: action.number, "Run Shortcut of '\(named)', which cannot be a file's name")
            }
            // A name starting with `~` is not the home folder: it is written as a path in this folder.
            step = WrittenStep(action: action.number, key: "run-workflow", value: .literal((named.hasPrefix("~") ? "./" : "") + named + ".shortcut"))
            if let input = action.parameters["WFInput"] { step.set("input", .value(try written(input, action: action.number))) }
            step.comments = ["Shortcuts: Run Shortcut (the shortcut exported beside this one)"]
        default:
            step = try mapped(action)
        }
        if let name = stored(action) { step.set("as", .value(.text(name))) }
        noteInput(step)
        return [step]
    }

    /// Get Group from Matched Text: the matches it is given are matched again with the pattern of
    /// the Match Text that made them, keeping the group (`match-text` with `group:`).
    mutating func matchedGroup(_ action: ShortcutAction) throws(ShortcutError) -> WrittenStep {
        // The Match Text whose output `input` names: by its UUID, or through the Set Variable that
        // last set the variable it names; without an input, the action just before `number`.
        func matchText(_ input: PropertyValue?, before number: Int, depth: Int = 0) -> ShortcutAction? {
            guard depth < 8 else { return nil }
            guard let input else {
                // The previous output: a Set Variable or a Comment passes its own input on, a Get
                // Variable gives the variable.
                guard number >= 2 else { return nil }
                let previous = shortcut.actions[number - 2]
                switch previous.identifier {
                case "is.workflow.actions.setvariable": return matchText(previous.parameters["WFInput"], before: previous.number, depth: depth + 1)
                case "is.workflow.actions.comment": return matchText(nil, before: previous.number, depth: depth + 1)
                case "is.workflow.actions.getvariable": return matchText(previous.parameters["WFVariable"], before: previous.number, depth: depth + 1)
                default: return previous
                }
            }
            let attachment = input["Value"] ?? input
            switch attachment["Type"]?.text {
            case "ActionOutput":
                guard let id = attachment["OutputUUID"]?.text else { return nil }
                return shortcut.actions.first { $0.parameters["UUID"]?.text == id }
            case "Variable":
                guard let variable = attachment["VariableName"]?.text,
                    let setter = shortcut.actions[..<(number - 1)].last(where: {
                        $0.identifier == "is.workflow.actions.setvariable" && $0.parameters["WFVariableName"]?.plainText == variable
                    })
                else { return nil }
                return matchText(setter.parameters["WFInput"], before: setter.number, depth: depth + 1)
            default:
                return nil
            }
        }
        let source = matchText(action.parameters["WFInput"], before: action.number)
        guard let source, source.identifier == "is.workflow.actions.text.match", let pattern = source.parameters["WFMatchTextPattern"] else {
            throw ShortcutError(
                action: action.number,
                "Get Group from Matched Text whose matches do not come straight from a Match Text: Relay imports it when they are the output of a Match Text, given directly or as the action before it")
        }
        guard (action.parameters["WFGetGroupType"]?.text ?? "Group At Index") == "Group At Index" else {
            throw ShortcutError(action: action.number, "Get Group from Matched Text of all groups, which Relay has no equivalent for")
        }
        var parameters = [WrittenEntry(key: "pattern", value: try written(pattern, action: action.number))]
        if let sensitive = source.parameters["WFMatchTextCaseSensitive"] {
            parameters.append(WrittenEntry(key: "case-sensitive", value: try written(sensitive, action: action.number)))
        }
        let group = action.parameters["WFGroupIndex"]?.integer ?? 1
        parameters.append(WrittenEntry(key: "group", value: .number(String(group))))
        var step = WrittenStep(action: action.number, key: "match-text")
        step.parameters = parameters
        step.comments = ["Shortcuts: Get Group from Matched Text (its matches, matched again)"]
        if let input = action.parameters["WFInput"] { step.set("input", .value(try written(input, action: action.number))) }
        return step
    }

    /// Notes whether the step reads the workflow's input.
    mutating func noteInput(_ step: WrittenStep) {
        func reads(_ value: WrittenValue) -> Bool {
            switch value {
            case .text(let text): text.contains("${input")
            case .list(let items): items.contains(where: reads)
            case .dictionary(let entries): entries.contains { reads($0.value) }
            default: false
            }
        }
        if step.value.map(reads) == true || step.parameters.contains(where: { reads($0.value) })
            || step.siblings.contains(where: { if case .value(let value) = $0.content { reads(value) } else { false } })
        {
            readsInput = true
        }
    }

    /// The step for an action through its Relay action's declared mapping.
    mutating func mapped(_ action: ShortcutAction) throws(ShortcutError) -> WrittenStep {
        guard let candidates = mappings[action.identifier] else {
            throw ShortcutError(action: action.number, ShortcutsCatalog.reason(for: action.identifier))
        }
        var plain: [String: String] = [:]
        for (key, value) in action.parameters {
            if let text = value.plainText {
                plain[key] = text
            } else if value["WFSerializationType"]?.text == "WFTextTokenString", value["Value"]?["attachmentsByRange"] == nil
                || value["Value"]?["attachmentsByRange"] == .dictionary([:]), let text = value["Value"]?["string"]?.text
            {
                plain[key] = text
            }
        }
        guard let (definition, mapping) = candidates.first(where: { $0.mapping.holds(for: plain) }) else {
            let conditions = Set(candidates.flatMap { $0.mapping.when.keys }).sorted()
            let given = conditions.map { "\($0) '\(plain[$0] ?? candidates[0].mapping.defaults[$0] ?? "")'" }.joined(separator: ", ")
            throw ShortcutError(action: action.number, "\(candidates[0].mapping.title) with \(given), which Relay has no equivalent for")
        }
        func translated(_ key: String) throws(ShortcutError) -> WrittenValue? {
            let raw: WrittenValue
            if let value = action.parameters[key] {
                if let table = mapping.values[key] {
                    guard let text = plain[key] else {
                        throw ShortcutError(action: action.number, "\(mapping.title)'s \(key) given by a variable; Relay's '\(definition.name)' takes it written out")
                    }
                    guard let relay = table[text] else {
                        throw ShortcutError(action: action.number, "\(mapping.title) with \(key) '\(text)', which Relay's '\(definition.name)' has no equivalent for")
                    }
                    return .literal(relay)
                }
                names.asking = "\(mapping.title): \(ShortcutNames.label(ofKey: key))"
                defer { names.asking = nil }
                raw = try written(value, action: action.number)
            } else if let fallback = mapping.defaults[key] {
                if let relay = mapping.values[key]?[fallback] { return .literal(relay) }
                raw = .text(fallback.replacingOccurrences(of: "${previous}", with: "${\(ShortcutNames.previous)}"))
            } else {
                return nil
            }
            return raw
        }
        var given: [String: WrittenValue] = [:]
        // Keys the action has first, then the defaults of parameters still without a value: two
        // keys for one parameter (an older and a newer name) never race.
        let keys = mapping.parameters.keys.sorted { (action.parameters[$0] == nil ? 1 : 0, $0) < (action.parameters[$1] == nil ? 1 : 0, $1) }
        for key in keys {
            guard let parameter = mapping.parameters[key], given[parameter] == nil, var value = try translated(key) else { continue }
            let declared = definition.parameters.first { $0.name == parameter }
            // An empty text where the parameter may be left out is Shortcuts' way of leaving it out.
            if value == .text(""), let declared, !declared.isRequired { continue }
            // What Relay's action takes when it is left out is left out.
            if let declared, let relayDefault = declared.defaultValue, !relayDefault.isNothing, let inline = value.inlineText,
                relayDefault.textValue.caseInsensitiveCompare(inline) == .orderedSame
            {
                continue
            }
            // A number the file keeps as text, for a number parameter, is written as a number.
            if case .text(let text) = value, declared?.type == .number, WrittenValue.isNumber(text) { value = .number(text) }
            if let question = shortcut.questions.first(where: { $0.action == action.number && $0.parameter == key }) {
                let name = names.name(from: ShortcutNames.shortened(question.text))
                // The answer the shortcut's author suggests (through the key's values, when it has
                // a table), else what the action holds.
                var suggested = value
                if let given = question.defaultValue {
                    if let table = mapping.values[key] {
                        guard let text = given.plainText, let relay = table[text] else {
                            throw ShortcutError(action: action.number, "a question whose suggested \(key) '\(given.plainText ?? "")' Relay's '\(definition.name)' has no equivalent for")
                        }
                        suggested = .literal(relay)
                    } else {
                        suggested = try written(given, action: action.number)
                    }
                }
                variables.append((name, question.text, suggested))
                value = .variable(name)
            }
            given[parameter] = value
        }
        for (parameter, template) in mapping.templates {
            var text = "", rest = template[...]
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                text += rest[..<open]
                let key = String(rest[rest.index(after: open)..<close])
                guard let value = try translated(key), let inline = value.inlineText else {
                    throw ShortcutError(action: action.number, "\(mapping.title) without its \(key)")
                }
                text += inline
                rest = rest[rest.index(after: close)...]
            }
            // A part left empty leaves no space or line break at an end (an alert without a title).
            given[parameter] = .text((text + rest).trimmingCharacters(in: .whitespacesAndNewlines))
        }
        for (parameter, value) in mapping.fixed { given[parameter] = .literal(value) }
        for (parameter, question) in mapping.asks.sorted(by: { $0.key < $1.key }) { given[parameter] = .variable(names.asked(question)) }
        var step = WrittenStep(action: action.number, key: definition.name)
        if mapping.title.lowercased() != definition.title.lowercased() { step.comments = ["Shortcuts: \(mapping.title)"] }
        // The input of an action whose input is its primary parameter is written as its value:
        // `- open: ${page}`, not `input: ${page}` below it.
        if let input = given["input"], input != .variable(ShortcutNames.previous), let parameter = definition.inputParameter, parameter.isPrimary,
            given[parameter.name] == nil
        {
            given[parameter.name] = input
            given["input"] = nil
        }
        let ordered = definition.parameters.compactMap { parameter in given[parameter.name].map { (parameter, $0) } }
        if ordered.count == 1, ordered[0].0.isPrimary {
            step.value = ordered[0].1
        } else {
            step.parameters = ordered.map { WrittenEntry(key: $0.0.name, value: $0.1) }
        }
        if let input = given["input"], input != .variable(ShortcutNames.previous) { step.set("input", .value(input)) }
        return step
    }
}
