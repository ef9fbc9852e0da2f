/// The keys of one control step, each read by the shape the grammar gives it (ControlGrammar),
/// for the step's `build`; a key not written reads as empty.
struct ControlParts {
    enum Part {
        case template(Template)
        case steps([Step])
        case options([Menu.Option])
        case name(Name)
        case flag(Bool)
        case assignments([Assignment])
    }

    var parts: [String: Part] = [:]
    /// What the build found wrong, for the parser to report.
    private(set) var problems: [(message: String, range: SourceRange)] = []

    func template(_ key: String) -> Template? {
        if case .template(let template)? = parts[key] { return template }
        return nil
    }

    func steps(_ key: String) -> [Step] { optionalSteps(key) ?? [] }

    func optionalSteps(_ key: String) -> [Step]? {
        if case .steps(let steps)? = parts[key] { return steps }
        return nil
    }

    func options(_ key: String) -> [Menu.Option] {
        if case .options(let options)? = parts[key] { return options }
        return []
    }

    func name(_ key: String) -> Name? {
        if case .name(let name)? = parts[key] { return name }
        return nil
    }

    func flag(_ key: String) -> Bool {
        if case .flag(let on)? = parts[key] { return on }
        return false
    }

    func assignments(_ key: String) -> [Assignment] {
        if case .assignments(let assignments)? = parts[key] { return assignments }
        return []
    }

    mutating func problem(_ message: String, at range: SourceRange) { problems.append((message, range)) }
}
