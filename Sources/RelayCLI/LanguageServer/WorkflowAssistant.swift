import Foundation
import RelayKit
import RelayEngine
import RelayLanguage
import RelayRuntime

/// What `relay lsp` tells an editor about a place in a workflow (Docs/Editors.md): what may be
/// written there, what a word there is, and how to mend a diagnostic that says "did you mean".
/// It reads the lines around the place as YAML lays them out, so that it helps in a workflow
/// that does not parse yet.
struct WorkflowAssistant {
    let registry: ActionRegistry
    let text: EditorText
    /// The variables' types as the last check of the document found them.
    var typings: VariableTypings?
    /// Whether the editor takes snippets (`${1}` placeholders, lines of their own) in completions.
    var snippets = true

    /// The protocol's kinds of completion item.
    private enum Kind: Int {
        case function = 3, field = 5, variable = 6, property = 10, enumMember = 20, keyword = 14
    }

    // MARK: Completion

    /// What may be written at `line`, `character`: items for the editor's list.
    func completions(line: Int, character: Int) -> [Value] {
        guard let cursor = text.index(line: line, character: character) else { return [] }
        let whole = text.line(line)
        // A line no one types by hand is not read for what may go in it.
        guard whole.utf8.count <= Self.longestLine else { return [] }
        let end = max(whole.startIndex, min(cursor, whole.endIndex))
        // Each item replaces the word typed so far (`change-c` whole, though an editor's own idea
        // of a word may stop at the hyphen).
        var start = end
        while start > whole.startIndex, Self.isNameCharacter(whole[whole.index(before: start)]) { start = whole.index(before: start) }
        let (from, to) = (text.position(of: start), text.position(of: end))
        let range: Value = [
            "start": ["line": .number(Double(from.line)), "character": .number(Double(from.character))],
            "end": ["line": .number(Double(to.line)), "character": .number(Double(to.character))],
        ]
        return candidates(line: line, prefix: String(whole[whole.startIndex..<end])).map { item in
            guard case .dictionary(var fields) = item, let insert = fields["insertText"] else { return item }
            fields["textEdit"] = ["range": range, "newText": insert]
            return .dictionary(fields)
        }
    }

    private func candidates(line: Int, prefix: String) -> [Value] {
        if let variables = variableCompletions(prefix: prefix, line: line) { return variables }
        let indent = prefix.prefix { $0 == " " }.count
        let rest = prefix.dropFirst(indent)
        if let filter = filterCompletions(prefix: prefix, line: line) { return filter }
        // `- save-file: { to: a, ov|`: the parameters of the step named on the line.
        if let parameters = flowParameters(rest) { return parameters }
        // `- na|`: a step's name.
        if rest.hasPrefix("- "), rest.dropFirst(2).allSatisfy(Self.isNameCharacter) {
            return stepNames(indent: indent)
        }
        // `ke|` alone on a line: a key — top-level, beside a step's name, or a parameter.
        if rest.allSatisfy(Self.isNameCharacter) {
            if indent == 0 { return WorkflowParser.topLevelKeys.map { item($0, kind: .keyword, detail: "top-level key", insert: "\($0): ") } }
            return keys(atIndent: indent, line: line)
        }
        // `key: va|`: a value of a parameter with choices, or a boolean.
        if let colon = rest.firstIndex(of: ":") {
            var key = rest[..<colon]
            if key.hasPrefix("- ") { key = key.dropFirst(2) }
            let value = rest[rest.index(after: colon)...].drop { $0 == " " }
            guard key.allSatisfy(Self.isNameCharacter), value.allSatisfy({ !$0.isWhitespace }) else { return [] }
            return values(of: String(key), keyIndent: rest.hasPrefix("- ") ? indent + 2 : indent, line: line)
        }
        return []
    }

