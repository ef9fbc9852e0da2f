import Foundation

/// How a parameter presents itself: everything about it except its Swift type.
public struct ParameterOptions: Sendable {
    /// The name workflows use; by default the property name in kebab-case (`caseSensitive` → `case-sensitive`).
    public var name: String?
    /// The title people see; by default derived from the name (`featuredCollection` → "Featured Collection").
    public var title: String?
    /// One sentence on what the parameter does.
    public var summary: String
    /// Whether a scalar or sequence written right after the action name fills this parameter.
    public var isPrimary: Bool
    /// Whether the previous step's output fills this parameter when the workflow gives it no value.
    public var isInput: Bool
    /// The only texts the parameter accepts, if it is a choice.
    public var choices: [String]
    /// Whether a text must be one of `choices` exactly (an `AppEnum`'s cases), not in any case.
    public var choicesAreExact: Bool = false
    /// The name people see for a choice, by choice, where it differs (an `AppEnum`'s
    /// `caseDisplayRepresentations`): a workflow may write either.
    public var choiceTitles: [String: String] = [:]
    /// For file parameters: the content types accepted (e.g. `[.image]`); empty accepts any file.
    public var accepts: [ContentType]
    /// What is wrong with a value, or nil when it is fine. The checker asks it about values
    /// written literally in a workflow, so that a bad one is found before anything runs.
    public var check: ParameterCheck?
    /// What is wrong with text written with `${…}` inside, whatever the values turn out to be, or
    /// nil (see `TextPattern`): `calculate`'s unknown function names, found before anything runs.
    public var checkPattern: TextPatternCheck?
    /// What the action does with what the value names: `.read` or `.write` a path (a file value,
    /// or a path as text), `.net` a URL's host, `.open` a URL; nil for a value used as it is.
    public var access: Capability?
    /// For a `.write` parameter edited in place unless a destination is given: the destination
    /// parameter's name. When the step gives it, this parameter's value is only read.
    public var readOnlyWhenGiven: String?
    /// For a parameter that declares no `access`: whether the action may read the files its value
    /// holds, so the run's gate is asked to let each be read before the step (Docs/Security.md,
    /// "At run time"). False for a parameter that looks at the values, never into the files
    /// (`count` counts them).
    public var readsFiles: Bool
    /// Whether the parameter acts on a file that exists before the step (it changes, moves,
    /// renames, copies from or deletes it): it takes a file or a path, never a file made from
    /// another value (Docs/Language.md, "Files acted on").
    public var existing: Bool

    public init(
        name: String? = nil, title: String? = nil, summary: String = "", primary: Bool = false,
        input: Bool = false, choices: [String] = [], accepts: [ContentType] = [], check: ParameterCheck? = nil,
        checkPattern: TextPatternCheck? = nil, access: Capability? = nil, readOnlyWhenGiven: String? = nil,
        readsFiles: Bool = true, existing: Bool = false
    ) {
        self.existing = existing
        self.checkPattern = checkPattern
        self.access = access
        self.readOnlyWhenGiven = readOnlyWhenGiven
        self.readsFiles = readsFiles
        self.accepts = accepts
        self.check = check
        self.name = name
        self.title = title
        self.summary = summary
        self.isPrimary = primary
        self.isInput = input
        self.choices = choices
    }
}

/// Tells what is wrong with a parameter's value, or nil when nothing is.
public typealias ParameterCheck = @Sendable (Value) -> String?

/// Text written with `${…}` inside, as the checker sees it: the pieces written, and where values
/// will go.
public struct TextPattern: Sendable, Equatable {
    public enum Piece: Sendable, Equatable {
        case text(String)
        case value
    }

    public var pieces: [Piece]

    public init(_ pieces: [Piece]) { self.pieces = pieces }
}

/// Tells what is wrong with a text pattern whatever its values, or nil when nothing surely is.
public typealias TextPatternCheck = @Sendable (TextPattern) -> String?

/// A typed parameter of an intent, in the manner of App Intents' `@Parameter`:
///
/// ```swift
/// struct ChangeCase: Intent {
///     @Parameter(input: true) var text: String
///     @Parameter(primary: true, choices: ["upper", "lower", "title"]) var to: String
/// }
/// ```
///
/// A default value (`@Parameter var places: Int = 0`) or an optional type makes the parameter optional.
@propertyWrapper
public struct Parameter<T: ParameterValue>: Sendable {
    @usableFromInline let storage: ParameterStorage<T>

    /// A parameter with a default value. `check` tells what is wrong with a value (nil: nothing);
    /// the checker applies it to values written literally in a workflow, and `checkPattern` to
    /// text written with `${…}` inside.
    @inlinable
    public init(
        wrappedValue: T, name: String? = nil, title: String? = nil, primary: Bool = false, input: Bool = false,
        summary: String = "", choices: [String] = [], accepts: [ContentType] = [], access: Capability? = nil,
        readOnlyWhenGiven: String? = nil, readsFiles: Bool = true, existing: Bool = false,
        check: (@Sendable (T) -> String?)? = nil, checkPattern: TextPatternCheck? = nil
    ) {
        self.init(defaultValue: wrappedValue) {
            Self.withCases(ParameterOptions(
                name: name, title: title, summary: summary, primary: primary, input: input, choices: choices, accepts: accepts,
                check: Self.erased(check), checkPattern: checkPattern, access: access, readOnlyWhenGiven: readOnlyWhenGiven,
                readsFiles: readsFiles, existing: existing))
        }
    }

