import RelayKit

/// Reads a workflow's YAML tree into a `Workflow`, reporting every structural problem it finds
/// (unknown keys, wrong shapes) rather than stopping at the first. Names of actions are not
/// resolved here: that is the checker's job.
public struct WorkflowParser {
    public static let topLevelKeys = ["name", "description", "input", "output", "packages", "permissions", "secrets", "variables", "timeout", "on", "steps"]
    static let modifierKeys = ControlGrammar.modifierNames
    static let controlKeys = ControlGrammar.keywords

    let file: SourceFile
    /// The entity types `input:` and `output:` may name besides the built-in types.
    private let entityTypes: EntityCatalog
    private var diagnostics: [Diagnostic] = []
    /// How many blocks of steps the parser is inside.
    private var blockDepth = 0

    /// Parses `file`; `input:` and `output:` may name the types of `entityTypes`. The workflow is nil
    /// only when the file is not a usable YAML mapping.
    public static func parse(_ file: SourceFile, entityTypes: EntityCatalog = EntityCatalog()) -> (workflow: Workflow?, diagnostics: [Diagnostic]) {
        let root: YAMLNode
        do {
            root = try YAMLParser.parse(file)
        } catch {
            return (nil, [error])
        }
        var parser = WorkflowParser(file: file, entityTypes: entityTypes)
        let workflow = parser.workflow(from: root)
        return (workflow, parser.diagnostics)
    }

    private init(file: SourceFile, entityTypes: EntityCatalog) {
        self.file = file
        self.entityTypes = entityTypes
    }

    mutating func report(_ message: String, at range: SourceRange, notes: [String] = []) {
        diagnostics.append(.error(message, at: range, notes: notes))
    }

    private mutating func attempt<T>(_ body: () throws(Diagnostic) -> T) -> T? {
        do {
            return try body()
        } catch {
            diagnostics.append(error)
            return nil
        }
    }

    // MARK: - Top level

    private mutating func workflow(from root: YAMLNode) -> Workflow? {
        guard case .mapping(let pairs) = root.kind else {
            report("a workflow file is a mapping with a 'steps:' list, not \(root.shapeDescription)", at: root.range)
            return nil
        }
        var workflow = Workflow(
            file: file, name: nil, summary: nil, input: nil, output: nil, packages: [], variables: [], steps: [],
            range: root.range)
        var sawSteps = false
        var suggestedSteps = false
        var seen = Set<String>()
        for pair in pairs {
            guard let key = attempt({ () throws(Diagnostic) in try TemplateParser.scalarKey(pair.key) }) else { continue }
            guard seen.insert(key).inserted else {
                report("duplicate key '\(key)'", at: pair.key.range)
                continue
            }
            switch key {
            case "name": workflow.name = text(pair.value, for: "name")
            case "description": workflow.summary = text(pair.value, for: "description")
            case "input": workflow.input = inputDeclaration(pair.value)
            case "output": workflow.output = typeAnnotation(pair.value)
            case "packages": workflow.packages = packages(pair.value)
            case "permissions": (workflow.permissions, workflow.secretPins) = permissions(pair.value)
            case "secrets": workflow.secrets = secretNames(pair.value)
            case "variables": (workflow.variables, workflow.variableTypes) = variables(pair.value)
            case "timeout": workflow.timeout = runTimeout(pair.value)
            case "on": workflow.triggers = triggers(pair.value)
            case "steps":
                sawSteps = true
                workflow.range = pair.key.range
                workflow.steps = steps(pair.value, in: "steps")
            default:
                suggestedSteps = suggestedSteps || Suggestions.closest(to: key, in: Self.topLevelKeys) == "steps"
                report(
                    "unknown top-level key '\(key)'\(Suggestions.didYouMean(key, in: Self.topLevelKeys))",
                    at: pair.key.range,
                    notes: ["note: the top-level keys are \(Self.topLevelKeys.joined(separator: ", "))"])
            }
        }
        if !sawSteps && !suggestedSteps {
            report("a workflow needs a 'steps:' list", at: root.range)
        }
        return workflow
    }

    private mutating func text(_ node: YAMLNode, for key: String) -> String? {
        guard let text = node.scalarText else {
            report("'\(key)' takes text, not \(node.shapeDescription)", at: node.range)
            return nil
        }
        return text
    }