    /// Actions and control steps, each with its summary; an action's snippet names its required
    /// parameters (for an editor that takes no snippets, its name and a colon where it needs one).
    private func stepNames(indent: Int) -> [Value] {
        let inner = String(repeating: " ", count: indent + 4)
        var items = registry.actions.map { action -> Value in
            let required = action.parameters.filter { $0.isRequired && !$0.isInput }
            guard snippets else { return item(action.name, kind: .function, detail: action.summary, insert: required.isEmpty ? action.name : "\(action.name): ") }
            let snippet: String
            if let primary = action.primaryIndex.map({ action.parameters[$0] }), required.allSatisfy({ $0.name == primary.name }) {
                snippet = "\(action.name): ${1}"
            } else if required.isEmpty {
                snippet = action.name
            } else {
                snippet = "\(action.name):" + required.enumerated().map { "\n\(inner)\($1.name): ${\($0 + 1)}" }.joined()
            }
            return item(action.name, kind: .function, detail: action.summary, insert: snippet, snippet: true)
        }
        items += ControlGrammar.steps.map { item($0.keyword, kind: .keyword, detail: $0.summary, insert: "\($0.keyword): ") }
        return items
    }

    /// The keys that may stand at `indent` on `line`: beside a step's name (its modifiers, a
    /// control step's keys), or in its parameters' mapping.
    private func keys(atIndent indent: Int, line: Int) -> [Value] {
        guard let (name, column, value) = enclosingStep(above: line, indent: indent) else { return [] }
        if column == indent {
            // Beside the step's name: its modifiers, a control step's keys, and an action's
            // parameters (`- find-files: .` then `where:` below it).
            var items = ControlGrammar.modifiers.map { item($0.name, kind: .keyword, detail: $0.summary, insert: "\($0.name): ") }
            if let step = ControlGrammar.step(name) {
                items += step.keys.map { item($0.name, kind: .field, detail: $0.summary, insert: "\($0.name): ") }
            }
            // (Not when the name's value is the parameters' own mapping.)
            return value.isEmpty || value.hasPrefix("{") || value.hasPrefix("#") ? items : items + parameterKeys(of: name, primary: false)
        }
        return parameterKeys(of: name, primary: true)
    }

    /// The parameters of the action `name` as keys; its primary one only when `primary` (beside
    /// the name, the primary parameter is the name's value).
    private func parameterKeys(of name: String, primary: Bool) -> [Value] {
        guard let action = registry.action(named: name) else { return [] }
        return action.parameters.enumerated().compactMap { index, parameter in
            guard primary || index != action.primaryIndex, !parameter.isInput || primary else { return nil }
            return item(parameter.name, kind: .field, detail: "\(parameter.typeDescription)\(parameter.isRequired ? ", required" : "") — \(parameter.summary)", insert: "\(parameter.name): ")
        }
    }

    /// `- NAME: { key: value, ke|`: the parameters of NAME, when the cursor is where a key of
    /// that mapping goes.
    private func flowParameters(_ rest: Substring) -> [Value]? {
        guard rest.hasPrefix("- ") else { return nil }
        let name = rest.dropFirst(2).prefix(while: Self.isNameCharacter)
        let after = rest.dropFirst(2 + name.count)
        guard !name.isEmpty, after.hasPrefix(":"), let open = after.firstIndex(of: "{") else { return nil }
        var depth = 0, keyPlace = false
        for character in after[open...] {
            switch character {
            case "{", "[": depth += 1; keyPlace = depth == 1
            case "}", "]": depth -= 1; keyPlace = false
            case ",": keyPlace = depth == 1
            case ":": keyPlace = false
            case " ": break
            default: if !Self.isNameCharacter(character) { keyPlace = false }
            }
        }
        guard depth == 1, keyPlace else { return nil }
        return parameterKeys(of: String(name), primary: true)
    }

