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

    private(set) var contentTypes: OrderedDictionary<String, ContentTypeRegistry.Entry> = [:]
    private(set) var fileProperties: [FilePropertyReader] = []

    public init() {}

    /// Adds content types; a built-in identifier, or one declared already, is not redeclared.
    public mutating func declare(_ declarations: [ContentTypeDeclaration]) {
        for declaration in declarations
        where !ContentTypeRegistry.isBuiltIn(declaration.type) && contentTypes[declaration.type.identifier] == nil {
            contentTypes[declaration.type.identifier] = ContentTypeRegistry.Entry(
                type: declaration.type, parents: declaration.conformsTo, extensions: declaration.extensions.map { $0.lowercased() },
                mimeTypes: declaration.mimeTypes, shortNames: [])
        }
    }

    /// Adds file property readers; the first for a content type and name is kept.
    public mutating func add(_ readers: [FilePropertyReader]) {
        for reader in readers where !fileProperties.contains(where: { $0.contentType == reader.contentType && $0.name == reader.name }) {
            fileProperties.append(reader)
        }
    }

    /// Runs `body` with these declarations current.
    public func using<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$current.withValue(self, operation: body)
    }

    /// Runs `body`, and every task it starts, with these declarations current.
    public func using<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        try await Self.$current.withValue(self, operation: body)
    }
}
