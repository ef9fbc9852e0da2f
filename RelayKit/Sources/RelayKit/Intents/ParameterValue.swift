import Foundation
import OrderedCollections

/// A Swift type an intent parameter can have. Relay converts the workflow's value to
/// `valueType` first (Docs/Language.md, "Types and conversion"), then builds the Swift value from the converted value.
public protocol ParameterValue: Sendable {
    /// The workflow type this Swift type stands for.
    static var valueType: ValueType { get }
    /// Whether a workflow may leave the parameter out (true for optionals).
    static var isOptional: Bool { get }
    /// What an unset optional parameter reads as; nil for types with no empty value (entities),
    /// whose parameters Relay always sets before `perform`.
    static var emptyValue: Self? { get }
    /// Builds the Swift value from a value already converted to `valueType`.
    init(parameterValue: Value) throws(CoercionError)
    /// The value as a workflow value, for defaults shown by `relay describe`.
    var parameterValue: Value { get }
    /// The only texts a value may be (an `AppEnum`'s cases), matched exactly; nil for any.
    static var cases: [String]? { get }
    /// The name people see for each of `cases` that has one apart from its raw value.
    static var caseTitles: [String: String] { get }
    /// For a list type (`[Trail]`), the type of each item, which Relay converts each item to;
    /// nil for any other type and for a list of any values.
    static var itemType: ValueType? { get }
}

extension ParameterValue {
    public static var isOptional: Bool { false }
    public static var cases: [String]? { nil }
    public static var caseTitles: [String: String] { [:] }
    public static var itemType: ValueType? { nil }
}

/// A fixed set of named values, in the manner of App Intents' `AppEnum`: a `String` enum that
/// is `CaseIterable` is a parameter or property type whose cases the checker, `describe`,
/// completion and filters know, matched exactly (case counts), with a did-you-mean.
///
/// ```swift
/// enum Genre: String, AppEnum { case fantasy, scienceFiction = "science fiction", mystery }
/// ```
///
/// A case's raw value is what workflows hold and compare; `caseDisplayRepresentations` gives one
/// the name people see, which `relay describe`, completion and messages show and which a
/// workflow may write instead of the raw value (App Intents' `caseDisplayRepresentations`):
///
/// ```swift
/// enum Status: String, AppEnum {
///     case open, inProgress = "in-progress", closed
///     static let caseDisplayRepresentations: [Status: DisplayRepresentation] = [.inProgress: "In Progress"]
/// }
/// ```
public protocol AppEnum: ParameterValue, RawRepresentable<String>, CaseIterable, Hashable {
    /// The name people see for a case, where it is not its raw value. None by default.
    static var caseDisplayRepresentations: [Self: DisplayRepresentation] { get }
}

extension AppEnum {
    public static var caseDisplayRepresentations: [Self: DisplayRepresentation] { [:] }
    public static var valueType: ValueType { .text }
    public static var emptyValue: Self? { nil }
    public static var cases: [String]? { allCases.map(\.rawValue) }
    public static var caseTitles: [String: String] {
        var titles: [String: String] = [:]
        for (value, display) in caseDisplayRepresentations where display.title != value.rawValue { titles[value.rawValue] = display.title }
        return titles
    }
    public var parameterValue: Value { .text(rawValue) }

    public init(parameterValue: Value) throws(CoercionError) {
        let text = parameterValue.textValue
        guard let found = Self(rawValue: text) ?? Self.caseDisplayRepresentations.first(where: { $0.value.title == text })?.key else {
            let names = Self.allCases.map(\.rawValue)
            throw CoercionError(
                value: parameterValue, target: .text,
                reason: "it is none of \(names.map { "'\($0)'" }.joined(separator: ", "))\(Suggestions.didYouMean(text, in: names))")
        }
        self = found
    }
}

extension String: ParameterValue {
    public static var valueType: ValueType { .text }
    public static var emptyValue: String? { "" }
    public init(parameterValue: Value) throws(CoercionError) { self = parameterValue.textValue }
    public var parameterValue: Value { .text(self) }
}

extension Double: ParameterValue {
    public static var valueType: ValueType { .number }
    public static var emptyValue: Double? { 0 }
    public init(parameterValue: Value) throws(CoercionError) { self = try parameterValue.numberValue() }
    public var parameterValue: Value { .number(self) }
}