    /// Whether `name` names a type (a built-in one, or an entity type of the loaded packages).
    private func isTypeName(_ name: String) -> Bool {
        ValueType(name: name) != nil || entityTypes.descriptor(named: name) != nil
    }

    private mutating func typeAnnotation(_ node: YAMLNode) -> TypeAnnotation? {
        guard let name = node.scalarText else {
            report("a type is a name such as text or number, not \(node.shapeDescription)", at: node.range)
            return nil
        }
        if let entityType = entityTypes.descriptor(named: name) {
            return TypeAnnotation(type: .entity(entityType.name.singular), range: node.range)
        }
        guard let type = ValueType(name: name) else {
            let names = ValueType.builtIn.map(\.name) + entityTypes.descriptors.map(\.name.singular)
            let spellings = names + ["string", "bool", "int", "integer", "double", "array", "dict", "object"]
            report("unknown type '\(name)'\(Suggestions.didYouMean(name, in: spellings))", at: node.range,
                notes: ["note: the types are \(names.joined(separator: ", "))"])
            return nil
        }
        return TypeAnnotation(type: type, range: node.range)
    }

    private mutating func inputDeclaration(_ node: YAMLNode, of what: String = "'input'") -> InputDeclaration? {
        guard case .mapping(let pairs) = node.kind else {
            return typeAnnotation(node).map { InputDeclaration(type: $0, defaultValue: nil, summary: nil) }
        }
        var type: TypeAnnotation?
        var defaultValue: Template?
        var summary: String?
        for pair in pairs {
            guard let key = pair.key.scalarText else { continue }
            switch key {
            case "type": type = typeAnnotation(pair.value)
            case "default": defaultValue = attempt { () throws(Diagnostic) in try TemplateParser.template(from: pair.value) }
            case "description": summary = text(pair.value, for: "description")
            default:
                report("unknown key '\(key)' in \(what)\(Suggestions.didYouMean(key, in: ["type", "default", "description"]))",
                    at: pair.key.range, notes: ["note: \(what) takes type, default and description"])
            }
        }
        return InputDeclaration(
            type: type ?? TypeAnnotation(type: .any, range: node.range), defaultValue: defaultValue, summary: summary)
    }

    private mutating func packages(_ node: YAMLNode) -> [Name] {
        let items: [YAMLNode]
        if case .sequence(let list) = node.kind { items = list } else { items = [node] }
        return items.compactMap { item in
            guard let path = item.scalarText, !path.isEmpty else {
                report("a package is a path to a Swift package folder", at: item.range)
                return nil
            }
            return Name(text: path, range: item.range)
        }
    }

    /// `permissions:` (Docs/Security.md, "Declaring what a workflow expects"): a mapping of
    /// capabilities to lists of paths (`read`, `write`, `packages`), hosts (`net`), URLs (`open`)
    /// or commands (`run`).
    private mutating func permissions(_ node: YAMLNode) -> ([Capability: [Name]]?, [SecretPin]) {
        let names = Capability.allCases.map(\.rawValue) + ["secrets"]
        guard case .mapping(let pairs) = node.kind else {
            report("'permissions' takes a mapping of capabilities to lists, e.g. { read: [~/Pictures], net: [api.example.com] }", at: node.range)
            return (nil, [])
        }
        var declared: [Capability: [Name]] = [:]
        var pins: [SecretPin]?
        for pair in pairs {
            guard let key = attempt({ () throws(Diagnostic) in try TemplateParser.scalarKey(pair.key) }) else { continue }
            if key == "secrets" {
                if pins != nil { report("duplicate key 'secrets' in 'permissions'", at: pair.key.range) }
                pins = secretPins(pair.value)
                continue
            }
            guard let capability = Capability(rawValue: key) else {
                report(
                    "unknown capability '\(key)' in 'permissions'\(Suggestions.didYouMean(key, in: names))", at: pair.key.range,
                    notes: ["note: the capabilities are \(names.joined(separator: ", "))"])
                continue
            }
            guard declared[capability] == nil else {
                report("duplicate capability '\(key)' in 'permissions'", at: pair.key.range)
                continue
            }
            guard let items = Self.listItems(pair.value) else {
                report("'\(key)' in 'permissions' takes a list, e.g. \(key): [\(Self.permissionExample(capability))]", at: pair.value.range)
                continue
            }
            declared[capability] = items.compactMap { item in
                guard let text = item.scalarText, let problem = Access.entryProblem(text, for: capability) else {
                    return item.scalarText.map { Name(text: $0, range: item.range) }
                }
                report("'\(key)' in 'permissions': \(problem)", at: item.range)
                return nil
            }
            if items.contains(where: { $0.scalarText == nil }) {
                report("'\(key)' in 'permissions' takes a list of texts, e.g. \(key): [\(Self.permissionExample(capability))]", at: pair.value.range)
            }
        }
        return (declared, pins ?? [])
    }

