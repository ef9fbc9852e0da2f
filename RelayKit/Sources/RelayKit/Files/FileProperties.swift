import Foundation
package import CFileStatus

extension FileReference {
    /// The properties every file has (Docs/Language.md, "Variables and expressions").
    public static let properties: [(name: String, type: ValueType)] = [
        ("name", .text), ("stem", .text), ("path", .text), ("url", .url), ("extension", .text), ("size", .number),
        ("created", .date), ("modified", .date), ("type", .text), ("mimeType", .text),
    ]
    public static let propertyNames = properties.map(\.name)

    /// A property of Docs/Language.md, "Variables and expressions" (`propertyNames`), nil for other names.
    func property(_ name: String) throws(ValueAccessError) -> Value? {
        let path = self.path
        if let value = Self.pathProperty(name, of: path) { return value }
        switch name {
        case "mimeType": return .text(contentType.mimeType ?? "application/octet-stream")
        case "type": return .text(contentType.identifier)
        case "size", "created", "modified":
            var status = relay_file_status()
            guard relay_file_status_of(path, 1, &status) == 0 else { throw ValueAccessError("the file '\(shownPath)' no longer exists") }
            switch name {
            case "size": return .number(Double(status.size))
            case "modified": return .date(Self.modified(status))
            default: return .date(Self.created(status))
            }
        case "width", "height":
            guard contentType.conforms(to: .image) else { return nil }
            guard let size = ImageDimensions.read(self) else {
                throw ValueAccessError("cannot read the size of the image '\(self.name)'")
            }
            return .number(Double(name == "width" ? size.width : size.height))
        default:
            let type = contentType
            guard let reader = FilePropertyReaders.reader(for: type, named: name) else { return nil }
            guard case .now(let read) = reader.read else {
                throw ValueAccessError("'\(name)' of '\(self.name)' is read by its package's host, which only a step, a filter or a sort waits for")
            }
            do {
                return try read(self)
            } catch {
                throw ValueAccessError("cannot read '\(name)' of '\(self.name)': \(error)")
            }
        }
    }

    /// A property its package reads by waiting (`FilePropertyReader.waits`), or nil for any other.
    func fetchedProperty(_ name: String) async throws -> Value? {
        guard let reader = FilePropertyReaders.reader(for: contentType, named: name), reader.waits else { return nil }
        do {
            return try await reader.value(of: self)
        } catch let error as RunCancelled {
            throw error
        } catch {
            throw ValueAccessError("cannot read '\(name)' of '\(self.name)': \(error)")
        }
    }

    /// The file's text (Docs/Language.md, "Types and conversion" file → text): the contents of a text file as UTF-8.
    func text(for value: Value) throws(CoercionError) -> String {
        let type = contentType
        guard type.conforms(to: .text), !type.conforms(to: .rtf) else {
            throw CoercionError(value: value, target: .text, reason: "'\(name)' is \(type.identifier), not a text file")
        }
        let data: Data
        do {
            data = try contents()
        } catch {
            throw CoercionError(value: value, target: .text, reason: error.message)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CoercionError(value: value, target: .text, reason: "'\(name)' is not UTF-8 text")
        }
        return text
    }
}

extension FileReference {
    /// The properties a file's path alone tells (name, stem, extension, path, url); nil for others.
    /// `name`: the path's last part, when the caller has it.
    package static func pathProperty(_ property: String, of path: String, name known: String? = nil) -> Value? {
        switch property {
        case "name": return .text(known ?? lastComponent(of: path))
        case "stem":
            let name = known ?? lastComponent(of: path), ext = extensionOf(name)
            return .text(ext.isEmpty ? name : String(name.utf8.dropLast(ext.utf8.count + 1)) ?? name)
        case "path": return .text(path)
        case "url": return .url(URL(fileURLWithPath: path))
        case "extension": return .text(extensionOf(known ?? lastComponent(of: path)))
        default: return nil
        }
    }

    /// The properties a file's name alone tells (name, stem, extension); nil for others.
    public static func nameProperty(_ property: String, name: String) -> Value? {
        ["name", "stem", "extension"].contains(property) ? pathProperty(property, of: name, name: name) : nil
    }

    /// The last part of a path (`NSString.lastPathComponent`, without its cost): after the last
    /// `/` that is not at the end.
    public static func lastComponent(of path: String) -> String {
        var utf8 = path.utf8[...]
        while utf8.count > 1, utf8.last == UInt8(ascii: "/") { utf8 = utf8.dropLast() }
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")), utf8.count > 1 else { return String(utf8) ?? path }
        return String(utf8[utf8.index(after: slash)...]) ?? path
    }

    /// The folder part of a path (`NSString.deletingLastPathComponent`, without its cost for the
    /// absolute, standardized paths Relay works with): before the last `/`, or `/`.
    public static func folderPart(of path: String) -> String {
        guard isStandardized(path), let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else {
            return (path as NSString).deletingLastPathComponent
        }
        return slash == path.utf8.startIndex ? "/" : String(path.utf8[..<slash]) ?? (path as NSString).deletingLastPathComponent
    }

    /// `folder` + `/` + `name` (`NSString.appendingPathComponent` for a plain name).
    public static func joining(_ folder: String, _ name: String) -> String {
        guard isStandardized(folder) || folder == "/", !name.isEmpty, !name.contains("/") else {
            return (folder as NSString).appendingPathComponent(name)
        }
        return folder == "/" ? "/" + name : folder + "/" + name
    }

    /// A name's extension as `NSString.pathExtension` gives it: after the last `.`, unless the
    /// name starts with it, ends with it, or the rest is empty.
    static func extensionOf(_ name: String) -> String {
        let utf8 = name.utf8
        guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")), dot != utf8.startIndex else { return "" }
        let after = utf8.index(after: dot)
        guard after != utf8.endIndex else { return "" }
        return String(utf8[after...]) ?? ""
    }
}

extension FileReference {
    /// When a file was last changed, by its status.
    package static func modified(_ status: relay_file_status) -> Date { date(status.modified_seconds, status.modified_nanoseconds) }

    /// When a file's status last changed (a rename or a copy into its folder sets it on Linux).
    package static func statusChanged(_ status: relay_file_status) -> Date { date(status.changed_seconds, status.changed_nanoseconds) }

    /// When a file was made, where the file system records it (its birth time); else the earlier
    /// of its modification and status-change times.
    package static func created(_ status: relay_file_status) -> Date {
        status.has_birth_time != 0 ? date(status.born_seconds, status.born_nanoseconds) : min(modified(status), statusChanged(status))
    }

    private static func date(_ seconds: Int64, _ nanoseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }
}
