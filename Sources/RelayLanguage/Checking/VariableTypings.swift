import RelayKit
import Synchronization

/// What a check found of the workflow's variables' types, for an editor (Docs/Editors.md): each
/// variable set in one place by a step whose output type is known, with that type and the line
/// that sets it — the same types the checker holds the workflow's steps to.
public final class VariableTypings: Sendable {
    /// A variable's type, its items' when it is a list of known items, and the line (from 1) of
    /// the step that sets it.
    public struct Typing: Sendable, Equatable {
        public let type: ValueType
        public let item: ValueType?
        public let line: Int

        /// How messages say the type: `a list of files`, `a number`.
        public var described: String {
            if type == .list, let item { return "a list of \(Checker.plural(item))" }
            return type.withArticle
        }
    }

    /// A block's variable (a `for-each`'s) with its type within the block's lines.
    struct Scoped: Sendable {
        let name: String
        let typing: Typing
        let lines: ClosedRange<Int>
    }

    private struct Found {
        var variables: [String: Typing] = [:]
        var scoped: [Scoped] = []
        var entityTypes = EntityCatalog()
        var checked = false
    }

    private let found = Mutex(Found())

    public init() {}

    func keep(_ variables: [String: (type: ValueType, item: ValueType?, line: Int)], scoped: [Scoped], entityTypes: EntityCatalog) {
        let typings = variables.mapValues { Typing(type: $0.type, item: $0.item, line: $0.line) }
        found.withLock { $0 = Found(variables: typings, scoped: scoped, entityTypes: entityTypes, checked: true) }
    }

    /// Whether a check got as far as the types: not when the workflow did not parse.
    public var isChecked: Bool { found.withLock { $0.checked } }

    /// The type of a variable (`["files"]`) or of a chain of properties of one (`["files",
    /// "count"]`), when the check knows it, as it is on `line` (from 1; inside a loop, its
    /// variable is the item); the typing's line is the variable's.
    public func typing(of path: [String], on line: Int? = nil) -> Typing? {
        let (variables, scoped, entityTypes) = found.withLock { ($0.variables, $0.scoped, $0.entityTypes) }
        guard let name = path.first else { return nil }
        // The innermost loop around the line whose variable it is, else the workflow's variable.
        let loops = line.map { line in scoped.filter { $0.name == name && $0.lines.contains(line) } } ?? []
        guard var typing = loops.min(by: { $0.lines.count < $1.lines.count })?.typing ?? variables[name] else { return nil }
        let typer = PropertyTyping(entityTypes: entityTypes)
        for property in path.dropFirst() {
            guard case .known(let type, let item) = typer.property(property, of: typing.type, item: typing.item) else { return nil }
            typing = Typing(type: type, item: item, line: typing.line)
        }
        return typing
    }

    /// The properties that a value at `path` (as for `typing(of:)`) has, each with its type when
    /// that is known: a list's own, then its items'.
    public func properties(of path: [String], on line: Int? = nil) -> [(name: String, type: Typing?)] {
        guard let typing = typing(of: path, on: line) else { return [] }
        let typer = PropertyTyping(entityTypes: found.withLock { $0.entityTypes })
        return typer.names(of: typing.type, item: typing.item).map { name in (name, self.typing(of: path + [name], on: line)) }
    }
}
