import RelayKit

/// A workflow that passed the checker: every action resolved and every argument bound to its
/// parameter. The interpreter runs this and never looks a name up again.
public struct CheckedWorkflow: Sendable {
    public var file: SourceFile
    public var name: String
    /// What the workflow does, in its own words (`description:`).
    public var summary: String?
    public var input: InputDeclaration?
    public var output: TypeAnnotation?
    public var packages: [Name]
    public var variables: [Assignment]
    /// The variables written with a type, by name (`Workflow.variableTypes`).
    public var variableTypes: [String: InputDeclaration] = [:]
    public var steps: [PlannedStep]
    /// The most seconds the whole run may take (`timeout:` at the top), if given.
    public var timeout: Double? = nil
    /// What the workflow expects to touch (`permissions:`), by capability; nil without the block.
    public var permissions: [Capability: [Name]]? = nil
    /// Every variable the workflow reads somewhere: what `--set` may give.
    public var variablesRead: Set<String> = []
    /// The secrets it reads (`secrets:`), and the hosts a pinned one may be sent to.
    public var secrets: [Name] = []
    public var secretPins: [SecretPin] = []
    /// `on:`: what starts a run of it under `relay serve`.
    public var triggers: [Trigger] = []

    /// The names of `given` (`--set`) that the workflow neither reads nor declares, each with a
    /// did-you-mean, in order.
    public func unknownVariables(_ given: some Sequence<String>) -> [String] {
        var known = variablesRead.union(variables.map(\.name.text)).subtracting(["input", "previous", "item", "index", "error", "secrets"])
        if !triggers.isEmpty { known.insert("trigger") }
        return given.filter { !known.contains($0) }.sorted().map { name in
            "--set \(name): \(self.name) has no variable '\(name)'\(Suggestions.didYouMean(name, in: known.sorted()))"
                + (known.isEmpty ? "; it reads none" : " (it reads \(known.sorted().joined(separator: ", ")))")
        }
    }
}

/// A step ready to run. A class: steps are shared, never changed, and copied on every run of a loop.
public final class PlannedStep: Sendable {
    public enum Kind: Sendable {
        case action(PlannedAction)
        case conditional(condition: Template, then: [PlannedStep], otherwise: [PlannedStep])
        case repeatCount(count: Template, body: [PlannedStep])
        case forEach(items: Template?, variable: String?, parallel: Template?, body: [PlannedStep])
        case menu(prompt: Template, options: [PlannedMenuOption])
        /// `match`: the cases' labels are their values as written; `otherwise` is the default's steps.
        case match(value: Template?, cases: [PlannedMenuOption], otherwise: [PlannedStep], caseSensitive: Bool)
        case set([Assignment])
        case append([Assignment])
        case stop(Template?)
    }

    public let kind: Kind
    /// How an action step runs without waiting, when its action plans it: kept apart from `kind`
    /// so that a run looks at it without copying the step's parts.
    public let instant: PlannedInstant?
    /// The label, else the action name or control keyword: how traces and errors name the step.
    public let displayName: String
    /// Where errors of this step point: its action name or keyword.
    public let range: SourceRange
    /// The step's `label:`, when it has one.
    public let label: String?
    public let outputVariable: String?
    public let input: Template?
    public let condition: Template?
    public let onError: PlannedErrorHandling?
    public let timeout: Template?
    /// `retry:`: how often and when the step is tried again after it fails.
    public let retry: RetryPolicy?
    /// The variables and secrets the step's own templates read, and those it and the steps in its
    /// blocks read: what the secrets it was made from are found in, worked out once.
    public let ownReads: Reads
    public let allReads: Reads
    /// Whether it or a step in its blocks reads `previous`: a step that does not is run without
    /// setting it (each step that reads it sets it first).
    public let readsPrevious: Bool
    /// Whether it reads its input: an action whose input parameter is not written in the step
    /// (Docs/Language.md, "How values flow"), or any control step (its blocks get it).
    public let readsInput: Bool
    /// The variables its blocks' steps may set (an `as:`, a `set`, an `append`), however deep,
    /// whichever branch runs: a condition that chose whether they ran is a flow to them both ways,
    /// since a variable left as it was tells as much as one set.
    public let assignedInside: [String]
    /// What its `on-error` steps may set, so.
    public let assignedOnError: [String]
    /// Whether it is a `stop`, or holds one in its blocks: whether the steps after it run then
    /// tells of what chose the way it went.
    public let mayStop: Bool
    /// What the step would have set had its `if:` not skipped it: its `as:`, its `set` or
    /// `append` names, and all the above.
    public var assignedBySkipping: [String] {
        var names = assignedInside + assignedOnError
        if let outputVariable { names.append(outputVariable) }
        if case .set(let assignments) = kind { names += assignments.map(\.name.text) }
        if case .append(let assignments) = kind { names += assignments.map(\.name.text) }
        return names
    }

