/// One step of a workflow (Docs/Language.md, "Steps"): an action or a control step, with its modifiers.
public struct Step: Sendable {
    public enum Kind: Sendable {
        case action(ActionCall)
        case conditional(Conditional)
        case repeatCount(RepeatCount)
        case forEach(ForEach)
        case menu(Menu)
        case match(Match)
        case set([Assignment])
        case append([Assignment])
        case stop(Template?)
    }

    public var kind: Kind
    public var modifiers: StepModifiers
    /// The whole step.
    public var range: SourceRange
    /// The action name or control keyword.
    public var keyRange: SourceRange
}

extension Step {
    /// The action's name or the control keyword, as messages name the step.
    public var keyword: String {
        switch kind {
        case .action(let call): call.name.text
        case .conditional: "if"
        case .repeatCount: "repeat"
        case .forEach: "for-each"
        case .menu: "menu"
        case .match: "match"
        case .set: "set"
        case .append: "append"
        case .stop: "stop"
        }
    }

    /// The control step's declaration (ControlGrammar), nil for an action.
    public var grammar: ControlGrammar.Step? {
        if case .action = kind { return nil }
        return ControlGrammar.step(keyword)
    }

    /// The blocks of steps written inside this one: branches, a loop's body, a menu's options, a
    /// match's cases and default, then its `on-error` steps.
    public var blocks: [[Step]] {
        var blocks: [[Step]]
        switch kind {
        case .conditional(let conditional): blocks = [conditional.then, conditional.otherwise ?? []]
        case .repeatCount(let repeatCount): blocks = [repeatCount.body]
        case .forEach(let forEach): blocks = [forEach.body]
        case .menu(let menu): blocks = menu.options.map(\.body)
        case .match(let match): blocks = match.cases.map(\.body) + [match.otherwise ?? []]
        case .action, .set, .append, .stop: blocks = []
        }
        if case .steps(let handler) = modifiers.onError { blocks.append(handler) }
        return blocks
    }
}

/// `- ACTION: arguments`.
public struct ActionCall: Sendable {
    public var name: Name
    public var arguments: Arguments
}

/// What follows an action's name.
public enum Arguments: Sendable {
    /// `- count` or `- current-date:`.
    case none
    /// A scalar or a sequence: the action's primary parameter.
    case primary(Template)
    /// A mapping of parameter names to values.
    case named([TemplateEntry], range: SourceRange)
    /// The primary parameter after the action's name, and named parameters as sibling keys of the
    /// step (Docs/Language.md, "Entities": `- find: note` followed by `where:`, `sort:`, `limit:`).
    case primaryWithSiblings(Template, siblings: [TemplateEntry])
}

/// `if`, `then`, `else`.
public struct Conditional: Sendable {
    public var condition: Template
    public var then: [Step]
    public var otherwise: [Step]?
}

/// `repeat: COUNT`, `do`.
public struct RepeatCount: Sendable {
    public var count: Template
    public var body: [Step]
}

/// `for-each: ITEMS`, `as`, `parallel`, `do`.
public struct ForEach: Sendable {
    public var items: Template?
    public var variable: Name?
    public var parallel: Template?
    public var body: [Step]
}

/// `menu: PROMPT`, `options`.
public struct Menu: Sendable {
    public struct Option: Sendable {
        public var label: Name
        public var body: [Step]
    }

    public var prompt: Template
    public var options: [Option]
}

/// `match: VALUE`, `cases`, `default`.
public struct Match: Sendable {
    /// The value; the step's input when nil.
    public var value: Template?
    /// Each case's value (as written) and steps.
    public var cases: [Menu.Option]
    public var otherwise: [Step]?
    /// Whether texts must match case and all (`case-sensitive: true`); by default case is ignored,
    /// as `==` and `where:` ignore it (Docs/Language.md, "Comparing texts").
    public var caseSensitive = false
}

/// The modifiers any step may carry (Docs/Language.md, "Steps").
public struct StepModifiers: Sendable {
    /// `as: NAME`.
    public var outputVariable: Name?
    /// `input: VALUE`.
    public var input: Template?
    /// `when: CONDITION`.
    public var condition: Template?
    /// `on-error:`.
    public var onError: ErrorHandling?
    /// `timeout: SECONDS`.
    public var timeout: Template?
    /// `label: TEXT`.
    public var label: String?
    /// `retry: N` or `retry: { times, delay, backoff, max-delay }`.
    public var retry: RetryPolicy?

    public init() {}
}

/// What `on-error` does.
public enum ErrorHandling: Sendable {
    /// `on-error: continue`: output nothing and go on.
    case continueRun
    /// `on-error: [steps]`: run these with `${error}` set.
    case steps([Step])
}
