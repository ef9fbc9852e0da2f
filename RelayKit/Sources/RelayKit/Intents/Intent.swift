import Foundation

/// An action a workflow can run, in the manner of App Intents' `AppIntent`.
///
/// Declare parameters with `@Parameter`; Relay reflects them once to learn names, types,
/// defaults and titles, and builds every view of the action (checker, `relay describe`,
/// `relay actions`, the JSON Schema, `Docs/Actions.md`) from that one declaration.
public protocol Intent: SendableMetatype {
    /// The action's name in workflows, kebab-case (`change-case`). Defaults to the type name in kebab-case.
    static var name: String { get }
    /// The title people see. Defaults to the name in title case.
    static var title: String { get }
    /// One sentence on what the action does.
    static var summary: String { get }
    /// The type of what `perform` returns, and for a list the type of each item
    /// (`.list(of: Trail.self)`): the checker holds the next step to it, and a debug build checks
    /// each result against it.
    static var output: OutputType { get }
    /// Where the intent can run: an intent that must ask a person (`[.foreground]`) fails clearly,
    /// before it starts, in a run with no terminal. All modes by default.
    static var supportedModes: IntentModes { get }
    /// What the intent may touch that none of its parameters names (a process it starts, a
    /// library folder it keeps); what parameters name is declared with them (`@Parameter(access:)`).
    /// None by default.
    static var capabilities: [Capability] { get }
    /// The programs the intent starts that no parameter names (`.run` in `capabilities`), by the
    /// name it asks the gate with: what `relay check --permissions` lists and the run asks for
    /// before its first step. On this machine: a job several programs can do names the one it
    /// would start. None by default.
    static var programs: [String] { get }
    /// Worked examples: steps that use the action, and what such a run prints. `relay describe`
    /// and Docs/Actions.md show them, and a test runs each one (Docs/Packages.md, "Examples").
    static var examples: [IntentExample] { get }
    /// The actions of Apple's Shortcuts app this action stands for, and how their parameters
    /// fill its own: what `relay import` writes for them (Docs/Shortcuts.md). None by default.
    static var shortcuts: [ShortcutsMapping] { get }

    /// Makes an intent with every parameter unset; Relay sets them before calling `perform`.
    init()

    /// Does the work.
    func perform(_ context: any IntentContext) async throws -> IntentResult
}

extension Intent {
    // `_typeName` rather than `String(describing:)`, which scans protocol conformances at startup.
    public static var name: String { Naming.kebabCase(_typeName(Self.self, qualified: false)) }
    public static var title: String { Naming.title(fromName: name) }
    public static var supportedModes: IntentModes { .all }
    public static var capabilities: [Capability] { [] }
    public static var programs: [String] { [] }
    public static var examples: [IntentExample] { [] }
    public static var shortcuts: [ShortcutsMapping] { [] }
}

/// A worked example of an action: the steps of a workflow that uses it (YAML, as written under
/// `steps:`), and what running them prints, when that is the same on every machine.
public struct IntentExample: Sendable, Equatable {
    public var steps: String
    /// Standard output of the run; nil when it depends on the machine (files, dates, network).
    public var output: String?
    /// Where the example is written (the Swift file and line), for an error about it.
    public var place: String?

    public init(_ steps: String, output: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        self.steps = steps
        self.output = output
        self.place = "\(file):\(line)"
    }

    /// An example as a package's manifest carries it.
    public init(steps: String, output: String?, place: String?) {
        self.steps = steps
        self.output = output
        self.place = place
    }

    /// Equal when they say the same, wherever they are written.
    public static func == (lhs: IntentExample, rhs: IntentExample) -> Bool {
        lhs.steps == rhs.steps && lhs.output == rhs.output
    }
}

/// What an intent returns: a value, a URL to open, or nothing (Docs/Packages.md).
public struct IntentResult: Sendable {
    /// The output of the step.
    public var value: Value
    /// A URL Relay opens once `perform` returns (Docs/Language.md, "Opening URLs"), the way the run was told to open URLs.
    public var urlToOpen: URL?

    public init(value: Value, urlToOpen: URL? = nil) {
        self.value = value
        self.urlToOpen = urlToOpen
    }

    /// A result that is a value.
    public static func value(_ value: Value) -> IntentResult { IntentResult(value: value) }

    /// A result with no value.
    public static var nothing: IntentResult { IntentResult(value: .nothing) }

    /// "Open this URL": Relay opens `url` after `perform`, and the step outputs it.
    public static func open(_ url: URL) -> IntentResult { IntentResult(value: .url(url), urlToOpen: url) }
}

/// An error an intent reports; Relay shows the message with the step's name and location.
public struct IntentError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// Seconds the failure asked to wait before trying again (an HTTP 429 or 503 with
    /// `Retry-After`): a step's `retry:` waits that long, within its `max-delay`.
    public let retryAfter: Double?
    public init(_ message: String, retryAfter: Double? = nil) {
        self.message = message
        self.retryAfter = retryAfter
    }
    public var description: String { message }

    /// What `attempt` throws, as a message, or nil when it succeeds: a parameter's `check` made of
    /// the code that reads the value for real, so the checker and the action agree.
    public static func problem(_ attempt: () throws -> Void) -> String? {
        do {
            try attempt()
            return nil
        } catch let error as IntentError {
            return error.message
        } catch {
            return "\(error)"
        }
    }
}

/// Thrown when a person declines a confirmation or cancels a choice: the run ends with exit status 3.
public struct RunCancelled: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
