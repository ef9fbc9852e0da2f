import Foundation
import RelayKit

/// An entity's resource name as an assistant sends it (`relay://note/ID`, Docs/Assistants.md,
/// "Entities"): read, it is a type and an identifier that, named again, read back the same; and
/// whatever type and identifier the bytes give, their name reads back as them.
enum ResourceNameHarness {
    static func check(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        if let (type, id) = EntityResourceName.parse(text) {
            guard let again = EntityResourceName.parse(EntityResourceName.of(type: type, id: id)), again == (type, id) else {
                return "'\(text)' read as \(type) '\(id)', whose name does not read back the same"
            }
        }
        // The first line a type (when it can be one), the rest an identifier.
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !parts[0].contains("/"), !parts[0].contains("%"),
            parts[0].unicodeScalars.allSatisfy(\.isASCII), parts[0].utf8.count <= 200, parts[1].utf8.count <= EntityResourceName.longestID
        else { return nil }
        let name = EntityResourceName.of(type: parts[0], id: parts[1])
        guard let read = EntityResourceName.parse(name), read == (parts[0], parts[1]) else {
            return "\(parts[0]) '\(parts[1])' is named \(name), which reads back as \(String(describing: EntityResourceName.parse(name)))"
        }
        return nil
    }
}
