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

func littleEndian(_ value: UInt64, size: Int) -> [UInt8] {
    (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
}

/// An Apple Archive of regular files, each a header of typed fields and its data.
func appleArchive(_ files: [(path: String, data: [UInt8])]) -> [UInt8] {
    files.flatMap { file in
        let path = Array(file.path.utf8)
        let fields = Array("TYP1".utf8) + [UInt8(ascii: "F")] + Array("PATP".utf8) + littleEndian(UInt64(path.count), size: 2) + path
            + Array("DATB".utf8) + littleEndian(UInt64(file.data.count), size: 4)
        return Array("AA01".utf8) + littleEndian(UInt64(6 + fields.count), size: 2) + fields + file.data
    }
}

/// A signed shortcut file made in the test, laid out as the Shortcuts app lays one out but
/// stored without compression unless `compression` says otherwise, in segments of `segmentSize`
/// bytes, 32 to a cluster, without checksums, and MACs and signature left zero (Relay does not
/// check them). `originalSize` and `profile` may lie.
func signedShortcut(
    _ archive: [UInt8], profile: UInt64 = 0, compression: Character = "-", segmentSize: Int = 1024, originalSize: UInt64? = nil
) -> Data {
    let perCluster = 32
    var body: [UInt8] = []
    var offset = 0
    while offset < archive.count {
        var headers: [UInt8] = []
        var data: [UInt8] = []
        for _ in 0..<perCluster {
            let segment = Array(archive[min(offset, archive.count)..<min(offset + segmentSize, archive.count)])
            offset += segment.count
            // A segment said to be compressed claims twice its size once decompressed.
            let plainSize = compression == "-" ? segment.count : 2 * segment.count
            headers += littleEndian(UInt64(plainSize), size: 4) + littleEndian(UInt64(segment.count), size: 4)
            data += segment
        }
        body += headers + [UInt8](repeating: 0, count: 32 + 32 * perCluster) + data
    }
    let root = littleEndian(originalSize ?? UInt64(archive.count), size: 8) + littleEndian(0, size: 8) + littleEndian(UInt64(segmentSize), size: 4)
        + littleEndian(UInt64(perCluster), size: 4) + [compression.asciiValue ?? 0, 0] + [UInt8](repeating: 0, count: 22)
    let prologue = Array("AEA1".utf8) + littleEndian(profile, size: 3) + [0] + littleEndian(0, size: 4) + [UInt8](repeating: 0, count: 128 + 32 + 32 + 32)
        + root + [UInt8](repeating: 0, count: 32)
    return Data(prologue + body)
}