    /// `secrets:` at the top: a list of names, each a plain word (it is read as `${secrets.NAME}`).
    private mutating func secretNames(_ node: YAMLNode) -> [Name] {
        guard let items = Self.listItems(node) else {
            report("'secrets' takes a list of names, e.g. secrets: [GITHUB_TOKEN]", at: node.range)
            return []
        }
        var names: [Name] = []
        for item in items {
            guard let text = item.scalarText, Self.isIdentifier(text) else {
                report(
                    "a secret's name is a plain word (letters, digits and _, as in GITHUB_TOKEN), not \(item.scalarText.map { "'\($0)'" } ?? item.shapeDescription)",
                    at: item.range)
                continue
            }
            if names.contains(where: { $0.text == text }) {
                report("the secret '\(text)' is named twice in 'secrets'", at: item.range)
                continue
            }
            names.append(Name(text: text, range: item.range))
        }
        return names
    }

    /// `secrets:` in `permissions:`: each secret's name and where what is made from it may go —
    /// a list of hosts, or `{ net: [hosts], write: [folders], run: [programs] }`.
    private mutating func secretPins(_ node: YAMLNode) -> [SecretPin] {
        let example = "secrets: { GITHUB_TOKEN: [api.github.com] }"
        guard case .mapping(let pairs) = node.kind else {
            report("'secrets' in 'permissions' takes a mapping of secret names to hosts, e.g. \(example)", at: node.range)
            return []
        }
        var pins: [SecretPin] = []
        for pair in pairs {
            guard let name = pair.key.scalarText else {
                report("a secret's name is a plain word, not \(pair.key.shapeDescription)", at: pair.key.range)
                continue
            }
            var pin = SecretPin(name: Name(text: name, range: pair.key.range), hosts: [])
            if case .mapping(let places) = pair.value.kind {
                let keys: [(String, Capability)] = [("net", .net), ("write", .write), ("run", .run)]
                for place in places {
                    guard let key = place.key.scalarText, let capability = keys.first(where: { $0.0 == key })?.1 else {
                        let key = place.key.scalarText ?? place.key.shapeDescription
                        report(
                            "the secret '\(name)' in 'permissions' may go to 'net', 'write' or 'run', not '\(key)'"
                                + Suggestions.didYouMean(key, in: keys.map(\.0)), at: place.key.range)
                        continue
                    }
                    let entries = pinEntries(place.value, of: name, for: capability)
                    switch capability {
                    case .net: pin.hosts += entries
                    case .write: pin.folders += entries
                    default: pin.programs += entries
                    }
                }
            } else {
                pin.hosts = pinEntries(pair.value, of: name, for: .net)
            }
            pins.append(pin)
        }
        return pins
    }

    /// The entries of one list in a secret's pin: hosts (as `net:` entries are written down),
    /// folders or programs, each checked as a `permissions:` entry of that kind is.
    private mutating func pinEntries(_ node: YAMLNode, of name: String, for capability: Capability) -> [Name] {
        let what = capability == .net ? "hosts" : capability == .write ? "folders" : "programs"
        let example = "secrets: { \(name): { net: [api.github.com], write: [~/reports], run: [jq] } }"
        guard let items = Self.listItems(node) else {
            report("the secret '\(name)' in 'permissions' takes a list of \(what), e.g. \(example)", at: node.range)
            return []
        }
        var entries: [Name] = []
        for item in items {
            guard let text = item.scalarText else {
                report("the secret '\(name)' in 'permissions' takes a list of \(what), e.g. \(example)", at: item.range)
                continue
            }
            if let problem = Access.entryProblem(text, for: capability) {
                report("the secret '\(name)' in 'permissions': \(problem)", at: item.range)
                continue
            }
            entries.append(Name(text: capability == .net ? Access.hostEntry(text) ?? text : text, range: item.range))
        }
        return entries
    }

