import Foundation
import RelayKit
import RelayShortcuts
import RelayLanguage

/// Every view of the registered actions, generated from their declarations: the JSON of
/// `relay actions --json`, the Markdown of `Docs/Actions.md`, and `relay describe`.
public enum ActionCatalog {
    /// One action as `relay actions --json` lists it.
    public static func json(for action: ActionDefinition) -> Value {
        var entry = ValueDictionary()
        entry["name"] = .text(action.name)
        entry["title"] = .text(action.title)
        entry["package"] = .text(action.package)
        entry["summary"] = .text(action.summary)
        entry["input"] = action.inputParameter.map { .text($0.name) } ?? .nothing
        entry["output"] = .text(action.output.name)
        if let item = action.outputItem { entry["output-item"] = .text(item.name) }
        entry["capabilities"] = .list(action.capabilities.map { .text($0.rawValue) })
        entry["foreground-only"] = .boolean(action.isForegroundOnly)
        entry["shortcuts"] = .list(action.shortcuts.map { ["identifier": .text($0.identifier), "title": .text($0.title)] })
        entry["examples"] = .list(action.examples.map { example in
            ["steps": .text(example.steps), "output": example.output.map { .text($0) } ?? .nothing]
        })
        entry["parameters"] = .list(action.parameters.map { parameter in
            var item = ValueDictionary()
            item["name"] = .text(parameter.name)
            item["title"] = .text(parameter.title)
            item["type"] = .text(parameter.type.name)
            if let itemType = parameter.itemType { item["item-type"] = .text(itemType.name) }
            item["required"] = .boolean(parameter.isRequired)
            item["default"] = parameter.defaultValue ?? .nothing
            item["primary"] = .boolean(parameter.isPrimary)
            item["input"] = .boolean(parameter.isInput)
            if !parameter.choices.isEmpty { item["choices"] = .list(parameter.choices.map { .text($0) }) }
            if !parameter.choiceTitles.isEmpty {
                item["choice-titles"] = .dictionary(ValueDictionary(uniqueKeysWithValues: parameter.choices.compactMap { choice in
                    parameter.choiceTitles[choice].map { (choice, Value.text($0)) }
                }))
            }
            if !parameter.accepts.isEmpty { item["accepts"] = .list(parameter.accepts.map { .text($0.identifier) }) }
            if let access = parameter.access { item["access"] = .text(access.rawValue) }
            item["summary"] = .text(parameter.summary)
            return .dictionary(item)
        })
        return .dictionary(entry)
    }

    /// The actions whose name, title, package or summary contains `filter` (any case).
    public static func matching(_ filter: String?, in registry: ActionRegistry) -> [ActionDefinition] {
        guard let filter, !filter.isEmpty else { return registry.actions }
        let needle = filter.lowercased()
        return registry.actions.filter {
            [$0.name, $0.title, $0.package, $0.summary].contains { $0.lowercased().contains(needle) }
        }
    }

    /// A table of names and summaries, for people.
    public static func list(_ actions: [ActionDefinition]) -> String {
        let width = min(24, actions.map(\.name.count).max() ?? 0)
        return actions.map { action in
            action.name.padding(toLength: max(width, action.name.count), withPad: " ", startingAt: 0) + "  " + action.summary + "\n"
        }.joined()
    }

    /// How a parameter is written in signatures: `to (text: upper|lower|title, primary)`.
    static func describeType(_ parameter: ParameterDefinition) -> String {
        if !parameter.accepts.isEmpty { return "file(\(parameter.accepts.map(\.identifier).joined(separator: ", ")))" }
        guard !parameter.choices.isEmpty else { return parameter.typeDescription }
        let choices = parameter.choices.map { CaseTitles.shown($0, titles: parameter.choiceTitles) }.joined(separator: " | ")
        // A list's choices are its items'.
        return parameter.type == .list ? "list of (\(choices))" : choices
    }

    /// What the action may touch, for people: `read (path), write (to)`; a capability no parameter
    /// names stands alone (`run`). Nil when it touches nothing beyond its values.
    static func needs(_ action: ActionDefinition, code: (String) -> String = { $0 }) -> String? {
        guard !action.capabilities.isEmpty else { return nil }
        return action.capabilities.map { capability in
            let named = action.parameters.filter { $0.access == capability }.map { code($0.name) }
            return named.isEmpty ? capability.rawValue : "\(capability.rawValue) (\(named.joined(separator: ", ")))"
        }.joined(separator: ", ")
    }

