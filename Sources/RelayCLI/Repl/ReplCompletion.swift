import RelayKit
import RelayLanguage

/// What tab completes in the REPL: action names at the start of a line, parameter names inside
/// `{…}` after an action, variable names after `${`, commands after `:`.
enum ReplCompletion {
    static let commands = ["help", "actions", "describe", "vars", "type", "undo", "load", "save", "reset", "quit"]

    static func candidates(line: String, word: String, start: Int, registry: ActionRegistry, variables: [String]) -> [String] {
        let before = String(line.prefix(start))
        if before.hasSuffix("${") {
            return (variables + ["previous", "input"]).sorted().map { $0 + "}" }
        }
        let trimmed = before.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty, word.hasPrefix(":") { return commands.map { ":" + $0 } }
        if trimmed.isEmpty || trimmed == "{" { return (registry.names + ControlGrammar.keywords).sorted() }
        // After :describe, whatever it describes.
        if trimmed == ":describe" {
            return (registry.names + ControlGrammar.keywords + ControlGrammar.modifierNames + registry.entityTypes.names + ["file"]).sorted()
        }
        // Inside `{…}` after `action:`: the action's parameter names.
        let head = line.drop { $0 == " " || $0 == "{" }
        guard let colon = head.firstIndex(of: ":"), before.contains("{"), before.count > line.count - head.count + head.distance(from: head.startIndex, to: colon) else {
            return []
        }
        guard let action = registry.action(named: String(head[..<colon])) else { return [] }
        return action.parameters.map { $0.name + ": " }
    }
}