    /// A parameter's choices, or true and false.
    private func values(of key: String, keyIndent: Int, line: Int) -> [Value] {
        var parameter: ParameterDefinition?
        if let action = registry.action(named: key), let primary = action.primaryIndex {
            // `- change-case: u|`: the action's primary parameter.
            parameter = action.parameters[primary]
        } else if let (name, column, _) = enclosingStep(above: line + 1, indent: keyIndent), column < keyIndent, let action = registry.action(named: name) {
            parameter = action.parameters.first { $0.name == key }
        }
        guard let parameter else { return [] }
        if !parameter.choices.isEmpty {
            return parameter.choices.map { choice in
                item(choice, kind: .enumMember, detail: parameter.choiceTitles[choice] ?? parameter.summary, insert: choice)
            }
        }
        if parameter.type == .boolean { return ["true", "false"].map { item($0, kind: .keyword, detail: parameter.summary, insert: $0) } }
        return []
    }

    /// Inside `${`: the variables set before the line, Relay's own, and the secrets declared.
    private func variableCompletions(prefix: String, line: Int) -> [Value]? {
        guard let open = prefix.range(of: "${", options: .backwards), !prefix[open.upperBound...].contains("}") else { return nil }
        let typed = prefix[open.upperBound...]
        guard typed.allSatisfy({ Self.isNameCharacter($0) || $0 == "_" || $0 == "." }) else { return [] }
        if typed.hasPrefix("secrets.") {
            return declaredSecrets().map { item($0, kind: .variable, detail: "a secret (its value is never shown)", insert: $0) }
        }
        // `${files.`: the properties of what the check knows `files` to be.
        if typed.contains(".") {
            let path = typed.split(separator: ".", omittingEmptySubsequences: false).dropLast().map(String.init)
            return (typings?.properties(of: path, on: line + 1) ?? []).map { property in
                item(property.name, kind: .property, detail: property.type?.described ?? "known when it runs", insert: property.name)
            }
        }
        var names: [String] = [], seen: Set<String> = []
        for number in 0..<min(line + 1, text.lineCount) {
            for name in definedNames(on: text.line(number)) where seen.insert(name).inserted { names.append(name) }
        }
        var items = names.map { name in
            let detail = typings?.typing(of: [name], on: line + 1).map { "\($0.described), set on line \($0.line)" } ?? "set in this workflow"
            return item(name, kind: .variable, detail: detail, insert: name)
        }
        items += ["previous", "input", "index", "item", "error", "trigger", "secrets"].map { item($0, kind: .variable, detail: "Relay's own", insert: $0) }
        return items
    }

    /// The names `line` sets: `as: NAME`, or `set: { NAME: … }` / `set: NAME`.
    private func definedNames(on line: Substring) -> [String] {
        let trimmed = line.drop { $0 == " " || $0 == "-" }
        for key in ["as:", "set:"] where trimmed.hasPrefix(key) {
            let value = trimmed.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
            if key == "as:" { return Self.isVariableName(value) ? [value] : [] }
            guard value.hasPrefix("{") else { return [] }
            return value.dropFirst().split(separator: ",").compactMap { pair in
                let name = pair.split(separator: ":").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                return Self.isVariableName(name) ? name : nil
            }
        }
        return []
    }

