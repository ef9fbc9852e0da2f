import Foundation
import RelayKit
import RelayEngine

/// Every action a workflow can name: the built-ins and any loaded packages' actions.
///
/// Intents are indexed by name when registered and reflected only when first looked up, so a run
/// pays for the actions it uses, not for all of them.
public struct ActionRegistry: Sendable {
    private var entries: [Entry] = []
    private var indexByName: [String: Int] = [:]
    private var indicesByShortName: [String: [Int]] = [:]
    /// The converters of every registered package.
    public private(set) var converters = ConversionGraph()
    /// The entity types of every registered package.
    public private(set) var entityTypes = EntityCatalog()

    /// What looking up a name found.
    public enum Lookup: Sendable {
        case found(ActionDefinition)
        /// A short name several packages declare.
        case ambiguous([String])
        /// An intent whose declaration cannot be used.
        case invalid(IntentDeclarationError)
        case notFound
    }

    public init() {}

    /// The conversions between every registered package's types and formats.
    /// The content types and file properties the registered packages declare; a check or a run
    /// with this registry makes them current (`Declarations.using`).
    public private(set) var declarations = Declarations()

    public var conversions: Conversions { Conversions(graph: converters, entityTypes: entityTypes) }

    /// Registers every intent of `package` and its included packages. Built-in packages
    /// (`prefixed: false`) name actions `action`; others `PACKAGE.action`.
    public mutating func register(_ package: any IntentPackage.Type, prefixed: Bool) throws(IntentDeclarationError) {
        for (packageName, intent) in package.allIntents() {
            try register(intent, package: packageName, prefixed: prefixed)
        }
        for descriptor in package.allEntities() { try entityTypes.add(descriptor) }
        declarations.declare(package.allContentTypes())
        converters.add(package.allConverters())
        declarations.add(package.allFileProperties())
    }

    /// Registers actions and entity types that are not Swift types here (a package served by a
    /// host process): their definitions are made already. Actions are named as their definitions say.
    public mutating func register(
        actions: [ActionDefinition], entities: [EntityDescriptor], contentTypes: [ContentTypeDeclaration],
        converters: [Converter] = [], fileProperties: [FilePropertyReader] = []
    ) throws(IntentDeclarationError) {
        for action in actions {
            guard indexByName[action.name] == nil else {
                throw IntentDeclarationError(intent: action.name, problem: "an action with this name is already registered")
            }
            indexByName[action.name] = entries.count
            indicesByShortName[action.shortName, default: []].append(entries.count)
            entries.append(Entry(action))
        }
        for descriptor in entities { try entityTypes.add(descriptor) }
        declarations.declare(contentTypes)
        self.converters.add(converters)
        declarations.add(fileProperties)
    }

    private mutating func register(_ intent: any Intent.Type, package: String, prefixed: Bool) throws(IntentDeclarationError) {
        let shortName = intent.name
        let name = prefixed ? "\(package).\(shortName)" : shortName
        guard indexByName[name] == nil else {
            throw IntentDeclarationError(intent: name, problem: "an action with this name is already registered")
        }
        indexByName[name] = entries.count
        indicesByShortName[shortName, default: []].append(entries.count)
        entries.append(Entry(name: name, intent: intent, package: package, prefixed: prefixed))
    }

    /// Finds an action by its full name, or by a package action's short name when only one package has it.
    public func lookup(_ name: String) -> Lookup {
        let index: Int
        if let exact = indexByName[name] {
            index = exact
        } else if let indices = indicesByShortName[name] {
            guard indices.count == 1 else { return .ambiguous(indices.map { entries[$0].name }) }
            index = indices[0]
        } else {
            return .notFound
        }
        switch entries[index].definition() {
        case .success(let definition): return .found(definition)
        case .failure(let error): return .invalid(error)
        }
    }

    /// The action called `name`, if the name is unambiguous and its intent is valid.
    public func action(named name: String) -> ActionDefinition? {
        if case .found(let action) = lookup(name) { return action }
        return nil
    }

    /// Every valid action, in the order registered (reflecting all of them).
    public var actions: [ActionDefinition] {
        entries.compactMap { try? $0.definition().get() }
    }

    /// The declaration errors of every registered intent (reflecting all of them).
    public func declarationErrors() -> [IntentDeclarationError] {
        entries.compactMap { entry in
            if case .failure(let error) = entry.definition() { return error }
            return nil
        }
    }

    /// Every name a workflow may use, for suggestions.
    public var names: [String] { entries.map(\.name) + indicesByShortName.keys.filter { indexByName[$0] == nil } }
}

/// One registered intent, reflected into its definition on first use.
private final class Entry: @unchecked Sendable {
    let name: String
    private let make: @Sendable () -> Result<ActionDefinition, IntentDeclarationError>
    private let lock = NSLock()
    private var cached: Result<ActionDefinition, IntentDeclarationError>?

    init(name: String, intent: any Intent.Type, package: String, prefixed: Bool) {
        self.name = name
        make = { Result { () throws(IntentDeclarationError) in try Self.reflect(intent, package: package, prefixed: prefixed) } }
    }

    private static func reflect<I: Intent>(_ intent: I.Type, package: String, prefixed: Bool) throws(IntentDeclarationError) -> ActionDefinition {
        try ActionDefinition(intent, package: package, prefixed: prefixed)
    }

    /// An action whose definition is already made.
    init(_ definition: ActionDefinition) {
        name = definition.name
        make = { .success(definition) }
    }

    func definition() -> Result<ActionDefinition, IntentDeclarationError> {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let result = make()
        cached = result
        return result
    }
}