    /// Variable and secret names, each once.
    public struct Reads: Sendable {
        public var variables: [String] = [] {
            didSet { labelKeys = variables.map(PlannedStep.labelKey) }
        }
        public var secrets: [String] = [] {
            didSet { secretNames = SecretNames(secrets) }
        }
        /// `secrets` as a set to follow, made once.
        public private(set) var secretNames = SecretNames.none
        /// Where the secrets each variable was made from are kept among the run's variables
        /// (`labelKey`), made once.
        public private(set) var labelKeys: [String] = []

        init(_ templates: [Template]) {
            var variables = Set<String>(), secrets = Set<String>()
            for template in templates {
                for reference in template.secretReferences { secrets.insert(reference.name) }
                for reference in template.variableReferences where reference.name != "secrets" { variables.insert(reference.name) }
            }
            self.variables = variables.sorted()
            self.secrets = secrets.sorted()
            // Observers do not run in an initializer.
            labelKeys = self.variables.map(PlannedStep.labelKey)
            secretNames = SecretNames(self.secrets)
        }

        mutating func add(_ other: Reads) {
            guard !other.isEmpty else { return }
            variables = Set(variables).union(other.variables).sorted()
            secrets = Set(secrets).union(other.secrets).sorted()
        }

        /// Whether it reads nothing.
        public var isEmpty: Bool { variables.isEmpty && secrets.isEmpty }
    }

    /// Where the run keeps, among its variables, the secrets variable `name` was made from: a
    /// name no workflow can write (`#` starts none). Short, so that most are kept inline (up to
    /// 15 bytes), with no reference to count on each look.
    public static func labelKey(_ name: String) -> String { "#" + name }

    public init(
        kind: Kind, displayName: String, range: SourceRange, outputVariable: String?, input: Template?,
        condition: Template?, onError: PlannedErrorHandling?, timeout: Template?, retry: RetryPolicy? = nil, label: String? = nil
    ) {
        self.retry = retry
        self.label = label
        self.kind = kind
        if case .action(let action) = kind { instant = action.instant } else { instant = nil }
        self.displayName = displayName
        self.range = range
        self.outputVariable = outputVariable
        self.input = input
        self.condition = condition
        self.onError = onError
        self.timeout = timeout
        let own = Self.templates(kind: kind, input: input, condition: condition, timeout: timeout)
        ownReads = Reads(own)
        var all = ownReads
        for block in Self.blocks(of: kind, onError: onError) { for step in block { all.add(step.allReads) } }
        allReads = all
        readsPrevious = all.variables.contains("previous")
        func assigned(in steps: [PlannedStep]) -> Set<String> {
            var names = Set<String>()
            for step in steps {
                if let name = step.outputVariable { names.insert(name) }
                switch step.kind {
                case .set(let assignments), .append(let assignments): names.formUnion(assignments.map(\.name.text))
                default: break
                }
                names.formUnion(step.assignedInside)
                names.formUnion(step.assignedOnError)
            }
            return names
        }
        assignedInside = assigned(in: Self.blocks(of: kind, onError: nil).flatMap { $0 }).sorted()
        if case .steps(let handler)? = onError { assignedOnError = assigned(in: handler).sorted() } else { assignedOnError = [] }
        if case .stop = kind { mayStop = true } else { mayStop = Self.blocks(of: kind, onError: onError).contains { $0.contains(where: \.mayStop) } }
        switch kind {
        case .action(let action):
            if let index = action.definition.parameters.firstIndex(where: \.isInput) {
                readsInput = input != nil || (action.arguments.indices.contains(index) && action.arguments[index] == nil)
            } else {
                readsInput = input != nil
            }
        default: readsInput = true
        }
    }
}