    /// A parameter without a default value: required unless its type is optional.
    @inlinable
    public init(
        name: String? = nil, title: String? = nil, primary: Bool = false, input: Bool = false, summary: String = "",
        choices: [String] = [], accepts: [ContentType] = [], access: Capability? = nil, readOnlyWhenGiven: String? = nil,
        readsFiles: Bool = true, existing: Bool = false, check: (@Sendable (T) -> String?)? = nil,
        checkPattern: TextPatternCheck? = nil
    ) {
        self.init(defaultValue: nil) {
            Self.withCases(ParameterOptions(
                name: name, title: title, summary: summary, primary: primary, input: input, choices: choices, accepts: accepts,
                check: Self.erased(check), checkPattern: checkPattern, access: access, readOnlyWhenGiven: readOnlyWhenGiven,
                readsFiles: readsFiles, existing: existing))
        }
    }

    /// Registers the parameter with the collector making the intent. Its options are built only
    /// when the intent is described, not when it is made to be performed.
    @inlinable
    init(defaultValue: T?, options: () -> ParameterOptions) {
        let collector = ParameterCollector.current
        storage = ParameterStorage(options: collector?.isPerforming == true ? nil : options(), defaultValue: defaultValue)
        collector?.storages.append(storage)
    }

    /// `options`, with the cases of an `AppEnum` type as its exact choices.
    @usableFromInline
    static func withCases(_ options: ParameterOptions) -> ParameterOptions {
        guard let cases = T.cases else { return options }
        var options = options
        if options.choices.isEmpty {
            options.choices = cases
            options.choiceTitles = T.caseTitles
        }
        options.choicesAreExact = true
        return options
    }

    /// `check` on values of any type: a value that does not convert is the checker's other concern.
    @usableFromInline
    static func erased(_ check: (@Sendable (T) -> String?)?) -> ParameterCheck? {
        // A number parameter is always checked: a literal 2.5 or 1e300 where a whole number is
        // wanted is found by `relay check`, not when the step runs.
        guard check != nil || T.valueType == .number else { return nil }
        return { value in
            do {
                let converted = try T(parameterValue: value)
                return check?(converted)
            } catch {
                return T.valueType == .number ? String(describing: error) : nil
            }
        }
    }

    /// The value the workflow gave, else the default. Inlinable, so that an action reads it
    /// specialized for its type, without looking up the storage's generic type on every read.
    @inlinable
    public var wrappedValue: T {
        get {
            guard let value = storage.value ?? storage.defaultValue ?? T.emptyValue else {
                // Relay sets every parameter without an empty value before `perform` (see `isSet`).
                preconditionFailure("the parameter '\(storage.options.name ?? "?")' was read outside perform")
            }
            return value
        }
        nonmutating set { storage.value = newValue }
    }
}

/// What the runtime sees of a parameter without knowing its Swift type.
@usableFromInline
protocol AnyParameterStorage: AnyObject {
    var options: ParameterOptions { get }
    var valueType: ValueType { get }
    var itemType: ValueType? { get }
    var isRequired: Bool { get }
    var defaultParameterValue: Value? { get }
    /// Whether reading the parameter gives a value: it was set, has a default, or its type has an empty value.
    var isSet: Bool { get }
    func assign(_ value: Value) throws(CoercionError)
}

/// The per-instance box behind a `Parameter`: intents are structs, so the runtime sets values here.
@usableFromInline
final class ParameterStorage<T: ParameterValue>: AnyParameterStorage, @unchecked Sendable {
    /// How the parameter presents itself; nil in an intent made to be performed, which needs none.
    private let describedOptions: ParameterOptions?
    @usableFromInline let defaultValue: T?
    @usableFromInline var value: T?

    @usableFromInline
    init(options: ParameterOptions?, defaultValue: T?) {
        describedOptions = options
        self.defaultValue = defaultValue
    }

    @usableFromInline
    var options: ParameterOptions { describedOptions ?? ParameterOptions() }

    @usableFromInline
    var valueType: ValueType { T.valueType }
    @usableFromInline
    var itemType: ValueType? { T.itemType }
    @usableFromInline
    var isRequired: Bool { defaultValue == nil && !T.isOptional }
    @usableFromInline
    var defaultParameterValue: Value? { defaultValue.map(\.parameterValue) }
    @usableFromInline
    var isSet: Bool { value != nil || defaultValue != nil || T.emptyValue != nil }

    @usableFromInline
    func assign(_ value: Value) throws(CoercionError) {
        self.value = try T(parameterValue: value)
    }
}

/// Gathers the storages of the parameters an intent's `init()` creates, in declaration order, so
/// that performing an action needs no reflection (reflection runs once, when the action is registered).
///
/// An intent made to be performed (`performing`) leaves its parameters' options out: building
/// them is most of what making an intent costs, and only describing the action needs them.
///
/// The collector is the making thread's (`init()` is synchronous, so it runs on one thread from
/// start to end): a task-local value cost a tenth of a quick step's time.
@usableFromInline
final class ParameterCollector: @unchecked Sendable {
    @usableFromInline let isPerforming: Bool
    @usableFromInline var storages: [any AnyParameterStorage] = []

    private init(isPerforming: Bool) {
        self.isPerforming = isPerforming
        storages.reserveCapacity(8)
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The collector of the intent being made on this thread, if one is.
    @usableFromInline static var current: ParameterCollector? {
        pthread_getspecific(key).map { Unmanaged<ParameterCollector>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Makes an intent, returning it with its parameters' storages.
    static func make<I: Intent>(_ intent: I.Type, performing: Bool) -> (I, [any AnyParameterStorage]) {
        let collector = ParameterCollector(isPerforming: performing)
        let outer = pthread_getspecific(key)  // an intent made while making another
        pthread_setspecific(key, Unmanaged.passUnretained(collector).toOpaque())
        let instance = withExtendedLifetime(collector) { I() }
        pthread_setspecific(key, outer)
        return (instance, collector.storages)
    }
}
