import Foundation
import RelayKit

/// Why a shortcut file cannot be read or imported: where (the action's number, from 1, as the
/// Shortcuts app counts them) and what.
public struct ShortcutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The action the problem is at, from 1; nil for the file as a whole.
    public let action: Int?
    public let message: String

    public init(action: Int? = nil, _ message: String) {
        self.action = action
        self.message = message
    }

    public var description: String { action.map { "action \($0): \(message)" } ?? message }

    static func damaged(_ what: String) -> ShortcutError { ShortcutError("not a readable property list: \(what)") }
    static func tooMany() -> ShortcutError {
        ShortcutError("the property list holds more than \(Limits.shortcutValues) values once read (Docs/Reliability.md, \"Limits\")")
    }
    static func tooDeep(_ limit: Int) -> ShortcutError {
        ShortcutError("the property list nests deeper than \(limit) levels (Docs/Reliability.md, \"Limits\")")
    }
}

/// A value of a property list, as a shortcut file holds it.
public indirect enum PropertyValue: Sendable, Equatable {
    case text(String)
    case integer(Int)
    case real(Double)
    case boolean(Bool)
    case date(Date)
    case data(Data)
    case list([PropertyValue])
    case dictionary([String: PropertyValue])

    public subscript(key: String) -> PropertyValue? {
        if case .dictionary(let entries) = self { return entries[key] }
        return nil
    }

    public var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// A number, a boolean or a text as the plain text Shortcuts would show.
    public var plainText: String? {
        switch self {
        case .text(let text): text
        case .integer(let number): String(number)
        case .real(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .boolean(let value): value ? "true" : "false"
        default: nil
        }
    }

    public var integer: Int? {
        switch self {
        case .integer(let number): number
        case .real(let number) where number == number.rounded() && abs(number) < 1e15: Int(number)
        case .text(let text): Int(text)
        default: nil
        }
    }
}

/// One action of a shortcut: its number (from 1), its identifier and its parameters.
public struct ShortcutAction: Sendable, Equatable {
    public let number: Int
    public let identifier: String
    public let parameters: [String: PropertyValue]

    /// The identifier without Apple's prefix, for messages: `gettext`.
    public var shortIdentifier: String {
        identifier.hasPrefix("is.workflow.actions.") ? String(identifier.dropFirst("is.workflow.actions.".count)) : identifier
    }
}

/// A question the Shortcuts app asks when the shortcut is added: the value of one parameter of
/// one action.
public struct ImportQuestion: Sendable, Equatable {
    public let action: Int
    public let parameter: String
    public let text: String
    public let defaultValue: PropertyValue?
}

/// An exported shortcut, read (Docs/Shortcuts.md, "What is read").
public struct Shortcut: Sendable, Equatable {
    public var name: String?
    public var actions: [ShortcutAction]
    /// The content item classes it accepts as input (`WFStringContentItem` …).
    public var inputClasses: [String]
    /// The icon's colour (Shortcuts' packed RGBA number) and glyph.
    public var iconColor: Int?
    public var iconGlyph: Int?
    public var questions: [ImportQuestion]

    /// Reads a shortcut from the bytes of a `.shortcut`, `.plist` or `.wflow` file: an XML or
    /// binary property list, or a signed file (iOS 15 and later) that holds one.
    public static func read(_ data: Data) throws(ShortcutError) -> Shortcut {
        guard data.count <= Limits.shortcutBytes else {
            throw ShortcutError("the file is \(data.count) bytes; a shortcut file may have at most \(Limits.shortcutBytes) (Docs/Reliability.md, \"Limits\")")
        }
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("AEA1".utf8)) {
            let inner = try SignedShortcut.propertyList(bytes)
            guard !inner.starts(with: Array("AEA1".utf8)) else { throw SignedShortcut.damaged("it holds another signed file, not a property list") }
            return try read(inner)
        }
        guard bytes.starts(with: Array("bplist00".utf8)) || bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: Array("<plist".utf8))
            || bytes.starts(with: [0xEF, 0xBB, 0xBF])
        else {
            throw ShortcutError("not a shortcut: a shortcut file is an XML or binary property list (it starts with '<?xml' or 'bplist00')")
        }
        try PropertyListShape.check(bytes)
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw ShortcutError.damaged("\((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "the reader refused it")")
        }
        // The actions are counted before any is converted: a list of a million is refused at once.
        guard let top = object as? [String: Any] else { throw ShortcutError("not a shortcut: the property list is not a dictionary") }
        guard let listed = top["WFWorkflowActions"] as? [Any] else {
            throw ShortcutError("not a shortcut: the property list has no WFWorkflowActions list")
        }
        guard listed.count <= Limits.shortcutActions else {
            throw ShortcutError("the shortcut has \(listed.count) actions; at most \(Limits.shortcutActions) are read (Docs/Reliability.md, \"Limits\")")
        }
        var root: [String: PropertyValue] = [:]
        for key in ["WFWorkflowImportQuestions", "WFWorkflowInputContentItemClasses", "WFWorkflowIcon", "WFWorkflowName"] {
            if let value = top[key] { root[key] = try PropertyValue(value, depth: 1) }
        }
        var actions: [ShortcutAction] = []
        actions.reserveCapacity(listed.count)
        for (index, object) in listed.enumerated() {
            let entry = try PropertyValue(object, depth: 1)
            guard let identifier = entry["WFWorkflowActionIdentifier"]?.text else {
                throw ShortcutError(action: index + 1, "the action has no WFWorkflowActionIdentifier")
            }
            var parameters: [String: PropertyValue] = [:]
            if let given = entry["WFWorkflowActionParameters"] {
                guard case .dictionary(let entries) = given else {
                    throw ShortcutError(action: index + 1, "WFWorkflowActionParameters is not a dictionary")
                }
                parameters = entries
            }
            actions.append(ShortcutAction(number: index + 1, identifier: identifier, parameters: parameters))
        }
        var questions: [ImportQuestion] = []
        if case .list(let asked) = root["WFWorkflowImportQuestions"] {
            for question in asked {
                guard let index = question["ActionIndex"]?.integer, let key = question["ParameterKey"]?.text, index >= 0, index < actions.count else { continue }
                questions.append(
                    ImportQuestion(action: index + 1, parameter: key, text: question["Text"]?.text ?? key, defaultValue: question["DefaultValue"]))
            }
        }
        var classes: [String] = []
        if case .list(let given) = root["WFWorkflowInputContentItemClasses"] { classes = given.compactMap(\.text) }
        return Shortcut(
            name: root["WFWorkflowName"]?.text, actions: actions, inputClasses: classes,
            iconColor: root["WFWorkflowIcon"]?["WFWorkflowIconStartColor"]?.integer,
            iconGlyph: root["WFWorkflowIcon"]?["WFWorkflowIconGlyphNumber"]?.integer, questions: questions)
    }
}