extension PlannedStep {
    /// The control step's declaration (ControlGrammar), nil for an action.
    public var grammar: ControlGrammar.Step? {
        switch kind {
        case .action: nil
        case .conditional: ControlGrammar.step("if")
        case .repeatCount: ControlGrammar.step("repeat")
        case .forEach: ControlGrammar.step("for-each")
        case .menu: ControlGrammar.step("menu")
        case .match: ControlGrammar.step("match")
        case .set: ControlGrammar.step("set")
        case .append: ControlGrammar.step("append")
        case .stop: ControlGrammar.step("stop")
        }
    }

    /// The templates written in the step itself, not in its blocks: its action's arguments or
    /// its control values, and its modifiers.
    public var ownTemplates: [Template] { Self.templates(kind: kind, input: input, condition: condition, timeout: timeout) }

    static func templates(kind: Kind, input: Template?, condition: Template?, timeout: Template?) -> [Template] {
        var templates = [input, condition, timeout].compactMap { $0 }
        switch kind {
        case .action(let action): templates += action.arguments.compactMap { $0 }
        case .conditional(let condition, _, _), .repeatCount(let condition, _), .menu(let condition, _): templates.append(condition)
        case .forEach(let items, _, let parallel, _): templates += [items, parallel].compactMap { $0 }
        case .match(let value, _, _, _): if let value { templates.append(value) }
        case .set(let assignments), .append(let assignments): templates += assignments.map(\.value)
        case .stop(let value): if let value { templates.append(value) }
        }
        return templates
    }

    /// Every template in the step and in its blocks.
    public var allTemplates: [Template] { ownTemplates + blocks.flatMap { $0.flatMap(\.allTemplates) } }

    /// When the step gives nothing because no branch of it runs, why, for a message: "has no
    /// 'else', so it gives nothing when its condition is false" (ControlGrammar.Output).
    public var givesNothingWhen: (fallback: String, when: String)? {
        guard case .branch(let fallback?, let when)? = grammar?.output else { return nil }
        switch kind {
        case .conditional(_, _, let otherwise), .match(_, _, let otherwise, _): return otherwise.isEmpty ? (fallback, when) : nil
        default: return nil
        }
    }
}

extension PlannedStep {
    /// The blocks of steps inside this one, in order: branches, a loop's body, a menu's options,
    /// then its `on-error` steps.
    public var blocks: [[PlannedStep]] { Self.blocks(of: kind, onError: onError) }

    static func blocks(of kind: Kind, onError: PlannedErrorHandling?) -> [[PlannedStep]] {
        var blocks: [[PlannedStep]]
        switch kind {
        case .conditional(_, let then, let otherwise): blocks = [then, otherwise]
        case .repeatCount(_, let body), .forEach(_, _, _, let body): blocks = [body]
        case .menu(_, let options): blocks = options.map(\.body)
        case .match(_, let cases, let otherwise, _): blocks = cases.map(\.body) + [otherwise]
        case .action, .set, .append, .stop: blocks = []
        }
        if case .steps(let handler)? = onError { blocks.append(handler) }
        return blocks
    }
}

extension CheckedWorkflow {
    /// Every action step, those inside blocks too, in the order they are written.
    public var actionSteps: [(step: PlannedStep, action: PlannedAction)] {
        var found: [(step: PlannedStep, action: PlannedAction)] = []
        func visit(_ steps: [PlannedStep]) {
            for step in steps {
                if case .action(let action) = step.kind { found.append((step, action)) }
                for block in step.blocks { visit(block) }
            }
        }
        visit(steps)
        return found
    }
}

/// An action step: the action, and one template per parameter (nil where the workflow gave none).
public struct PlannedAction: Sendable {
    public var definition: ActionDefinition
    public var arguments: [Template?]
    /// How the step runs without waiting, when its action plans it (`InstantIntent`).
    public var instant: PlannedInstant?

    public init(definition: ActionDefinition, arguments: [Template?]) {
        self.definition = definition
        self.arguments = arguments
        instant = PlannedInstant(definition, arguments)
    }
}

/// One choice of a menu, or one case of a match.
public struct PlannedMenuOption: Sendable {
    public var label: String
    public var body: [PlannedStep]
}

/// What `on-error` does, resolved.
public enum PlannedErrorHandling: Sendable {
    case continueRun
    case steps([PlannedStep])
}
