import Foundation

/// Whether a person is at hand to answer prompts (App Intents' intent modes).
public enum RunMode: String, Sendable {
    /// A terminal is attached: prompts are asked there.
    case interactive
    /// No terminal: prompts take `--answer`, `--yes` or their default, or fail.
    case background
}

/// A question for `ask`.
public struct Question: Sendable {
    public var prompt: String
    public var type: ValueType
    public var defaultValue: Value?
    /// A name `--answer KEY=VALUE` may answer it by that stays when the prompt's words change
    /// (`rating` for "How do you rate Dune?").
    public var key: String?

    public init(prompt: String, type: ValueType = .text, defaultValue: Value? = nil, key: String? = nil) {
        self.prompt = prompt
        self.type = type
        self.defaultValue = defaultValue
        self.key = key
    }
}

/// A choice among labelled options, for `choose-from-list`, `menu` and a package's
/// `requestChoice`: which option Enter (or `--yes`) takes, and which destroy something.
public struct ChoiceRequest: Sendable, Equatable {
    public var prompt: String
    public var options: [String]
    public var allowsMultiple: Bool
    /// The option taken by an empty answer on a terminal, and by `--yes` without one.
    public var defaultIndex: Int?
    /// The options that destroy something, marked as such on a terminal.
    public var destructive: Set<Int>
    /// A name `--answer KEY=OPTION` may answer it by that stays when the prompt's words change.
    public var key: String?
    /// Whether the step's `as:` name and `label:` answer it (`--answer NAME=OPTION`): not for a
    /// question about one of the step's values (which entity a title names), of which a step may
    /// ask several.
    public var answeredByStep: Bool
    /// What the run says, before how to answer, when nobody can be asked and no answer was given
    /// (`2 books match 'Dun': 'Dune', 'Dune Messiah'`); nil for the plain "no answer" message.
    public var unanswered: String?

    public init(
        prompt: String, options: [String], allowsMultiple: Bool = false, defaultIndex: Int? = nil, destructive: Set<Int> = [], key: String? = nil,
        unanswered: String? = nil, answeredByStep: Bool = true
    ) {
        self.prompt = prompt
        self.answeredByStep = answeredByStep
        self.key = key
        self.unanswered = unanswered
        self.options = options
        self.allowsMultiple = allowsMultiple
        self.defaultIndex = defaultIndex.flatMap { options.indices.contains($0) ? $0 : nil }
        self.destructive = destructive.filter { options.indices.contains($0) }
    }
}

/// What an intent can ask of the run that performs it.
public protocol IntentContext: Sendable {
    /// Whether a person can be prompted.
    var mode: RunMode { get }
    /// The folder of the workflow file being run, or the current directory.
    var baseDirectory: URL { get }
    /// Prints a value to standard output in the run's output format.
    func show(_ value: Value) async
    /// Asks a question; the answer is converted to the question's type.
    func ask(_ question: Question) async throws -> Value
    /// Asks for one (or several) of the options; returns their indices.
    func choose(_ request: ChoiceRequest) async throws -> [Int]
    /// Asks for a yes; throws `RunCancelled` on a no.
    func requestConfirmation(_ prompt: String) async throws
    /// The same, with a name `--answer KEY=yes` may answer it by.
    func requestConfirmation(_ prompt: String, key: String?) async throws
    /// Changes files atomically, recording each change for `relay undo`.
    var fileChanges: any FileChanges { get }
    /// Where files made from no input file go; kept after the run.
    var scratchFolder: ScratchFolder { get }
    /// Opens `url` the way the run was told to (Docs/Language.md, "Opening URLs": `--open-with`, `$RELAY_OPEN`, the system
    /// opener, or only reporting it with `--dry-run`).
    func open(_ url: URL) async throws
    /// Converts `value` to `representation` through the converter graph (Docs/Language.md, "Conversions between formats").
    func convert(_ value: Value, to representation: Representation) async throws -> Value
    /// The entity types of the loaded packages, for `find`, `search` and text → entity.
    var entityTypes: EntityCatalog { get }
    /// Runs another workflow file with `input` and returns its output.
    func runWorkflow(at path: String, input: Value) async throws -> Value
    /// Reports how far the intent has got, from 0 to 1, with what it is doing; shown on a terminal.
    /// A fraction below 0 says the end is not known (a walk of a folder): the label alone is shown.
    func reportProgress(_ fraction: Double, _ label: String?) async
    /// Tells the person running the workflow about something the intent passed over and went on
    /// (a folder it could not read): a warning on standard error naming the step.
    func warn(_ message: String) async
    /// A detail for `--trace` (how many folders and files a walk read); nothing without it.
    func trace(_ detail: String) async
    /// Registers how to undo what the intent did (App Intents' `UndoableIntent`): `relay undo`
    /// performs `action` — an action of the same package, by its name without the prefix — with
    /// `arguments` (by parameter name). Entities in them are found again by id.
    func registerUndo(action: String, arguments: ValueDictionary) async throws
    /// Asks the run's gate for `access` (Docs/Security.md, "At run time"): what a parameter names is
    /// asked before the intent is performed; an intent asks here for what it finds itself, such as
    /// the files of a library folder. Throws `AccessDenied` when it is not granted.
    func authorize(_ access: Access) async throws
    /// Starts a program and waits for it to end (Docs/Language.md, "Running programs"): asks the
    /// gate to start it by name, gives it `input` on its standard input, and returns what it wrote
    /// and how it ended. A step's `timeout:` or a signal stops it and everything it started.
    func runProgram(_ program: ProgramRun) async throws -> ProgramOutcome
}

extension IntentContext {
    /// Asks to read the folder whose files entities of `type` are found in, if it has one.
    public func authorizeFinding(_ type: EntityDescriptor) async throws {
        if let access = Access.finding(type) { try await authorize(access) }
    }

    /// Outside a run's gate — a package host, confined by the kernel instead, or `relay undo`,
    /// which puts back only what a run changed — everything asked is allowed.
    public func requestConfirmation(_ prompt: String, key: String?) async throws { try await requestConfirmation(prompt) }
    public func authorize(_ access: Access) async throws {}

    /// Where no run shows them (a package's host, `relay undo`), warnings and trace details are dropped.
    public func warn(_ message: String) async {}
    public func trace(_ detail: String) async {}

    /// Only a run starts programs for its steps: a package's host starts its own, confined by the kernel.
    public func runProgram(_ program: ProgramRun) async throws -> ProgramOutcome {
        throw IntentError("'\(program.program)' cannot be started here: only a workflow's run starts programs for its steps")
    }
}
