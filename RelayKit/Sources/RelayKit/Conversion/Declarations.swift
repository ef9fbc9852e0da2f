import Foundation
import OrderedCollections

/// What the registered packages declare beyond their actions and entity types: content types
/// (`com.example.trail` conforming to `public.data`, with its extensions) and file properties
/// (`distance` of a `.trail` file). A registry holds its own; a run or a check makes them current
/// for its task and the tasks it starts (`using`), so two registries in one process never see
/// each other's (Docs/Architecture.md, "Settings travel with the run").
public struct Declarations: Sendable {
    /// The declarations of the run or check under way; none outside one.
    @TaskLocal public static var current = Declarations()

    /// What is declared, shared by every copy until one declares more.
    private final class Storage: Sendable {
        let contentTypes: OrderedDictionary<String, ContentTypeRegistry.Entry>
        let fileProperties: [FilePropertyReader]

        init(contentTypes: OrderedDictionary<String, ContentTypeRegistry.Entry> = [:], fileProperties: [FilePropertyReader] = []) {
            self.contentTypes = contentTypes
            self.fileProperties = fileProperties
        }
    }

    private var storage = Storage()

    var contentTypes: OrderedDictionary<String, ContentTypeRegistry.Entry> { storage.contentTypes }
    var fileProperties: [FilePropertyReader] { storage.fileProperties }

    public init() {}

    /// Adds content types; a built-in identifier, or one declared already, is not redeclared.
    public mutating func declare(_ declarations: [ContentTypeDeclaration]) {
        var types = storage.contentTypes
        for declaration in declarations where !ContentTypeRegistry.isBuiltIn(declaration.type) && types[declaration.type.identifier] == nil {
            types[declaration.type.identifier] = ContentTypeRegistry.Entry(
                type: declaration.type, parents: declaration.conformsTo, extensions: declaration.extensions.map { $0.lowercased() },
                mimeTypes: declaration.mimeTypes, shortNames: [])
        }
        storage = Storage(contentTypes: types, fileProperties: storage.fileProperties)
    }

    /// Adds file property readers; the first for a content type and name is kept.
    public mutating func add(_ readers: [FilePropertyReader]) {
        var kept = storage.fileProperties
        for reader in readers where !kept.contains(where: { $0.contentType == reader.contentType && $0.name == reader.name }) {
            kept.append(reader)
        }
        storage = Storage(contentTypes: storage.contentTypes, fileProperties: kept)
    }

    /// Whether these are the current declarations already: then nothing needs binding (a
    /// conversion inside a run, every step).
    private var isCurrent: Bool { Self.current.storage === storage }

    /// Runs `body` with these declarations current.
    public func using<T>(_ body: () throws -> T) rethrows -> T {
        if isCurrent { return try body() }
        return try Self.$current.withValue(self, operation: body)
    }

    /// Runs `body`, and every task it starts, with these declarations current.
    public func using<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        if isCurrent { return try await body() }
        return try await Self.$current.withValue(self, operation: body)
    }
}
