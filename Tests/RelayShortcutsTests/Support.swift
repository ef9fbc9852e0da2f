import Foundation
import RelayActions
import RelayKit
import RelayLanguage
import RelayShortcuts

/// The built-in registry, made once.
let builtinRegistry: ActionRegistry = {
    var registry = ActionRegistry()
    try? registry.register(BuiltinActions.self, prefixed: false)
    return registry
}()

/// The folder of the shortcut files kept for the tests (`Tests/Shortcuts`).
let shortcutsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Shortcuts").path

/// A shortcut (its property list) made in the test, as XML.
func shortcutData(_ actions: [[String: Any]], extra: [String: Any] = [:]) throws -> Data {
    var root: [String: Any] = ["WFWorkflowActions": actions, "WFWorkflowImportQuestions": [Any](), "WFWorkflowInputContentItemClasses": [Any]()]
    for (key, value) in extra { root[key] = value }
    return try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
}

/// An action of a shortcut made in the test.
func action(_ identifier: String, _ parameters: [String: Any] = [:]) -> [String: Any] {
    ["WFWorkflowActionIdentifier": "is.workflow.actions." + identifier, "WFWorkflowActionParameters": parameters]
}

/// Imports `data` with the built-in actions.
func imported(_ data: Data, partial: Bool = false) throws -> ShortcutImport {
    try ShortcutImporter(actions: builtinRegistry.actions).convert(try Shortcut.read(data), name: "test", partial: partial)
}

/// A binary property list made byte by byte (Foundation's writer cannot make a broken one):
/// `objects` in order, each already encoded, references 4 bytes wide.
func binaryPropertyList(_ objects: [[UInt8]], top: Int = 0) -> Data {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
        offsets.append(bytes.count)
        bytes += object
    }
    let table = bytes.count
    for offset in offsets { bytes += bigEndian(UInt64(offset), size: 4) }
    bytes += [0, 0, 0, 0, 0, 0, 4, 4]
    bytes += bigEndian(UInt64(objects.count), size: 8) + bigEndian(UInt64(top), size: 8) + bigEndian(UInt64(table), size: 8)
    return Data(bytes)
}

func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
    (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
}

/// A binary property list array of `references` (a count over 14 written as an integer).
func binaryArray(_ references: [Int]) -> [UInt8] {
    let count = references.count
    let head: [UInt8] = count < 15 ? [0xA0 | UInt8(count)] : [0xAF, 0x12] + bigEndian(UInt64(count), size: 4)
    return head + references.flatMap { bigEndian(UInt64($0), size: 4) }
}
