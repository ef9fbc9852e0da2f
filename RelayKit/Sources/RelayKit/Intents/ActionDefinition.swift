extension ParameterDefinition {
    /// What is wrong with `text` as this parameter's choice, or nil when it is one (or the
    /// parameter takes any text): the checker's and the run's one rule. An `AppEnum`'s cases are
    /// matched exactly, other choices in any case of letters.
    public func choiceProblem(_ text: String) -> String? {
        guard !choices.isEmpty, choice(matching: text) == nil else { return nil }
        let shown = choices.map { choice in choiceTitles[choice].map { "'\($0)' (\(choice))" } ?? "'\(choice)'" }
        return "takes \(shown.joined(separator: ", ")); found '\(text)'\(Suggestions.didYouMean(text, in: choices + choiceTitles.values.sorted()))"
    }

    /// The choice `text` names — itself, or the choice whose title it is — or nil when it names
    /// none. An `AppEnum`'s cases are matched exactly, other choices in any case of letters.
    public func choice(matching text: String) -> String? {
        if choicesAreExact {
            if choices.contains(text) { return text }
            return choiceTitles.first { $0.value == text }?.key
        }
        return choices.first { $0.caseInsensitiveCompare(text) == .orderedSame }
    }
}

/// The rule for an enum's display names: each names one case, and none is another case's raw
/// value (a workflow could not say which it meant).
public enum CaseTitles {
    /// `In Progress (in-progress)` for a case with a display name, the raw value for one without:
    /// how `relay describe` and the docs list a case.
    public static func shown(_ raw: String, titles: [String: String]) -> String {
        titles[raw].map { "\($0) (\(raw))" } ?? raw
    }

    /// What is wrong with `titles` (raw value → display name) for `cases`, or nil.
    public static func problem(cases: [String], titles: [String: String]) -> String? {
        var seen: [String: String] = [:]
        for raw in cases {
            guard let title = titles[raw] else { continue }
            if let other = seen[title] { return "the cases '\(other)' and '\(raw)' have one display name, '\(title)'" }
            if let other = cases.first(where: { $0 != raw && $0.caseInsensitiveCompare(title) == .orderedSame }) {
                return "the display name of case '\(raw)' is the case '\(other)'"
            }
            seen[title] = raw
        }
        return nil
    }
}

/// One parameter of an action, as the checker, `relay describe` and the JSON Schema see it.
public struct ParameterDefinition: Sendable {
    public let name: String
    public let title: String
    public let summary: String
    public let type: ValueType
    /// For a list parameter, each item's type (`[Trail]`: `trail`), which each item is converted
    /// to; nil when the items may be anything.
    public let itemType: ValueType?
    /// `list of trail`, or the type's name.
    public var typeDescription: String { itemType.map { "list of \($0.name)" } ?? type.name }
    public let isRequired: Bool
    public let defaultValue: Value?
    public let choices: [String]
    /// Whether a text must be one of `choices` exactly (an `AppEnum`), not in any case.
    public let choicesAreExact: Bool
    /// The name people see for a choice, where it has one apart from the choice (an `AppEnum`'s
    /// `caseDisplayRepresentations`); a workflow may write either, and the action gets the choice.
    public let choiceTitles: [String: String]
    /// For file parameters: the content types accepted; empty accepts any file.
    public let accepts: [ContentType]
    public let isPrimary: Bool
    public let isInput: Bool
    /// What is wrong with a value written literally in a workflow, or nil (see `ParameterOptions`).
    public let check: ParameterCheck?
    /// What is wrong with text written with `${…}` inside, or nil (see `ParameterOptions`).
    public let checkPattern: TextPatternCheck?
    /// What the action does with what the value names (see `ParameterOptions.access`).
    public let access: Capability?
    /// The destination whose presence makes a `.write` parameter only read (see `ParameterOptions.readOnlyWhenGiven`).
    public let readOnlyWhenGiven: String?
    /// Whether the action may read the files a value holds (see `ParameterOptions.readsFiles`).
    public let readsFiles: Bool
    /// Whether the parameter acts on a file that exists before the step (see `ParameterOptions.existing`).
    public let existing: Bool

