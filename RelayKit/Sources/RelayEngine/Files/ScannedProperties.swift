import Foundation
import RelayKit

extension ScannedFile {
    /// A file property its path and one status tell (name, stem, extension, path, url, size,
    /// created, modified, as a file value reads them); nil for the rest (type, an image's size, a
    /// package's), which need the file opened.
    public func property(_ name: String) -> Value? {
        if let value = FileReference.pathProperty(name, of: path, name: self.name) { return value }
        switch name {
        case "size": return .number(Double(size))
        case "created": return .date(created)
        case "modified": return .date(modified)
        default: return nil
        }
    }
}

extension FolderEntry {
    /// A file property its path alone tells (name, stem, extension, path, url), read without the
    /// file's status; nil for the rest.
    public func pathProperty(_ property: String) -> Value? { FileReference.pathProperty(property, of: path, name: name) }
}