    /// The Shortcuts actions an action stands for: `Text (is.workflow.actions.gettext)`; nil for none.
    static func shortcutsLine(_ action: ActionDefinition, code: (String) -> String = { $0 }) -> String? {
        var seen: [String] = []
        for mapping in action.shortcuts where !seen.contains(mapping.identifier) { seen.append(mapping.identifier) }
        guard !seen.isEmpty else { return nil }
        return seen.map { identifier in
            let mappings = action.shortcuts.filter { $0.identifier == identifier }
            // Each key once, with the values of every mapping that names it.
            var keys: [String] = [], values: [String: [String]] = [:]
            for mapping in mappings {
                for (key, accepted) in mapping.when.sorted(by: { $0.key < $1.key }) {
                    if values[key] == nil { keys.append(key) }
                    for value in accepted where !(values[key] ?? []).contains(value) { values[key, default: []].append(value) }
                }
            }
            let when = keys.map { "\($0) \(values[$0, default: []].joined(separator: ", "))" }
            return "\(mappings[0].title) (\(code(identifier)))\(when.isEmpty ? "" : " with " + when.joined(separator: "; "))"
        }.joined(separator: ", ")
    }

    /// `relay actions --shortcuts`: each Shortcuts action Relay imports, and what it becomes.
    static func shortcutsTable(_ actions: [ActionDefinition], matching filter: String? = nil) -> String {
        var rows: [(identifier: String, title: String, action: String, when: String)] = []
        for action in actions {
            for mapping in action.shortcuts {
                let when = mapping.when.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.joined(separator: ", "))" }.joined(separator: "; ")
                rows.append((mapping.identifier, mapping.title, action.name, when))
            }
        }
        for own in ShortcutImporter.ownActions { rows.append((own.identifier, own.title, own.becomes, "")) }
        if let filter, !filter.isEmpty {
            rows = rows.filter { row in [row.identifier, row.title, row.action].contains { $0.localizedCaseInsensitiveContains(filter) } }
        }
        rows.sort { ($0.identifier, $0.when) < ($1.identifier, $1.when) }
        let width = rows.map(\.identifier.count).max() ?? 0
        let titles = rows.map(\.title.count).max() ?? 0
        return rows.map { row in
            row.identifier.padding(toLength: width + 2, withPad: " ", startingAt: 0) + row.title.padding(toLength: titles + 2, withPad: " ", startingAt: 0)
                + row.action + (row.when.isEmpty ? "" : "  (\(row.when))")
        }.joined(separator: "\n") + "\n"
    }

    /// `relay describe ACTION`.
    public static func describe(_ action: ActionDefinition) -> String {
        var lines = ["\(action.name) — \(action.title)", "", action.summary, ""]
        lines.append("Package: \(action.package)")
        if let input = action.inputParameter {
            lines.append("Input:   \(input.name) (\(describeType(input)))\(action.mapsOverListInput ? "; a list runs the action once per item" : "")")
        } else {
            lines.append("Input:   none (the previous output is ignored)")
        }
        lines.append("Output:  \(action.outputDescription)")
        if let primary = action.primaryIndex.map({ action.parameters[$0] }) {
            lines.append("Primary: \(primary.name), written after the name (- \(action.name): \(placeholder(for: primary)))")
        } else {
            lines.append("Primary: none (parameters by name)")
        }
        lines.append("Needs:   \(needs(action) ?? "nothing beyond its values")")
        if let shortcuts = shortcutsLine(action) { lines.append("Shortcuts: \(shortcuts)") }
        if action.isForegroundOnly {
            lines.append("Runs:    with a person to answer it: on a terminal, or given its answers (--answer, --yes)")
        }
        let parameters = action.parameters.filter { !$0.isInput }
        if !parameters.isEmpty {
            lines.append("")
            lines.append("Parameters:")
            let width = parameters.map(\.name.count).max() ?? 0
            for parameter in parameters {
                var facts = [describeType(parameter)]
                if parameter.isPrimary { facts.append("primary") }
                if parameter.isRequired { facts.append("required") }
                if let value = parameter.defaultValue, !value.isNothing { facts.append("default \(defaultText(value))") }
                let name = parameter.name.padding(toLength: width, withPad: " ", startingAt: 0)
                lines.append("  \(name)  \(facts.joined(separator: ", "))")
                if !parameter.summary.isEmpty {
                    lines.append("  \(String(repeating: " ", count: width))  \(parameter.summary)")
                }
            }
        }
        lines.append("")
        lines.append(action.examples.count > 1 ? "Examples:" : "Example:")
        lines.append(contentsOf: example(for: action).map { $0.isEmpty ? "" : "  " + $0 })
        return lines.joined(separator: "\n") + "\n"
    }

    /// A YAML step that uses the action.
    static func example(for action: ActionDefinition) -> [String] {
        // The declared examples, each with what it prints; a placeholder only for an action without any.
        if !action.examples.isEmpty {
            var lines: [String] = []
            for (index, example) in action.examples.enumerated() {
                if index > 0 { lines.append("") }
                lines += example.steps.split(separator: "\n").map(String.init)
                guard let output = example.output else { continue }
                lines.append("# prints:")
                lines += output.split(separator: "\n", omittingEmptySubsequences: false).map { "#   " + $0 }
            }
            return lines
        }
        let required = action.parameters.filter { $0.isRequired && !$0.isInput }
        if let primary = action.primaryIndex.map({ action.parameters[$0] }),
            required.allSatisfy({ $0.isPrimary })
        {
            return ["- \(action.name): \(placeholder(for: primary))"]
        }
        if required.isEmpty { return ["- \(action.name)"] }
        return ["- \(action.name):"] + required.map { "    \($0.name): \(placeholder(for: $0))" }
    }

    private static func placeholder(for parameter: ParameterDefinition) -> String {
        if let first = parameter.choices.first { return first }
        switch parameter.type {
        case .number: return "1"
        case .boolean: return "true"
        case .date: return "2026-01-31"
        case .url: return "https://example.com"
        case .list: return "[a, b]"
        case .dictionary: return "{ key: value }"
        case .file: return "report.txt"
        default: return "hello"
        }
    }

    private static func defaultText(_ value: Value) -> String {
        if case .text(let text) = value { return "'\(text)'" }
        return JSONWriter.string(for: value, pretty: false)
    }

    /// `Docs/Actions.md`: every action's reference, grouped by package.
    public static func markdown(_ actions: [ActionDefinition]) -> String {
        var output = """
            # Action reference

            Generated by `relay actions --markdown` from the actions' declarations; do not edit by hand.
            `relay describe ACTION` shows the same for one action.

            In each table, **input** marks the parameter that takes the previous step's output, and
            **primary** the one a scalar or list right after the action name fills.

            ### When the file is already there

            Every action that writes a file has an `overwrite` parameter with one meaning:

            - `false` (the default): the step fails, naming the file, and leaves it as it was.
            - `true`: the file is replaced; `relay undo` puts its old bytes back.
            - `rename`: the new file is written beside it under the first free name: `report.pdf`
              is kept and `report 2.pdf` written, then `report 3.pdf` (an archive keeps its whole
              extension: `backup 2.tar.gz`). The step's output is the file written.

            An image edited in place (`rotate-image` without `to:`) replaces itself: that is what it
            was asked to do. Appending (`save-file` with `append: true`) adds to the file that is there.
            A folder is never replaced.

            """
        var packages: [String] = []
        for action in actions where !packages.contains(action.package) { packages.append(action.package) }
        for package in packages {
            output += "\n## \(package)\n"
            for action in actions where action.package == package {
                output += "\n### `\(action.name)` — \(action.title)\n\n\(action.summary)\n\n"
                output += "Output: `\(action.outputDescription)`.\n"
                if let needs = needs(action, code: { "`\($0)`" }) { output += "Needs: \(needs) (Docs/Security.md).\n" }
                if let shortcuts = shortcutsLine(action, code: { "`\($0)`" }) { output += "Shortcuts: \(shortcuts) (Docs/Shortcuts.md).\n" }
                if !action.parameters.isEmpty {
                    output += "\n| parameter | type | | default | description |\n|---|---|---|---|---|\n"
                    for parameter in action.parameters {
                        var roles: [String] = []
                        if parameter.isInput { roles.append("input") }
                        if parameter.isPrimary { roles.append("primary") }
                        if parameter.isRequired { roles.append("required") }
                        let defaultCell = parameter.defaultValue.map { $0.isNothing ? "" : "`\(defaultText($0))`" } ?? ""
                        let type = describeType(parameter).replacingOccurrences(of: "|", with: "\\|")
                        output += "| `\(parameter.name)` | \(type) | \(roles.joined(separator: ", ")) | \(defaultCell) | \(parameter.summary) |\n"
                    }
                }
                output += "\n```yaml\n" + example(for: action).joined(separator: "\n") + "\n```\n"
            }
        }
        return output
    }
}