    public init(
        name: String, title: String, summary: String, type: ValueType, itemType: ValueType? = nil, isRequired: Bool, defaultValue: Value?,
        choices: [String] = [], choicesAreExact: Bool = false, choiceTitles: [String: String] = [:], accepts: [ContentType] = [], isPrimary: Bool = false,
        isInput: Bool = false, check: ParameterCheck? = nil, checkPattern: TextPatternCheck? = nil, access: Capability? = nil,
        readOnlyWhenGiven: String? = nil, readsFiles: Bool = true, existing: Bool = false
    ) {
        self.readsFiles = readsFiles
        self.existing = existing
        self.choicesAreExact = choicesAreExact
        self.choiceTitles = choiceTitles
        self.check = check
        self.checkPattern = checkPattern
        self.access = access
        self.readOnlyWhenGiven = readOnlyWhenGiven
        self.name = name
        self.title = title
        self.summary = summary
        self.type = type
        self.itemType = type == .list ? itemType : nil
        self.isRequired = isRequired
        self.defaultValue = defaultValue
        self.choices = choices
        self.accepts = accepts
        self.isPrimary = isPrimary
        self.isInput = isInput
    }
}

/// An intent declaration that Relay cannot use, found when the intent is reflected.
public struct IntentDeclarationError: Error, Sendable, CustomStringConvertible {
    public let intent: String
    public let problem: String
    /// What `intent` names: an intent, or an entity type.
    public let declaring: String

    public init(intent: String, problem: String, declaring: String = "intent") {
        self.intent = intent
        self.problem = problem
        self.declaring = declaring
    }

    public var description: String { "\(declaring) '\(intent)': \(problem)" }
}

/// An action, reflected once from its intent type: its signature, and how to perform it.
/// A class: one definition is shared by every step that uses the action.
public final class ActionDefinition: Sendable {
    /// The name workflows use: `change-case`, or `trails.open-trail` for a package action.
    public let name: String
    /// The name without a package prefix.
    public let shortName: String
    /// The package that declares it.
    public let package: String
    public let title: String
    public let summary: String
    public let parameters: [ParameterDefinition]
    public let output: ValueType
    /// For a list output, each item's type, when the action declares it (`.list(of:)`).
    public let outputItem: ValueType?
    /// `list of file`, or the output's name.
    public var outputDescription: String { outputItem.map { "\(output.name) of \($0.name)" } ?? output.name }
    /// The index of the parameter the previous step's output fills, if any.
    public let inputIndex: Int?
    /// The index of the parameter a scalar or sequence after the action name fills, if any.
    public let primaryIndex: Int?

    /// Where the action can run (App Intents' `IntentModes`).
    public let supportedModes: IntentModes
    /// Whether the action may need a person (App Intents' foreground): without a terminal it runs
    /// only when the run was given answers (`--answer`, `--yes`).
    public var isForegroundOnly: Bool { !supportedModes.contains(.background) }
    /// Everything the action may touch: what its parameters name and what it declares besides
    /// (Docs/Security.md), in `Capability` order.
    public let capabilities: [Capability]
    /// Whether any parameter declares what the action does with what its value names (the run's
    /// gate is asked about such values before the action is performed).
    public let parametersDeclareAccess: Bool
    /// Each parameter's type where it is a plain text, number, yes/no or date — no choices, no
    /// content types — so that a value of that type is taken as it is; else nil. What a step
    /// looks at first, rather than a copy of each `ParameterDefinition`.
    public let scalarTypes: [ValueType?]
    /// Whether each parameter takes a URL.
    public let takesURL: [Bool]

    /// What the parameter at `index` does with what it names in a step that gives the arguments
    /// `isGiven` says: its declared capability, except that an edit's input is only read when the
    /// step gives its destination (`rotate-image` with `to:`).
        public func access(ofParameterAt index: Int, given isGiven: (Int) -> Bool) -> Capability? {
        let parameter = parameters[index]
        guard parameter.access == .write, let destination = parameter.readOnlyWhenGiven,
            let other = parameters.firstIndex(where: { $0.name == destination }), isGiven(other)
        else { return parameter.access }
        return .read
    }
    /// The path of the package a hosted action comes from; nil for built-in and linked actions.
    public let source: String?
    /// Worked examples (`Intent.examples`).
    public let examples: [IntentExample]
    /// The Shortcuts actions it stands for (`Intent.shortcuts`).
    public let shortcuts: [ShortcutsMapping]
    /// The programs the action starts that no parameter names (`Intent.programs`): looked for
    /// when asked (on PATH), not when the action is registered, which every run does.
    public var programs: [String] { findPrograms() }
    private let findPrograms: @Sendable () -> [String]
    /// The Swift type the action was reflected from (`init(_:package:prefixed:)`); nil for an
    /// action made from its parts, as a hosted package's are.
    public let intentType: (any Intent.Type)?
    private let performer: @Sendable ([Value?], any IntentContext) async throws -> IntentResult