    /// The names under `secrets:` at the top of the document: `secrets: [A, B]`, or a list or
    /// mapping below it.
    private func declaredSecrets() -> [String] {
        var names: [String] = [], inside = false
        for number in 0..<text.lineCount {
            let line = text.line(number)
            if line.hasPrefix("secrets:") {
                let written = line.dropFirst("secrets:".count).trimmingCharacters(in: .whitespaces)
                guard written.hasPrefix("[") else { inside = true; continue }
                return written.dropFirst().prefix { $0 != "]" }.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"'")) }.filter { !$0.isEmpty }
            }
            guard inside else { continue }
            if let first = line.first, first != " ", first != "-" { break }
            let name = line.drop { $0 == " " || $0 == "-" }.prefix { Self.isNameCharacter($0) || $0 == "_" }
            if !name.isEmpty { names.append(String(name)) }
        }
        return names
    }

    /// The name and key column of the step whose mapping holds a key at `indent` on `line`: the
    /// nearest line above with `- NAME` (or `NAME:` alone) whose name stands at or left of it;
    /// and what is written after `NAME:` on that line.
    private func enclosingStep(above line: Int, indent: Int) -> (name: String, column: Int, value: String)? {
        var number = line - 1
        while number >= 0 {
            let text = self.text.line(number)
            number -= 1
            let lineIndent = text.prefix { $0 == " " }.count
            let rest = text.dropFirst(lineIndent)
            if rest.isEmpty || rest.hasPrefix("#") { continue }
            if rest.hasPrefix("- ") {
                let column = lineIndent + 2
                let name = rest.dropFirst(2).prefix(while: Self.isNameCharacter)
                if column <= indent, !name.isEmpty { return (String(name), column, Self.value(after: name, in: rest)) }
                if column <= indent { return nil }
            } else if lineIndent < indent {
                // A key of the step written on a line of its own (`save-file:` after `- as: x`).
                let name = rest.prefix(while: Self.isNameCharacter)
                if !name.isEmpty, rest.dropFirst(name.count).hasPrefix(":"), registry.action(named: String(name)) != nil || ControlGrammar.step(String(name)) != nil {
                    return (String(name), lineIndent, Self.value(after: name, in: rest))
                }
                if lineIndent == 0 { return nil }
            }
        }
        return nil
    }

    /// Inside a `find`'s or `find-files`' `where:`: the properties of what is filtered as keys,
    /// the comparators that fit a property's type inside its own mapping, and an enum property's
    /// cases as its value. Nil when the place is not in a `where:`.
    private func filterCompletions(prefix: String, line: Int) -> [Value]? {
        guard let (keys, value) = filterPlace(prefix: prefix, line: line),
            let (name, column, _) = enclosingStep(above: line + 1, indent: Int.max), let validation = filterValidation(step: name, column: column, line: line)
        else { return nil }
        switch keys.count {
        case 0 where !value:
            return validation.properties.map { property in
                item(property.name, kind: .property, detail: property.type.withArticle, insert: "\(property.name): ")
            }
        case 1 where !value:
            guard let type = validation.properties.first(where: { $0.name == keys[0] })?.type else { return [] }
            return Comparator.allowed(for: type).map { item($0.name, kind: .keyword, detail: "compares \(type.withArticle)", insert: "\($0.name): ") }
        case 1, 2:
            // `genre: Myst|` or `genre: { is: Myst|`: the property's cases, when it has some.
            let titles = validation.caseTitles[keys[0]] ?? [:]
            return (validation.cases[keys[0]] ?? []).map { item($0, kind: .enumMember, detail: titles[$0] ?? "a case of '\(keys[0])'", insert: $0) }
        default:
            return []
        }
    }

    /// Where `prefix` (of `line`) is in a `where:` clause: the keys of the mappings it is in
    /// (none: a property's place; one: that property's own mapping), then the key whose value is
    /// being written, if one is. Nil when it is not in a `where:`.
    private func filterPlace(prefix: String, line: Int) -> (keys: [String], value: Bool)? {
        // Written in flow style on the line: `where: { genre: { is: x`.
        if let clause = prefix.range(of: "where:", options: .backwards) {
            // The key each open mapping is the value of (the first is `where:` itself).
            var open: [String] = [], word = "", key = "", value = false
            for character in prefix[clause.upperBound...] {
                switch character {
                case "{": open.append(key); value = false; word = ""
                case "}": if !open.isEmpty { open.removeLast() }; value = true; word = ""
                case ",": value = false; word = ""
                case ":": key = word.trimmingCharacters(in: .whitespaces); value = true; word = ""
                default: word.append(character)
                }
            }
            guard !open.isEmpty else { return nil }
            return (Array(open.dropFirst()) + (value ? [key] : []), value)
        }
        // Written as blocks: `where:` alone on a line above, less indented.
        let indent = prefix.prefix { $0 == " " }.count
        let rest = prefix.dropFirst(indent)
        var keys: [String] = []
        let value = rest.contains(":")
        if value { keys.append(String(rest.prefix { $0 != ":" })) }
        var current = indent, number = line - 1
        while number >= 0, current > 0 {
            let above = text.line(number)
            number -= 1
            let aboveIndent = above.prefix { $0 == " " }.count
            let written = above.dropFirst(aboveIndent)
            guard aboveIndent < current, !written.isEmpty, !written.hasPrefix("#") else { continue }
            current = aboveIndent
            let key = written.prefix(while: Self.isNameCharacter)
            guard !key.isEmpty, written.dropFirst(key.count).hasPrefix(":") else { return nil }
            if key == "where" { return written.dropFirst(key.count + 1).allSatisfy(\.isWhitespace) ? (keys, value) : nil }
            keys.insert(String(key), at: 0)
            guard keys.count <= 2 else { return nil }
        }
        return nil
    }

    /// What a `find` (of the entity type it names) or `find-files` step filters by.
    private func filterValidation(step name: String, column: Int, line: Int) -> FilterValidation? {
        guard let action = registry.action(named: name) else { return nil }
        switch action.name {
        case "find-files": return .files
        case "find":
            // The type is `find: TYPE` on the step's line, or `type: TYPE` among its parameters.
            for number in stride(from: line, through: 0, by: -1) {
                let written = text.line(number)
                for key in ["\(name):", "type:"] {
                    guard let found = written.range(of: key) else { continue }
                    let typeName = written[found.upperBound...].trimmingCharacters(in: .whitespaces)
                    if let descriptor = registry.entityTypes.descriptor(named: typeName) { return FilterValidation(entityType: descriptor) }
                }
                if written.dropFirst(max(0, column - 2)).hasPrefix("- ") { break }
            }
            return nil
        default:
            return nil
        }
    }

    /// What follows `NAME:` in `rest` (`- NAME: value`), trimmed.
    private static func value(after name: Substring, in rest: Substring) -> String {
        let after = rest.drop { $0 == "-" || $0 == " " }.dropFirst(name.count)
        return after.hasPrefix(":") ? after.dropFirst().trimmingCharacters(in: .whitespaces) : ""
    }

    // MARK: Hover

    /// What the word at `line`, `character` is: an action's `relay describe`, a control step's or
    /// a modifier's.
    func hover(line: Int, character: Int) -> String? {
        if let path = expressionPath(line: line, character: character) { return describeExpression(path, line: line) }
        guard let word = word(line: line, character: character) else { return nil }
        if let action = registry.action(named: word) { return ActionCatalog.describe(action) }
        return ControlGrammar.describe(word)
    }

    /// The variable and properties written inside `${…}` up to the word at the place:
    /// `${files.count}` at `count` is `["files", "count"]`.
    private func expressionPath(line: Int, character: Int) -> [String]? {
        guard let (whole, span) = span(line: line, character: character, back: Self.isChainCharacter),
            let open = whole[..<span.lowerBound].range(of: "${", options: .backwards), !whole[open.upperBound..<span.lowerBound].contains("}")
        else { return nil }
        let path = whole[span].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = path.first, Self.isVariableName(first), !path.contains(where: \.isEmpty) else { return nil }
        return path
    }

    /// A variable's type and where it is set, a property's type, a secret's name.
    private func describeExpression(_ path: [String], line: Int) -> String {
        let written = path.joined(separator: ".")
        if path.first == "secrets" {
            return path.count == 2 ? "\(written): the secret '\(path[1])' — its value is never shown, and is masked wherever it appears\n" : "secrets: the secrets the workflow declares\n"
        }
        if let typing = typings?.typing(of: path, on: line + 1) {
            return path.count == 1 ? "\(written): \(typing.described), set on line \(typing.line)\n" : "\(written): \(typing.described)\n"
        }
        if path.count == 1, let found = definition(ofVariable: path[0]) {
            return "\(written): set on line \(found.line + 1); its type is known when it runs\n"
        }
        return "\(written): its type is known when it runs\n"
    }

    private func word(line: Int, character: Int) -> String? {
        span(line: line, character: character, back: Self.isNameCharacter).map { String($0.line[$0.span]) }
    }

    /// The characters around the place on its line: back over those `back` takes, on over name
    /// characters; nil when there are none.
    private func span(line: Int, character: Int, back: (Character) -> Bool) -> (line: Substring, span: Range<String.Index>)? {
        guard let cursor = text.index(line: line, character: character) else { return nil }
        let whole = text.line(line)
        guard cursor >= whole.startIndex, cursor <= whole.endIndex else { return nil }
        var start = cursor, end = cursor
        while start > whole.startIndex, back(whole[whole.index(before: start)]) { start = whole.index(before: start) }
        while end < whole.endIndex, Self.isNameCharacter(whole[end]) { end = whole.index(after: end) }
        return start < end ? (whole, start..<end) : nil
    }

    // MARK: Symbols

    /// The workflow's steps as a tree for the editor's outline: each step by its label or name
    /// (and the variable it keeps its output in), a control step's branches under it. Nothing
    /// when the text does not parse.
    func symbols(in file: SourceFile) -> [Value] {
        guard let workflow = WorkflowParser.parse(file, entityTypes: registry.entityTypes).workflow else { return [] }
        return workflow.steps.map { symbol(of: $0, file: file) }
    }

    private func symbol(of step: Step, file: SourceFile) -> Value {
        var children: [Value] = []
        func branch(_ name: String, _ steps: [Step]) {
            guard let first = steps.first, let last = steps.last else { return }
            let range = SourceRange(file: file, start: first.range.start, end: last.range.end)
            children.append(symbol(name, kind: 2, detail: nil, range: range, selection: first.keyRange, file: file, children: steps.map { symbol(of: $0, file: file) }))
        }
        switch step.kind {
        case .conditional(let conditional):
            branch("then", conditional.then)
            branch("else", conditional.otherwise ?? [])
        case .menu(let menu):
            for option in menu.options { branch(option.label.text, option.body) }
        case .match(let match):
            for option in match.cases { branch(option.label.text, option.body) }
            branch("default", match.otherwise ?? [])
        default:
            for block in step.blocks { children += block.map { symbol(of: $0, file: file) } }
        }
        let isAction = if case .action = step.kind { true } else { false }
        let name = step.modifiers.label ?? step.keyword
        return symbol(name, kind: isAction ? 12 : 2, detail: step.modifiers.outputVariable.map { "as \($0.text)" }, range: step.range, selection: step.keyRange, file: file, children: children)
    }

    private func symbol(_ name: String, kind: Int, detail: String?, range: SourceRange, selection: SourceRange, file: SourceFile, children: [Value]) -> Value {
        let whole = text.range(of: range, in: file), chosen = text.range(of: selection, in: file)
        func place(_ place: (line: Int, character: Int)) -> Value { ["line": .number(Double(place.line)), "character": .number(Double(place.character))] }
        // The name's range lies within the whole's, as the protocol asks.
        var fields: ValueDictionary = [
            "name": .text(name.isEmpty ? "step" : name), "kind": .number(Double(kind)),
            "range": ["start": place(whole.start), "end": place(whole.end)],
            "selectionRange": ["start": place(chosen.start), "end": place(chosen.start < whole.end ? chosen.end : chosen.start)],
            "children": .list(children),
        ]
        if let detail { fields["detail"] = .text(detail) }
        return .dictionary(fields)
    }

    // MARK: Definition

    /// Where the variable named at `line`, `character` is set: the first `as: NAME` or `set:` of
    /// it, as the protocol's line and the characters its name spans.
    func definition(line: Int, character: Int) -> (line: Int, start: Int, end: Int)? {
        guard let name = word(line: line, character: character), Self.isVariableName(name) else { return nil }
        return definition(ofVariable: name)
    }

    /// The file named at `line`, `character`, when there is one: a `run-workflow`'s workflow, or
    /// the `Package.swift` of a `packages:` entry — relative to the workflow's folder, as a run
    /// takes them.
    func namedFile(line: Int, character: Int, documentPath: String) -> String? {
        guard let cursor = text.index(line: line, character: character) else { return nil }
        let whole = text.line(line)
        let trimmed = whole.drop { $0 == " " || $0 == "-" }
        var written: Substring?
        var isPackage = false
        if trimmed.hasPrefix("run-workflow:") {
            written = trimmed.dropFirst("run-workflow:".count)
        } else if trimmed.hasPrefix("path:"), enclosingStep(above: line, indent: whole.prefix { $0 == " " }.count)?.name == "run-workflow" {
            written = trimmed.dropFirst("path:".count)
        } else if trimmed.hasPrefix("packages:") {
            // `packages: [a, b]`: the entry under the cursor.
            let list = trimmed.dropFirst("packages:".count)
            isPackage = true
            written = list.split(separator: ",", omittingEmptySubsequences: false).first { $0.endIndex >= cursor && $0.startIndex <= cursor }
        } else if whole.drop(while: { $0 == " " }).hasPrefix("- "), whole.first == " " {
            // `  - ./Kit` in a block list under `packages:`.
            var number = line - 1
            while number >= 0, let first = text.line(number).first, first == " " || text.line(number).isEmpty { number -= 1 }
            if number >= 0, text.line(number).hasPrefix("packages:") {
                isPackage = true
                written = trimmed
            }
        }
        guard let written else { return nil }
        let entry = written.trimmingCharacters(in: CharacterSet(charactersIn: " []\"'"))
        guard !entry.isEmpty, !entry.contains("${") else { return nil }
        let path = WorkflowLoader.packagePath(entry, in: documentPath)
        let target = isPackage ? path + "/Package.swift" : path
        // Only a regular file, as a run reads one: not a device or a FIFO an editor would hang
        // on, nor the system's own files under /proc and /sys (where a link may lead, too).
        var info = stat()
        let resolved = ResolvedPath.resolve(target)
        guard stat(target, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            !["/proc", "/sys", "/dev"].contains(where: { ResolvedPath.path(resolved, isWithin: $0) })
        else { return nil }
        return target
    }

    /// Where the variable `name` is first set.
    private func definition(ofVariable name: String) -> (line: Int, start: Int, end: Int)? {
        for number in 0..<text.lineCount where definedNames(on: text.line(number)).contains(name) {
            let whole = text.line(number)
            // The name after the key (`as: name`, `set: { name: … }`).
            guard let key = whole.range(of: "as:") ?? whole.range(of: "set:"), let found = whole[key.upperBound...].range(of: name) else { continue }
            return (number, text.position(of: found.lowerBound).character, text.position(of: found.upperBound).character)
        }
        return nil
    }

    // MARK: Quick fixes

    /// For each diagnostic that says "did you mean 'X'?": an edit that writes X in place of the
    /// word it names, within the diagnostic's range.
    func quickFixes(uri: String, diagnostics: [Value]) -> [Value] {
        // The diagnostics a quick fix is for are the server's: a word's range on one line, a
        // message of a few quoted words. Others (an editor's own, or made up) are passed over.
        diagnostics.prefix(100).compactMap { diagnostic in
            guard case .dictionary(let fields) = diagnostic, case .text(let message)? = fields["message"], message.utf8.count <= 4_096,
                let meant = message.range(of: "did you mean '").map({ message[$0.upperBound...].prefix { $0 != "'" } }),
                let range = fields["range"], let start = place(range, "start"), let end = place(range, "end"), start <= end,
                text.text.utf8.distance(from: start, to: end) <= Self.longestLine
            else { return nil }
            let quoted = Self.quoted(in: message).filter { $0 != meant && !$0.isEmpty }.prefix(16)
            let within = text.text[start..<end]
            guard let wrong = quoted.first(where: { within.contains($0) }), let found = within.range(of: wrong) else { return nil }
            let (from, to) = (text.position(of: found.lowerBound), text.position(of: found.upperBound))
            let edit: Value = [
                "range": ["start": ["line": .number(Double(from.line)), "character": .number(Double(from.character))],
                          "end": ["line": .number(Double(to.line)), "character": .number(Double(to.character))]],
                "newText": .text(String(meant)),
            ]
            return [
                "title": .text("Change '\(wrong)' to '\(meant)'"), "kind": "quickfix", "diagnostics": [diagnostic], "isPreferred": true,
                "edit": ["changes": .dictionary([uri: [edit]])],
            ]
        }
    }

    /// "Add the grants this workflow needs": a `permissions:` block, written before `steps:`,
    /// with what `relay check --permissions` finds the steps need (Docs/Security.md). Nil when the
    /// workflow does not check, already has the block, or needs nothing that can be named before
    /// the run (what the run decides is asked then, block or not).
    func grantsFix(uri: String, workflow: CheckedWorkflow?, path: String) -> Value? {
        guard let workflow, let steps = (0..<text.lineCount).first(where: { text.line($0).hasPrefix("steps:") }),
            !(0..<text.lineCount).contains(where: { text.line($0).hasPrefix("permissions:") })
        else { return nil }
        let report = PermissionReport(workflow, entityTypes: registry.entityTypes)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
        var lines: [String] = []
        for capability in Capability.allCases {
            var entries: [String] = []
            for need in report.needs where need.capability == capability {
                guard let target = need.target else { continue }
                let entry: String
                switch capability {
                case .open: entry = String(target.prefix { $0 != ":" })
                case .net, .run: entry = target
                default: entry = target == folder ? "." : target.hasPrefix(folder + "/") ? "." + target.dropFirst(folder.count) : ResolvedPath.abbreviated(target)
                }
                if !entries.contains(entry) { entries.append(entry) }
            }
            if !entries.isEmpty { lines.append("  \(capability.rawValue): [\(entries.map(Self.flowScalar).joined(separator: ", "))]") }
        }
        guard !lines.isEmpty else { return nil }
        let at: Value = ["line": .number(Double(steps)), "character": 0]
        // Lines end as the file's do.
        let lineEnd = text.text.contains("\r\n") ? "\r\n" : "\n"
        let edit: Value = ["range": ["start": at, "end": at], "newText": .text((["permissions:"] + lines).joined(separator: lineEnd) + lineEnd)]
        return ["title": "Add the grants this workflow needs", "kind": "quickfix", "edit": ["changes": .dictionary([uri: [edit]])]]
    }

    /// `text` as an item of a YAML flow list: bare when it reads back as itself, else quoted.
    private static func flowScalar(_ text: String) -> String {
        let plain = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_./~@+-".contains($0)) }
            && !["true", "false", "null", "~", "yes", "no"].contains(text.lowercased()) && Double(text) == nil
        return plain ? text : JSONWriter.string(for: .text(text), pretty: false)
    }

    private func place(_ range: Value, _ key: String) -> String.Index? {
        guard case .dictionary(let fields) = range, case .dictionary(let place)? = fields[key],
            case .number(let line)? = place["line"], case .number(let character)? = place["character"],
            let line = Int(exactly: line), let character = Int(exactly: character)
        else { return nil }
        return text.index(line: line, character: character)
    }

    private static func quoted(in message: String) -> [String] {
        message.split(separator: "'", omittingEmptySubsequences: false).enumerated().compactMap { $0.offset % 2 == 1 ? String($0.element) : nil }
    }

    // MARK: Shared

    private func item(_ label: String, kind: Kind, detail: String, insert: String, snippet: Bool = false) -> Value {
        var fields: ValueDictionary = ["label": .text(label), "kind": .number(Double(kind.rawValue)), "detail": .text(detail), "insertText": .text(insert)]
        if snippet { fields["insertTextFormat"] = 2 }
        return .dictionary(fields)
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_")
    }

    /// The longest line, in bytes, whose completions are worked out.
    static let longestLine = 16 << 10

    private static func isChainCharacter(_ character: Character) -> Bool {
        isNameCharacter(character) || character == "."
    }

    private static func isVariableName(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}