extension PropertyValue {
    /// Converts what Foundation's reader gives; `depth` only guards, the file's shape was checked.
    init(_ object: Any, depth: Int) throws(ShortcutError) {
        guard depth <= Limits.shortcutDepth else { throw ShortcutError.tooDeep(Limits.shortcutDepth) }
        switch object {
        case let text as String: self = .text(text)
        case let data as Data: self = .data(data)
        case let date as Date: self = .date(date)
        case let list as [Any]:
            var items: [PropertyValue] = []
            items.reserveCapacity(list.count)
            for item in list { items.append(try PropertyValue(item, depth: depth + 1)) }
            self = .list(items)
        case let entries as [String: Any]:
            var converted: [String: PropertyValue] = [:]
            converted.reserveCapacity(entries.count)
            for (key, value) in entries { converted[key] = try PropertyValue(value, depth: depth + 1) }
            self = .dictionary(converted)
        case let flag as Bool where type(of: object) == Bool.self:
            self = .boolean(flag)
        case let number as NSNumber:
            self = PropertyValue.number(number)
        default:
            throw ShortcutError.damaged("a value of a kind property lists do not have")
        }
    }

    /// A boolean, a whole number or a real, as the reader tagged the number.
    private static func number(_ number: NSNumber) -> PropertyValue {
        switch String(cString: number.objCType) {
        case "c", "B": return .boolean(number.boolValue)
        case "f", "d": return .real(number.doubleValue)
        default: return .integer(number.intValue)
        }
    }
}