    /// A list's items, or a single scalar as a list of one; nil for a mapping.
    static func listItems(_ node: YAMLNode) -> [YAMLNode]? {
        switch node.kind {
        case .sequence(let list): list
        case .scalar: [node]
        default: nil
        }
    }

    private static func permissionExample(_ capability: Capability) -> String {
        switch capability {
        case .read, .write: "~/Pictures"
        case .net: "api.example.com"
        case .open: "https://trails.example.com"
        case .run: "pdftotext"
        case .packages: "../TrailKit"
        }
    }

    /// `variables:`: each a value it starts with, or a declaration — a mapping of `type` (which
    /// it must have), `default` and `description`, and nothing else (Docs/Language.md, "A workflow
    /// file"); a mapping of other keys is a dictionary to start with.
    private mutating func variables(_ node: YAMLNode) -> ([Assignment], [String: InputDeclaration]) {
        guard case .mapping(let pairs) = node.kind else { return (assignments(node, in: "variables"), [:]) }
        var plain: [YAMLPair] = []
        var declared: [Assignment] = []
        var types: [String: InputDeclaration] = [:]
        for pair in pairs {
            // A declaration has a `type`: one that names a type, or alongside only the keys a
            // declaration takes (then a name that is no type is said to be one).
            guard case .mapping(let fields) = pair.value.kind, let type = fields.first(where: { $0.key.scalarText == "type" })?.value,
                type.scalarText.map(isTypeName) == true
                    || fields.allSatisfy({ ["type", "default", "description"].contains($0.key.scalarText ?? "") })
            else {
                plain.append(pair)
                continue
            }
            guard let name = variableName(pair.key), let declaration = inputDeclaration(pair.value, of: "variable '\(name.text)'") else { continue }
            types[name.text] = declaration
            if let defaultValue = declaration.defaultValue { declared.append(Assignment(name: name, value: defaultValue)) }
        }
        var rest = node
        rest.kind = .mapping(plain)
        let values = assignments(rest, in: "variables")
        return (values + declared, types)
    }

    private mutating func assignments(_ node: YAMLNode, in keyword: String) -> [Assignment] {
        guard case .mapping(let pairs) = node.kind else {
            report("'\(keyword)' takes a mapping of variable names to values, e.g. { total: 0 }", at: node.range)
            return []
        }
        var result: [Assignment] = []
        for pair in pairs {
            guard let name = variableName(pair.key),
                let value = attempt({ () throws(Diagnostic) in try TemplateParser.template(from: pair.value) })
            else { continue }
            result.append(Assignment(name: name, value: value))
        }
        return result
    }

    private mutating func variableName(_ node: YAMLNode) -> Name? {
        guard let text = node.scalarText else {
            report("a variable name is a plain word (letters, digits and _), not a list or a mapping", at: node.range)
            return nil
        }
        guard Self.isIdentifier(text) else {
            report("'\(text)' is not a variable name; use letters, digits and _, not starting with a digit", at: node.range)
            return nil
        }
        guard !ExpressionParser.reservedWords.contains(text) else {
            report("'\(text)' is a word of expressions (\(ExpressionParser.reservedWords.joined(separator: ", "))), so it cannot name a variable", at: node.range)
            return nil
        }
        return Name(text: text, range: node.range)
    }