    /// An action from its parts: for actions that are not Swift types in this process (a package
    /// hosted out of process). `performer` receives one argument per parameter, nil for unset.
    public init(
        name: String, shortName: String, package: String, title: String, summary: String, parameters: [ParameterDefinition],
        output: ValueType, supportedModes: IntentModes = .all, capabilities: [Capability] = [], source: String? = nil,
        examples: [IntentExample] = [], shortcuts: [ShortcutsMapping] = [], programs: @escaping @Sendable () -> [String] = { [] }, outputItem: ValueType? = nil, intentType: (any Intent.Type)? = nil, performer: @escaping @Sendable ([Value?], any IntentContext) async throws -> IntentResult
    ) throws(IntentDeclarationError) {
        let inputs = parameters.indices.filter { parameters[$0].isInput }
        let primaries = parameters.indices.filter { parameters[$0].isPrimary }
        guard inputs.count <= 1 else { throw IntentDeclarationError(intent: shortName, problem: "more than one input parameter") }
        guard primaries.count <= 1 else { throw IntentDeclarationError(intent: shortName, problem: "more than one primary parameter") }
        guard Set(parameters.map(\.name)).count == parameters.count else {
            throw IntentDeclarationError(intent: shortName, problem: "two parameters share a name")
        }
        for parameter in parameters {
            if let problem = CaseTitles.problem(cases: parameter.choices, titles: parameter.choiceTitles) {
                throw IntentDeclarationError(intent: shortName, problem: "parameter '\(parameter.name)': \(problem)")
            }
            guard case .union(let members) = parameter.type else { continue }
            guard !members.isEmpty, Set(members).count == members.count else {
                throw IntentDeclarationError(
                    intent: shortName, problem: "the union of parameter '\(parameter.name)' needs one entity type per case, each once")
            }
        }
        self.name = name
        self.shortName = shortName
        self.package = package
        self.title = title
        self.summary = summary
        self.parameters = parameters
        self.output = output
        self.supportedModes = supportedModes
        self.capabilities = Set(capabilities + parameters.compactMap(\.access)).sorted()
        parametersDeclareAccess = parameters.contains { $0.access != nil }
        scalarTypes = parameters.map { parameter in
            [.text, .number, .boolean, .date].contains(parameter.type) && parameter.choices.isEmpty && parameter.accepts.isEmpty ? parameter.type : nil
        }
        takesURL = parameters.map { $0.type == .url }
        self.source = source
        self.examples = examples
        self.shortcuts = shortcuts
        self.findPrograms = programs
        self.outputItem = output == .list ? outputItem : nil
        self.inputIndex = inputs.first
        self.primaryIndex = primaries.first
        self.intentType = intentType
        self.performer = performer
    }

    /// Reflects `intent`. `prefixed` makes the name `PACKAGE.action` (package actions) rather than `action`.
    public convenience init<I: Intent>(_ intent: I.Type, package: String, prefixed: Bool = false) throws(IntentDeclarationError) {
        let storages = Self.labelledStorages(of: I.self)
        var parameters: [ParameterDefinition] = []
        for (label, storage) in storages.labelled {
            let options = storage.options
            let name = options.name ?? Naming.kebabCase(label)
            parameters.append(
                ParameterDefinition(
                    name: name, title: options.title ?? Naming.title(fromName: name), summary: options.summary,
                    type: storage.valueType, itemType: storage.itemType, isRequired: storage.isRequired && !options.isInput,
                    defaultValue: storage.defaultParameterValue, choices: options.choices, choicesAreExact: options.choicesAreExact,
                    choiceTitles: options.choiceTitles,
                    accepts: options.accepts,
                    isPrimary: options.isPrimary, isInput: options.isInput, check: options.check,
                    checkPattern: options.checkPattern, access: options.access, readOnlyWhenGiven: options.readOnlyWhenGiven,
                    readsFiles: options.readsFiles, existing: options.existing))
        }
        let parameterNames = parameters.map(\.name)
        let collectsInOrder = storages.collectsInOrder
        try self.init(
            name: prefixed ? "\(package).\(I.name)" : I.name, shortName: I.name, package: package, title: I.title,
            summary: I.summary, parameters: parameters, output: I.output.type, supportedModes: I.supportedModes,
            capabilities: I.capabilities, examples: I.examples, shortcuts: I.shortcuts, programs: { I.programs }, outputItem: I.output.item,
            intentType: I.self
        ) { arguments, context in
            let instance: I
            let storages: [any AnyParameterStorage]
            if collectsInOrder {
                (instance, storages) = ParameterCollector.make(I.self, performing: true)
            } else {
                instance = I()
                storages = Self.parameterStorages(of: instance).map(\.1)
            }
            for (index, storage) in storages.enumerated() {
                guard index < arguments.count, let argument = arguments[index] else { continue }
                do throws(CoercionError) {
                    try storage.assign(argument)
                } catch {
                    throw ArgumentError(parameter: parameterNames[index], underlying: error)
                }
            }
            if let unset = storages.indices.first(where: { !storages[$0].isSet }) {
                throw IntentError("'\(parameterNames[unset])' needs a value")
            }
            let result = try await instance.perform(context)
            #if DEBUG
                // A debug build holds the intent to what it says it gives.
                if let problem = I.output.problem(with: result.value) {
                    throw IntentError("'\(I.name)' says it outputs \(I.output.withArticle) but gave \(problem)")
                }
            #endif
            return result
        }
    }

