import Foundation

/// The name an entity has for an assistant: `relay://TYPE/ID`, its type's singular name and its
/// identifier, percent-encoded (Docs/Assistants.md, "Entities"). A tool's entity argument and a
/// workflow's text take it as that entity.
public enum EntityResourceName {
    public static let scheme = "relay://"

    /// The name of the entity `id` of type `type`.
    public static func of(type: String, id: String) -> String {
        scheme + type + "/" + (id.addingPercentEncoding(withAllowedCharacters: unreserved) ?? id)
    }

    /// The type and identifier `text` names, when it is such a name.
    public static func parse(_ text: String) -> (type: String, id: String)? {
        // An identifier of up to `longestID` bytes, each written as `%XX` at most, and a type's name.
        guard text.hasPrefix(scheme), text.utf8.count <= scheme.utf8.count + 200 + 3 * longestID else { return nil }
        let rest = text.dropFirst(scheme.count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let type = String(rest[..<slash])
        let encoded = String(rest[rest.index(after: slash)...])
        guard !type.isEmpty, type.utf8.count <= 200, !encoded.isEmpty, type.unicodeScalars.allSatisfy({ $0.isASCII && $0 != "%" }),
            let id = encoded.removingPercentEncoding, !id.isEmpty, id.utf8.count <= longestID
        else { return nil }
        return (type, id)
    }

    /// The longest identifier a name holds, in bytes.
    public static let longestID = 4_096

    /// What stands in an identifier as it is: letters, digits, `-`, `.`, `_`, `~`.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