    /// Whether `text` is a variable name: `[A-Za-z_][A-Za-z0-9_]*`.
    public static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic)
        else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }

    /// The workflow's `timeout:`: a number of seconds greater than 0, written literally.
    private mutating func runTimeout(_ node: YAMLNode) -> Double? {
        guard case .number(let seconds) = ScalarResolver.resolve(node), seconds > 0 else {
            report("'timeout' takes a number of seconds greater than 0", at: node.range)
            return nil
        }
        if let problem = Limits.durationProblem(seconds) {
            report("'timeout': \(problem)", at: node.range)
            return nil
        }
        return seconds
    }

    // MARK: - Steps

    private mutating func steps(_ node: YAMLNode, in context: String) -> [Step] {
        if node.isNull { return [] }
        guard case .sequence(let items) = node.kind else {
            report("'\(context)' takes a list of steps (each starting with '- '), not \(node.shapeDescription)", at: node.range)
            return []
        }
        blockDepth += 1
        defer { blockDepth -= 1 }
        guard blockDepth <= Limits.blockDepth else {
            report(
                "steps are nested more than \(Limits.blockDepth) blocks deep; move the inner steps into a workflow of their own (run-workflow)",
                at: node.range)
            return []
        }
        return items.compactMap { step($0) }
    }

    private mutating func step(_ node: YAMLNode) -> Step? {
        switch node.kind {
        case .scalar(let text, _):
            guard case .text = ScalarResolver.resolve(node), !text.isEmpty else {
                report("a step is an action name or a mapping, not '\(text)'", at: node.range)
                return nil
            }
            if text == "stop" {
                return Step(kind: .stop(nil), modifiers: StepModifiers(), range: node.range, keyRange: node.range)
            }
            if Self.controlKeys.contains(text) {
                report("'\(text)' is a control step: write it as a mapping, e.g. '- \(text): …' with its parts", at: node.range)
                return nil
            }
            let name = Name(text: text, range: node.range)
            return Step(
                kind: .action(ActionCall(name: name, arguments: .none)), modifiers: StepModifiers(), range: node.range,
                keyRange: node.range)
        case .sequence:
            report("a step is an action name or a mapping, not a list", at: node.range,
                notes: ["help: steps inside a block go under a key such as 'do:' or 'then:'"])
            return nil
        case .mapping(let pairs):
            return step(pairs, range: node.range)
        }
    }

    private mutating func step(_ pairs: [YAMLPair], range: SourceRange) -> Step? {
        var keyed: [(key: String, pair: YAMLPair)] = []
        var seen = Set<String>()
        for pair in pairs {
            guard let key = attempt({ () throws(Diagnostic) in try TemplateParser.scalarKey(pair.key) }) else { return nil }
            guard seen.insert(key).inserted else {
                report("duplicate key '\(key)'", at: pair.key.range)
                return nil
            }
            keyed.append((key, pair))
        }
        // The first key that is not a modifier decides what the step is (Docs/Language.md,
        // "Steps"): an action's parameters may share a name with a control keyword (`find: trail`
        // with `match: any`). A control step's own key written before its keyword (`then:` above
        // `if:`) still makes it that control step.
        if let first = keyed.first(where: { !Self.modifierKeys.contains($0.key) }) {
            let keyword = Self.controlKeys.contains(first.key)
                ? first.key
                : ControlGrammar.steps.first { step in
                    step.keyNames.contains(first.key) && keyed.contains { $0.key == step.keyword }
                }?.keyword
            if let keyword, let control = keyed.first(where: { $0.key == keyword }) {
                return controlStep(control.key, control.pair, keyed, range: range)
            }
        }
        let actionKeys = keyed.filter { !Self.modifierKeys.contains($0.key) }
        guard let action = actionKeys.first else {
            report("this step has no action, only modifiers (\(keyed.map(\.key).joined(separator: ", ")))", at: range)
            return nil
        }
        let takesSiblings = !action.pair.value.isNull && !action.pair.value.isMapping
        if actionKeys.count > 1, !takesSiblings {
            var notes: [String] = []
            let extra = actionKeys[1].key
            if action.pair.value.isNull {
                notes.append("help: to give '\(action.key)' parameters, indent them under it (or write \(action.key): { \(extra): … })")
            } else {
                notes.append("help: if '\(extra)' is a parameter of '\(action.key)', write them all in a mapping: \(action.key): { …, \(extra): … }")
            }
            report(
                "a step has exactly one action; found '\(actionKeys.map(\.key).joined(separator: "', '"))'",
                at: actionKeys[1].pair.key.range, notes: notes)
            return nil
        }
        let siblings = actionKeys.dropFirst()
        let kept = keyed.filter { entry in !siblings.contains { $0.key == entry.key } }
        guard let modifiers = modifiers(kept, allowed: Self.modifierKeys, stepName: action.key) else { return nil }
        guard var arguments = arguments(action.pair.value) else { return nil }
        if !siblings.isEmpty, case .primary(let primary) = arguments {
            var entries: [TemplateEntry] = []
            for sibling in siblings {
                guard let value = attempt({ () throws(Diagnostic) in try TemplateParser.template(from: sibling.pair.value) }) else {
                    return nil
                }
                entries.append(TemplateEntry(key: sibling.key, keyRange: sibling.pair.key.range, value: value))
            }
            arguments = .primaryWithSiblings(primary, siblings: entries)
        }
        let call = ActionCall(name: Name(text: action.key, range: action.pair.key.range), arguments: arguments)
        return Step(kind: .action(call), modifiers: modifiers, range: range, keyRange: action.pair.key.range)
    }

    private mutating func arguments(_ node: YAMLNode) -> Arguments? {
        if node.isNull { return Arguments.none }
        guard case .mapping = node.kind else {
            return attempt { () throws(Diagnostic) in .primary(try TemplateParser.template(from: node)) }
        }
        guard let template = attempt({ () throws(Diagnostic) in try TemplateParser.template(from: node) }) else {
            return nil
        }
        switch template.kind {
        case .dictionary(let entries): return .named(entries, range: node.range)
        case .literal(.dictionary(let values)):
            guard case .mapping(let pairs) = node.kind else { return nil }
            // Each value as its own template, which keeps where a list's items were written.
            let entries = zip(pairs, values).map { pair, entry in
                TemplateEntry(
                    key: entry.key, keyRange: pair.key.range,
                    value: (try? TemplateParser.template(from: pair.value)) ?? Template(.literal(entry.value), range: pair.value.range))
            }
            return .named(entries, range: node.range)
        default: return nil
        }
    }

    // MARK: - Modifiers

    private mutating func modifiers(
        _ keyed: [(key: String, pair: YAMLPair)], allowed: [String], stepName: String
    ) -> StepModifiers? {
        var modifiers = StepModifiers()
        var ok = true
        for (key, pair) in keyed where Self.modifierKeys.contains(key) {
            guard allowed.contains(key) else { continue }
            let value = pair.value
            switch key {
            case "as":
                if let name = variableName(value) { modifiers.outputVariable = name } else { ok = false }
            case "input":
                modifiers.input = attempt { () throws(Diagnostic) in try TemplateParser.template(from: value) }
            case "when":
                modifiers.condition = attempt { () throws(Diagnostic) in try TemplateParser.template(from: value) }
            case "timeout":
                modifiers.timeout = attempt { () throws(Diagnostic) in try TemplateParser.template(from: value) }
                if let literal = modifiers.timeout?.literalValue {
                    guard case .number(let seconds) = literal, seconds > 0 else {
                        report("'timeout' takes a number of seconds greater than 0", at: value.range)
                        ok = false
                        continue
                    }
                    if let problem = Limits.durationProblem(seconds) {
                        report("'timeout': \(problem)", at: value.range)
                        ok = false
                        continue
                    }
                }
            case "label":
                modifiers.label = text(value, for: "label")
            case "retry":
                switch RetryPolicy.parse(value) {
                case .success(let policy): modifiers.retry = policy
                case .failure(let problems):
                    for problem in problems.problems { report(problem.message, at: problem.range) }
                    ok = false
                }
            case "on-error":
                if value.scalarText == "continue" {
                    modifiers.onError = .continueRun
                } else if case .sequence = value.kind {
                    modifiers.onError = .steps(steps(value, in: "on-error"))
                } else {
                    report("'on-error' takes 'continue' or a list of steps", at: value.range)
                    ok = false
                }
            default: break
            }
        }
        return ok ? modifiers : nil
    }

    // MARK: - Control steps

    private mutating func controlStep(
        _ keyword: String, _ head: YAMLPair, _ keyed: [(key: String, pair: YAMLPair)], range: SourceRange
    ) -> Step? {
        let ownKeys = ControlGrammar.step(keyword)?.keyNames ?? []
        let modifierKeys = Self.modifierKeys.filter { !ownKeys.contains($0) }
        var parts: [String: YAMLPair] = [:]
        var ok = true
        for (key, pair) in keyed where key != keyword {
            if ownKeys.contains(key) {
                parts[key] = pair
            } else if !modifierKeys.contains(key) {
                let expected = ownKeys + modifierKeys
                let other = Self.controlKeys.contains(key) ? " ('\(key)' starts a step of its own: put it in a new list item)" : ""
                report(
                    "unknown key '\(key)' in a '\(keyword)' step\(Suggestions.didYouMean(key, in: expected))\(other)",
                    at: pair.key.range, notes: ["note: a '\(keyword)' step takes \((ownKeys + ["modifiers"]).joined(separator: ", "))"])
                ok = false
            }
        }
        guard let modifiers = modifiers(keyed, allowed: modifierKeys, stepName: keyword), ok,
            let grammar = ControlGrammar.step(keyword)
        else { return nil }
        parts[keyword] = head
        // The keys it needs first, then each key by its shape, then the step from its keys.
        let article = "aeiou".contains(keyword.prefix(1)) ? "an" : "a"
        for key in grammar.keys where key.isRequired && !isUsable(parts[key.name]?.value, as: key.shape) {
            report(
                "\(article) '\(keyword)' step needs '\(key.name):'\(key.need.hasPrefix(",") ? "" : " ")\(key.need)" + indentedUnder(head, key.name, keyword),
                at: head.key.range)
            return nil
        }
        var read = ControlParts()
        for key in grammar.allKeys {
            guard let pair = parts[key.name] else { continue }
            guard let part = part(pair.value, as: key, of: keyword) else { return nil }
            if let part { read.parts[key.name] = part }
        }
        let kind = grammar.build(&read)
        for problem in read.problems { report(problem.message, at: problem.range) }
        guard let kind else { return nil }
        return Step(kind: kind, modifiers: modifiers, range: range, keyRange: head.key.range)
    }

    /// Whether `node` is there and, for options, a mapping with at least one.
    private func isUsable(_ node: YAMLNode?, as shape: ControlGrammar.Shape) -> Bool {
        guard let node else { return false }
        guard shape == .options else { return true }
        if case .mapping(let pairs) = node.kind { return !pairs.isEmpty }
        return false
    }

    /// One key of a control step read by its shape: nil when it cannot be read (reported), a nil
    /// part when it is left empty.
    private mutating func part(_ node: YAMLNode, as key: ControlGrammar.Key, of keyword: String) -> ControlParts.Part?? {
        switch key.shape {
        case .steps, .stepsOrContinue:
            return .some(.steps(steps(node, in: key.name)))
        case .options:
            guard case .mapping(let pairs) = node.kind else { return .some(nil) }
            var options: [Menu.Option] = []
            for pair in pairs {
                guard let label = pair.key.scalarText else {
                    report("each key of '\(key.name)' is a label written as text or a number, not a list or a mapping", at: pair.key.range)
                    continue
                }
                options.append(Menu.Option(label: Name(text: label, range: pair.key.range), body: steps(pair.value, in: label)))
            }
            return .some(.options(options))
        case .name:
            guard let name = variableName(node) else { return .some(nil) }
            return .some(.name(name))
        case .flag:
            guard case .boolean(let on) = ScalarResolver.resolve(node) else {
                report("'\(key.name)' takes true or false", at: node.range)
                return nil
            }
            return .some(.flag(on))
        case .assignments:
            return .some(.assignments(assignments(node, in: keyword)))
        case .value, .text, .count, .seconds, .parallelism, .retry:
            // The keyword's own value may be left empty (the step's input); another key written
            // empty is a value of nothing, which the checker holds to the key's shape.
            if node.isNull, key.name == keyword {
                guard key.isRequired, !key.need.isEmpty else { return .some(nil) }
                report("'\(keyword)' needs \(key.need)", at: node.range)
                return nil
            }
            guard let template = attempt({ () throws(Diagnostic) in try TemplateParser.template(from: node) }) else { return nil }
            return .some(.template(template))
        }
    }

    /// What to say when `key`, which a control step needs beside its name, was written one level
    /// deeper, under it (the habit of other YAML formats): empty when it was not.
    private func indentedUnder(_ head: YAMLPair, _ key: String, _ keyword: String) -> String {
        guard case .mapping(let pairs) = head.value.kind, pairs.contains(where: { $0.key.scalarText == key }) else { return "" }
        return "; '\(key):' is written under '\(keyword):' — put it at the same indentation as '\(keyword)'"
    }
}
