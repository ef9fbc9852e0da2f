import Foundation

/// A property some files have beyond Docs/Language.md, "Changing files, and undo"'s common ones, such as a PDF's `pages`, read by a
/// package that knows the format: at once, or by waiting (a package's host reads it).
public struct FilePropertyReader: Sendable {
    public enum Read: Sendable {
        case now(@Sendable (FileReference) throws -> Value)
        case later(@Sendable (FileReference) async throws -> Value)
    }

    public let contentType: ContentType
    public let name: String
    public let read: Read

    public init(contentType: ContentType, name: String, read: @escaping @Sendable (FileReference) throws -> Value) {
        self.contentType = contentType
        self.name = name
        self.read = .now(read)
    }

    /// A property read by waiting: a step, a filter or a sort waits for it.
    public init(contentType: ContentType, name: String, fetch: @escaping @Sendable (FileReference) async throws -> Value) {
        self.contentType = contentType
        self.name = name
        self.read = .later(fetch)
    }

    /// Whether reading the property means waiting.
    public var waits: Bool {
        if case .later = read { true } else { false }
    }

    /// The property of `file`, however it is read.
    public func value(of file: FileReference) async throws -> Value {
        switch read {
        case .now(let read): try read(file)
        case .later(let fetch): try await fetch(file)
        }
    }
}

/// The file property readers of the registered packages (`Declarations.current`): property reads
/// happen deep inside value code (`${file.pages}`, `filter`, `sort`), under the run's declarations.
public enum FilePropertyReaders {
    /// The reader of property `name` for files of `type`, if a package registered one.
    public static func reader(for type: ContentType, named name: String) -> FilePropertyReader? {
        Declarations.current.fileProperties.first { $0.name == name && type.conforms(to: $0.contentType) }
    }

    /// The extra property names files of `type` have.
    static func names(for type: ContentType) -> [String] {
        Declarations.current.fileProperties.filter { type.conforms(to: $0.contentType) }.map(\.name)
    }

    /// Every registered reader.
    public static var all: [FilePropertyReader] { Declarations.current.fileProperties }

    /// Every extra property name any registered reader offers.
    public static var allNames: [String] {
        var names: [String] = []
        for reader in Declarations.current.fileProperties where !names.contains(reader.name) { names.append(reader.name) }
        return names
    }
}