    /// The index of the parameter called `name`.
    public func parameterIndex(named name: String) -> Int? {
        parameters.firstIndex { $0.name == name }
    }

    /// The input parameter, if the action takes the previous step's output.
    public var inputParameter: ParameterDefinition? { inputIndex.map { parameters[$0] } }

    /// Whether the action only keeps, orders or picks from the list it is given (`filter`,
    /// `sort-list`, `get-item`): it touches nothing, takes a list or any value and gives a list, a
    /// value or a file. What it gives are items of what it was given: the checker keeps their type,
    /// and the permission report where the files came from.
    public var picksFromInput: Bool {
        guard capabilities.isEmpty, let input = inputParameter else { return false }
        return [.list, .any].contains(input.type) && [.list, .any, .file].contains(output)
    }

    /// Whether the input parameter takes one item, so that a list input runs the action once per item.
    public var mapsOverListInput: Bool {
        guard let input = inputParameter else { return false }
        return input.type != .list && input.type != .any
    }

    /// Performs the action with `arguments`, one per parameter (nil for unset), each already
    /// converted to its parameter's type.
    public func perform(arguments: [Value?], context: any IntentContext) async throws -> IntentResult {
        try await performer(arguments, context)
    }

    /// The parameters of `I` with their property names, and whether its `init()` registers them in
    /// declaration order (so performing needs no reflection). The fast path pairs the storages the
    /// collector saw with the `_`-prefixed stored properties `Mirror` lists, without dynamic casts
    /// (each cast scans protocol conformances); casting is the fallback when the two do not pair up.
    private static func labelledStorages<I: Intent>(of type: I.Type) -> (labelled: [(String, any AnyParameterStorage)], collectsInOrder: Bool) {
        let (probe, collected) = ParameterCollector.make(I.self, performing: false)
        let wrapped = Mirror(reflecting: probe).children.compactMap { child -> String? in
            guard let label = child.label, label.hasPrefix("_") else { return nil }
            return String(label.dropFirst())
        }
        if wrapped.count == collected.count {
            return (Array(zip(wrapped, collected)), true)
        }
        let reflected = parameterStorages(of: probe)
        let inOrder = collected.count == reflected.count && zip(collected, reflected).allSatisfy { $0 === $1.1 }
        return (reflected, inOrder)
    }

    private static func parameterStorages(of instance: some Intent) -> [(String, any AnyParameterStorage)] {
        Mirror(reflecting: instance).children.compactMap { child in
            guard let provider = child.value as? any ParameterStorageProviding, let label = child.label else {
                return nil
            }
            return (label.hasPrefix("_") ? String(label.dropFirst()) : label, provider.anyStorage)
        }
    }
}

/// An argument that did not fit its parameter's Swift type.
public struct ArgumentError: Error, Sendable, CustomStringConvertible {
    public let parameter: String
    public let underlying: CoercionError
    public var description: String { "parameter '\(parameter)': \(underlying)" }
}

/// Lets reflection find a `Parameter`'s storage without knowing its generic type.
protocol ParameterStorageProviding {
    var anyStorage: any AnyParameterStorage { get }
}

extension Parameter: ParameterStorageProviding {
    var anyStorage: any AnyParameterStorage { storage }
}
