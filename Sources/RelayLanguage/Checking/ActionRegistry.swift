import RelayKit

/// Every action a workflow can name: the built-ins and any loaded packages' actions.
public struct ActionRegistry: Sendable {
    /// The actions, in the order they were registered.
    public private(set) var actions: [ActionDefinition] = []
    private var indexByName: [String: Int] = [:]
    private var indicesByShortName: [String: [Int]] = [:]

    /// What looking up a name found.
    public enum Lookup: Sendable {
        case found(ActionDefinition)
        /// A short name several packages declare.
        case ambiguous([String])
        case notFound
    }

    public init() {}

    /// Registers every intent of `package` and its included packages. Built-in packages
    /// (`prefixed: false`) name actions `action`; others `PACKAGE.action`.
    public mutating func register(_ package: any IntentPackage.Type, prefixed: Bool) throws(IntentDeclarationError) {
        for (packageName, intent) in package.allIntents() {
            try register(ActionDefinition(intent, package: packageName, prefixed: prefixed))
        }
    }

    /// Registers one action. A name registered twice is a declaration error.
    public mutating func register(_ action: ActionDefinition) throws(IntentDeclarationError) {
        guard indexByName[action.name] == nil else {
            throw IntentDeclarationError(intent: action.name, problem: "an action with this name is already registered")
        }
        indexByName[action.name] = actions.count
        indicesByShortName[action.shortName, default: []].append(actions.count)
        actions.append(action)
    }

    /// Finds an action by its full name, or by a package action's short name when only one package has it.
    public func lookup(_ name: String) -> Lookup {
        if let index = indexByName[name] { return .found(actions[index]) }
        guard let indices = indicesByShortName[name] else { return .notFound }
        if indices.count == 1 { return .found(actions[indices[0]]) }
        return .ambiguous(indices.map { actions[$0].name })
    }

    /// The action called `name`, if the name is unambiguous.
    public func action(named name: String) -> ActionDefinition? {
        if case .found(let action) = lookup(name) { return action }
        return nil
    }

    /// Every name a workflow may use, for suggestions.
    public var names: [String] { actions.map(\.name) + indicesByShortName.keys.filter { indexByName[$0] == nil } }
}
