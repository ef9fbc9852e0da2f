import Foundation
import OrderedCollections

/// An insertion-ordered dictionary of values, as workflows see dictionaries.
public typealias ValueDictionary = OrderedDictionary<String, Value>

/// A value flowing through a workflow: the output of one step and the input of the next.
public enum Value: Sendable, Hashable {
    case nothing
    case text(String)
    case number(Double)
    case boolean(Bool)
    case date(Date)
    case url(URL)
    // Boxed: a file reference is 88 bytes, and every value would be as big (a list of a million
    // numbers took 88 MB rather than 32).
    indirect case file(FileReference)
    case richText(RichText)
    case list([Value])
    case dictionary(ValueDictionary)
    case entity(EntityValue)

    /// The type of this value.
    public var type: ValueType {
        switch self {
        case .nothing: .nothing
        case .text: .text
        case .number: .number
        case .boolean: .boolean
        case .date: .date
        case .url: .url
        case .file: .file
        case .richText: .richText
        case .list: .list
        case .dictionary: .dictionary
        case .entity(let entity): .entity(entity.typeName)
        }
    }

    /// Whether this is `nothing`.
    public var isNothing: Bool {
        if case .nothing = self { return true }
        return false
    }

    /// The value as a list: a list stays itself, `nothing` is empty, anything else is a list of one.
    public var asList: [Value] {
        switch self {
        case .list(let items): items
        case .nothing: []
        default: [self]
        }
    }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(arrayLiteral elements: Value...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, Value)...) {
        self = .dictionary(ValueDictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
