import Foundation

extension FileReference {
    /// The properties every file has (Docs/Language.md, "Variables and expressions").
    public static let properties: [(name: String, type: ValueType)] = [
        ("name", .text), ("stem", .text), ("path", .text), ("url", .url), ("extension", .text), ("size", .number),
        ("created", .date), ("modified", .date), ("type", .text), ("mimeType", .text),
    ]
    public static let propertyNames = properties.map(\.name)

    /// A property of Docs/Language.md, "Variables and expressions" (`propertyNames`), nil for other names.
    func property(_ name: String) throws(ValueAccessError) -> Value? {
        switch name {
        case "name": return .text(self.name)
        case "stem":
            let name = self.name, ext = fileExtension
            return .text(ext.isEmpty || name == "." + ext ? name : String(name.dropLast(ext.count + 1)))
        case "path": return .text(path)
        case "url": return .url(URL(fileURLWithPath: path))
        case "mimeType": return .text(contentType.mimeType ?? "application/octet-stream")
        case "extension": return .text(fileExtension)
        case "type": return .text(contentType.identifier)
        case "size":
            let size = (try attributes()[.size] as? NSNumber)?.doubleValue ?? 0
            return .number(size)
        case "created":
            let attributes = try attributes()
            return ((attributes[.creationDate] ?? attributes[.modificationDate]) as? Date).map { .date($0) } ?? .nothing
        case "modified":
            return (try attributes()[.modificationDate] as? Date).map { .date($0) } ?? .nothing
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