extension Int: ParameterValue {
    public static var valueType: ValueType { .number }
    public static var emptyValue: Int? { 0 }
    public init(parameterValue: Value) throws(CoercionError) {
        let number = try parameterValue.numberValue()
        guard let whole = Int(exactly: number) else {
            throw CoercionError(value: parameterValue, target: .number, reason: "a whole number (one with no fraction, within ±9.2e18)")
        }
        self = whole
    }
    public var parameterValue: Value { .number(Double(self)) }
}

extension Bool: ParameterValue {
    public static var valueType: ValueType { .boolean }
    public static var emptyValue: Bool? { false }
    public init(parameterValue: Value) throws(CoercionError) { self = try parameterValue.booleanValue() }
    public var parameterValue: Value { .boolean(self) }
}

extension Date: ParameterValue {
    public static var valueType: ValueType { .date }
    public static var emptyValue: Date? { Date(timeIntervalSince1970: 0) }
    public init(parameterValue: Value) throws(CoercionError) { self = try parameterValue.dateValue() }
    public var parameterValue: Value { .date(self) }
}

extension URL: ParameterValue {
    public static var valueType: ValueType { .url }
    public static var emptyValue: URL? { URL(fileURLWithPath: "/") }
    public init(parameterValue: Value) throws(CoercionError) { self = try parameterValue.urlValue() }
    public var parameterValue: Value { .url(self) }
}

extension Value: ParameterValue {
    public static var valueType: ValueType { .any }
    public static var emptyValue: Value? { .nothing }
    public init(parameterValue: Value) { self = parameterValue }
    public var parameterValue: Value { self }
}

/// A list: `[Value]` takes any items; `[Trail]`, `[String]` or `[Int]` has Relay convert each
/// item to the element's type first, by a list's rules (a single value is a list of one, nothing
/// is an empty list; a text names an entity by its title); each item of a list of an `AppEnum`
/// (`[Level]`) is one of its cases, or a case's display name.
extension Array: ParameterValue where Element: ParameterValue {
    public static var valueType: ValueType { .list }
    public static var itemType: ValueType? { Element.valueType == .any ? nil : Element.valueType }
    /// A list's choices are its items': each item of a `[Level]` is one of `Level`'s cases.
    public static var cases: [String]? { Element.cases }
    public static var caseTitles: [String: String] { Element.caseTitles }
    public static var emptyValue: [Element]? { [] }
    public init(parameterValue: Value) throws(CoercionError) {
        let items = parameterValue.asList
        if let same = items as? [Element] {
            self = same
            return
        }
        var made: [Element] = []
        made.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            do throws(CoercionError) {
                made.append(try Element(parameterValue: item))
            } catch {
                throw CoercionError(value: parameterValue, target: .list, reason: "item \(index + 1): \(error)")
            }
        }
        self = made
    }
    public var parameterValue: Value {
        if let same = self as? [Value] { return .list(same) }
        return .list(map(\.parameterValue))
    }
}

extension ValueDictionary: ParameterValue {
    public static var valueType: ValueType { .dictionary }
    public static var emptyValue: ValueDictionary? { [:] }
    public init(parameterValue: Value) throws(CoercionError) { self = try parameterValue.dictionaryValue() }
    public var parameterValue: Value { .dictionary(self) }
}

extension Optional: ParameterValue where Wrapped: ParameterValue {
    public static var valueType: ValueType { Wrapped.valueType }
    public static var cases: [String]? { Wrapped.cases }
    public static var caseTitles: [String: String] { Wrapped.caseTitles }
    public static var itemType: ValueType? { Wrapped.itemType }
    public static var isOptional: Bool { true }
    public static var emptyValue: Wrapped?? { .some(nil) }
    public init(parameterValue: Value) throws(CoercionError) {
        self = parameterValue.isNothing ? nil : try Wrapped(parameterValue: parameterValue)
    }
    public var parameterValue: Value { self?.parameterValue ?? .nothing }
}

extension RichText: ParameterValue {
    public static var valueType: ValueType { .richText }
    public static var emptyValue: RichText? { RichText(blocks: []) }
    public init(parameterValue: Value) throws(CoercionError) { self = try parameterValue.richTextValue() }
    public var parameterValue: Value { .richText(self) }
}

extension FileReference: ParameterValue {
    public static var valueType: ValueType { .file }
    public static var emptyValue: FileReference? { FileReference(path: "/") }
    public init(parameterValue: Value) throws(CoercionError) { self = try parameterValue.fileValue() }
    public var parameterValue: Value { .file(self) }
}
