/// The entity types of the registered packages, by singular and plural name.
public struct EntityCatalog: Sendable {
    private var byName: [String: EntityDescriptor] = [:]
    /// Every entity type, in the order registered.
    public private(set) var descriptors: [EntityDescriptor] = []

    public init() {}

    /// Adds `descriptor`; a second type with a name already taken is an error naming both.
    public mutating func add(_ descriptor: EntityDescriptor) throws(IntentDeclarationError) {
        var names: Set<String> = []
        for property in descriptor.properties {
            // A computed or deferred property listed with a field's name would leave which is read to chance.
            guard names.insert(property.name).inserted else {
                throw IntentDeclarationError(intent: descriptor.name.singular, problem: "property '\(property.name)' is declared twice", declaring: "entity type")
            }
            if let cases = property.cases, let problem = CaseTitles.problem(cases: cases, titles: property.caseTitles) {
                throw IntentDeclarationError(intent: descriptor.name.singular, problem: "property '\(property.name)': \(problem)", declaring: "entity type")
            }
        }
        for name in [descriptor.name.singular, descriptor.name.plural] {
            if let existing = byName[name] {
                guard existing !== descriptor else { return }
                throw IntentDeclarationError(intent: descriptor.name.singular, problem: "an entity type named '\(name)' is already registered", declaring: "entity type")
            }
        }
        byName[descriptor.name.singular] = descriptor
        byName[descriptor.name.plural] = descriptor
        descriptors.append(descriptor)
    }

    /// The type called `name`, singular or plural.
    public func descriptor(named name: String) -> EntityDescriptor? { byName[name] ?? byName[name.lowercased()] }

    /// Every name a workflow may use for an entity type.
    public var names: [String] { descriptors.flatMap { [$0.name.singular, $0.name.plural] } }

    /// The types kept in the full-text index.
    public var indexed: [EntityDescriptor] { descriptors.filter { $0.indexPriority != nil } }

    /// `unknown entity type 'phots'; did you mean 'photos'?`, and what types there are.
    public func unknownTypeMessage(_ name: String) -> (message: String, note: String) {
        let singulars = descriptors.map(\.name.singular)
        let note = singulars.isEmpty ? "no entity types are loaded" : "the entity types are \(singulars.joined(separator: ", "))"
        return ("unknown entity type '\(name)'\(Suggestions.didYouMean(name, in: names))", note)
    }
}
