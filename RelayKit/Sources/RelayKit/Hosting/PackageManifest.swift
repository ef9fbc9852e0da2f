import Foundation

/// What a package host tells Relay about its package when asked for its `manifest`: its actions
/// with their parameters, its entity types and its content types (Docs/PackageProtocol.md).
public struct PackageManifest: Sendable {

    public struct Action: Sendable {
        public var name: String
        public var title: String
        public var summary: String
        public var output: ValueType
        /// Each item's type, for a list output (`Intent.outputItem`).
        public var outputItem: ValueType? = nil
        public var supportedModes: IntentModes
        /// What the action may touch (with what its parameters name).
        public var capabilities: [Capability] = []
        public var parameters: [ParameterDefinition]
        public var examples: [IntentExample] = []
    }

    public struct EntityType: Sendable {
        public var name: EntityTypeName
        public var properties: [EntityDescriptor.PropertyInfo]
        public var urlTemplate: URLTemplate?
        public var indexPriority: Double?
        public var capabilities: QueryCapabilities
        /// What the type's value queries take, in order (`EntityValueQuery.from`).
        public var valueQueries: [Representation] = []
    }

    /// A converter of the package: what it takes and makes; the host runs it.
    public struct ConverterInfo: Sendable, Equatable {
        public var from: Representation
        public var to: Representation
        public var isLossy: Bool
    }

    /// A file property the package reads, for files of a content type; the host reads it.
    public struct FilePropertyInfo: Sendable, Equatable {
        public var contentType: ContentType
        public var name: String
    }

    public var protocolVersion: Int
    public var name: String
    public var actions: [Action]
    public var entities: [EntityType]
    public var contentTypes: [ContentTypeDeclaration]
    public var converters: [ConverterInfo]
    public var fileProperties: [FilePropertyInfo]

    /// The manifest of `package` and its included packages.
    public init(of package: any IntentPackage.Type) throws(IntentDeclarationError) {
        self.init(name: package.name, definitions: try Self.definitions(of: package), package: package)
    }

    /// The manifest of `package` whose intents are already reflected into `definitions`.
    init(name: String, definitions: [ActionDefinition], package: any IntentPackage.Type) {
        protocolVersion = HostProtocol.version
        self.name = name
        actions = definitions.map { definition in
            Action(
                name: definition.shortName, title: definition.title, summary: definition.summary, output: definition.output,
                outputItem: definition.outputItem, supportedModes: definition.supportedModes, capabilities: definition.capabilities,
                parameters: definition.parameters, examples: definition.examples)
        }
        entities = package.allEntities().map { descriptor in
            EntityType(
                name: descriptor.name, properties: descriptor.properties, urlTemplate: descriptor.urlTemplate,
                indexPriority: descriptor.indexPriority, capabilities: descriptor.capabilities,
                valueQueries: descriptor.valueQueries.queries.map(\.from))
        }
        contentTypes = package.allContentTypes()
        converters = package.allConverters().map { ConverterInfo(from: $0.from, to: $0.to, isLossy: $0.isLossy) }
        fileProperties = package.allFileProperties().map { FilePropertyInfo(contentType: $0.contentType, name: $0.name) }
    }

    /// The intents of `package` and its included packages, reflected.
    static func definitions(of package: any IntentPackage.Type) throws(IntentDeclarationError) -> [ActionDefinition] {
        var definitions: [ActionDefinition] = []
        for (packageName, intent) in package.allIntents() { definitions.append(try reflect(intent, package: packageName)) }
        return definitions
    }

    private static func reflect<I: Intent>(_ intent: I.Type, package: String) throws(IntentDeclarationError) -> ActionDefinition {
        try ActionDefinition(intent, package: package)
    }

    // MARK: - As JSON

    /// The manifest as a JSON value.
    public var json: Value {
        var root: ValueDictionary = ["protocol": .number(Double(protocolVersion)), "name": .text(name)]
        root["actions"] = .list(actions.map { action in
            var entry: ValueDictionary = [
                "name": .text(action.name), "title": .text(action.title), "summary": .text(action.summary),
                "output": .text(action.output.name), "foreground-only": .boolean(!action.supportedModes.contains(.background)),
                "capabilities": .list(action.capabilities.map { .text($0.rawValue) }),
                "parameters": .list(action.parameters.map(Self.json)),
                "examples": .list(action.examples.map { ["steps": .text($0.steps), "output": $0.output.map { .text($0) } ?? .nothing, "place": $0.place.map { .text($0) } ?? .nothing] }),
            ]
            if let item = action.outputItem { entry["output-item"] = .text(item.name) }
            return .dictionary(entry)
        })
        root["entities"] = .list(entities.map { type in
            var entry: ValueDictionary = [
                "singular": .text(type.name.singular), "plural": .text(type.name.plural),
                "properties": .list(type.properties.map { property in
                    var fields: ValueDictionary = ["name": .text(property.name), "type": .text(property.type.name), "kind": .text(property.kind.rawValue)]
                    if property.fetchesMany { fields["many"] = .boolean(true) }
                    if let cases = property.cases { fields["cases"] = .list(cases.map { .text($0) }) }
                    if !property.caseTitles.isEmpty { fields["case-titles"] = Self.titles(property.caseTitles) }
                    return .dictionary(fields)
                }),
                "sortable": .list(type.capabilities.sortable.sorted().map { .text($0) }),
                "limits": .boolean(type.capabilities.limits),
            ]
            var comparators = ValueDictionary()
            for (property, supported) in type.capabilities.comparators.sorted(by: { $0.key < $1.key }) {
                comparators[property] = .list(supported.map(\.name).sorted().map { .text($0) })
            }
            entry["comparators"] = .dictionary(comparators)
            if let template = type.urlTemplate { entry["url-template"] = .text(template.template) }
            if let priority = type.indexPriority { entry["index-priority"] = .number(priority) }
            if !type.valueQueries.isEmpty { entry["value-queries"] = .list(type.valueQueries.map(\.wire)) }
            return .dictionary(entry)
        })
        root["content-types"] = .list(contentTypes.map { declaration in
            [
                "identifier": .text(declaration.type.identifier),
                "conforms-to": .list(declaration.conformsTo.map { .text($0.identifier) }),
                "extensions": .list(declaration.extensions.map { .text($0) }),
            ]
        })
        root["converters"] = .list(converters.map { ["from": $0.from.wire, "to": $0.to.wire, "lossy": .boolean($0.isLossy)] })
        root["file-properties"] = .list(fileProperties.map { ["content-type": .text($0.contentType.identifier), "name": .text($0.name)] })
        return .dictionary(root)
    }

    private static func json(_ parameter: ParameterDefinition) -> Value {
        var entry: ValueDictionary = [
            "name": .text(parameter.name), "title": .text(parameter.title), "summary": .text(parameter.summary),
            "type": .text(parameter.type.name), "required": .boolean(parameter.isRequired),
            "primary": .boolean(parameter.isPrimary), "input": .boolean(parameter.isInput),
        ]
        if let defaultValue = parameter.defaultValue { entry["default"] = WireValue.encode(defaultValue) }
        if let item = parameter.itemType { entry["item-type"] = .text(item.name) }
        if !parameter.choices.isEmpty { entry["choices"] = .list(parameter.choices.map { .text($0) }) }
        if parameter.choicesAreExact { entry["choices-exact"] = .boolean(true) }
        if !parameter.choiceTitles.isEmpty { entry["choice-titles"] = titles(parameter.choiceTitles) }
        if !parameter.accepts.isEmpty { entry["accepts"] = .list(parameter.accepts.map { .text($0.identifier) }) }
        if let access = parameter.access { entry["access"] = .text(access.rawValue) }
        if let destination = parameter.readOnlyWhenGiven { entry["read-only-when-given"] = .text(destination) }
        if !parameter.readsFiles { entry["reads-files"] = .boolean(false) }
        if parameter.existing { entry["existing"] = .boolean(true) }
        return .dictionary(entry)
    }

    /// Display names by raw value, in the order of the raw values.
    private static func titles(_ titles: [String: String]) -> Value {
        .dictionary(ValueDictionary(uniqueKeysWithValues: titles.sorted { $0.key < $1.key }.map { ($0.key, Value.text($0.value)) }))
    }

    /// Display names by raw value as a host sent them.
    private static func titles(_ value: Value?) -> [String: String] {
        guard case .dictionary(let entries)? = value else { return [:] }
        return Dictionary(entries.map { ($0.key, $0.value.textValue) }, uniquingKeysWith: { first, _ in first })
    }

    /// A capability's name on the wire; an unknown one is an error (a package may not declare
    /// less than it needs by misspelling it).
    private static func capability(_ value: Value) throws -> Capability {
        guard let capability = Capability(rawValue: value.textValue) else {
            throw WireError("'\(value.textValue)' is not a capability (\(Capability.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return capability
    }

    /// Reads a manifest a host sent.
    public init(json: Value) async throws {
        guard case .dictionary(let root) = json else { throw WireError("the manifest is not an object") }
        guard case .number(let version)? = root["protocol"] else { throw WireError("the manifest has no 'protocol' version") }
        guard Int(exactly: version) == HostProtocol.version else {
            throw WireError("the package speaks protocol \(NumberFormatting.text(version)); this relay speaks \(HostProtocol.version): rebuild it against this relay's RelayKit")
        }
        protocolVersion = HostProtocol.version
        name = try Self.text(root, "name")
        var actions: [Action] = []
        for item in Self.list(root, "actions") {
            guard case .dictionary(let entry) = item else { throw WireError("an action is not an object") }
            var parameters: [ParameterDefinition] = []
            for parameter in Self.list(entry, "parameters") {
                guard case .dictionary(let fields) = parameter else { throw WireError("a parameter is not an object") }
                let defaultValue = try await fields["default"].asyncMap { try await WireValue.decode($0) { .text($0.title) } }
                parameters.append(
                    ParameterDefinition(
                        name: try Self.text(fields, "name"), title: try Self.text(fields, "title"), summary: fields["summary"]?.textValue ?? "",
                        type: ValueType(described: try Self.text(fields, "type")),
                        itemType: fields["item-type"].flatMap { $0.isNothing ? nil : ValueType(described: $0.textValue) },
                        isRequired: fields["required"] == .boolean(true),
                        defaultValue: defaultValue, choices: Self.list(fields, "choices").map(\.textValue),
                        choicesAreExact: fields["choices-exact"] == .boolean(true), choiceTitles: Self.titles(fields["choice-titles"]),
                        accepts: Self.list(fields, "accepts").map { ContentType($0.textValue) },
                        isPrimary: fields["primary"] == .boolean(true), isInput: fields["input"] == .boolean(true),
                        access: try fields["access"].map { try Self.capability($0) },
                        readOnlyWhenGiven: fields["read-only-when-given"]?.textValue,
                        readsFiles: fields["reads-files"] != .boolean(false), existing: fields["existing"] == .boolean(true)))
            }
            actions.append(
                Action(
                    name: try Self.text(entry, "name"), title: try Self.text(entry, "title"), summary: entry["summary"]?.textValue ?? "",
                    output: ValueType(described: try Self.text(entry, "output")),
                    outputItem: entry["output-item"].flatMap { $0.isNothing ? nil : ValueType(described: $0.textValue) },
                    supportedModes: entry["foreground-only"] == .boolean(true) ? .foreground : .all,
                    capabilities: try Self.list(entry, "capabilities").map(Self.capability), parameters: parameters,
                    examples: Self.list(entry, "examples").compactMap { example in
                        guard case .dictionary(let fields) = example, case .text(let steps)? = fields["steps"] else { return nil }
                        return IntentExample(
                            steps: steps, output: fields["output"].flatMap { $0.isNothing ? nil : $0.textValue },
                            place: fields["place"].flatMap { $0.isNothing ? nil : $0.textValue })
                    }))
        }
        self.actions = actions
        var entities: [EntityType] = []
        for item in Self.list(root, "entities") {
            guard case .dictionary(let entry) = item else { throw WireError("an entity type is not an object") }
            let properties = try Self.list(entry, "properties").map { property -> EntityDescriptor.PropertyInfo in
                guard case .dictionary(let fields) = property, let kind = PropertyKind(rawValue: fields["kind"]?.textValue ?? "") else {
                    throw WireError("an entity property needs a name, a type and a kind (stored, computed or deferred)")
                }
                return EntityDescriptor.PropertyInfo(
                    name: try Self.text(fields, "name"), type: ValueType(described: try Self.text(fields, "type")), kind: kind,
                    fetchesMany: kind == .deferred && fields["many"] == .boolean(true),
                    cases: fields["cases"].map { $0.asList.map(\.textValue) }, caseTitles: Self.titles(fields["case-titles"]))
            }
            var comparators: [String: Set<Comparator>] = [:]
            if case .dictionary(let supported)? = entry["comparators"] {
                for (property, names) in supported { comparators[property] = Set(names.asList.compactMap { Comparator(rawValue: $0.textValue) }) }
            }
            var template: URLTemplate?
            if case .text(let text)? = entry["url-template"] {
                do { template = try URLTemplate(text) } catch { throw WireError("the URL template '\(text)': \(error.message)") }
            }
            let priority: Double? = if case .number(let number)? = entry["index-priority"] { number } else { nil }
            entities.append(
                EntityType(
                    name: EntityTypeName(try Self.text(entry, "singular"), plural: try Self.text(entry, "plural")), properties: properties,
                    urlTemplate: template, indexPriority: priority,
                    capabilities: QueryCapabilities(
                        comparators: comparators, sortable: Set(Self.list(entry, "sortable").map(\.textValue)), limits: entry["limits"] == .boolean(true)),
                    valueQueries: try Self.list(entry, "value-queries").map(Representation.init(wire:))))
        }
        self.entities = entities
        contentTypes = Self.list(root, "content-types").compactMap { item in
            guard case .dictionary(let entry) = item, case .text(let identifier)? = entry["identifier"] else { return nil }
            return ContentTypeDeclaration(
                identifier, conformsTo: Self.list(entry, "conforms-to").map { ContentType($0.textValue) },
                extensions: Self.list(entry, "extensions").map(\.textValue))
        }
        converters = try Self.list(root, "converters").map { item in
            guard case .dictionary(let entry) = item, let from = entry["from"], let to = entry["to"] else {
                throw WireError("a converter needs 'from' and 'to'")
            }
            return ConverterInfo(from: try Representation(wire: from), to: try Representation(wire: to), isLossy: entry["lossy"] == .boolean(true))
        }
        fileProperties = try Self.list(root, "file-properties").map { item in
            guard case .dictionary(let entry) = item else { throw WireError("a file property is not an object") }
            return FilePropertyInfo(contentType: ContentType(try Self.text(entry, "content-type")), name: try Self.text(entry, "name"))
        }
    }

    private static func text(_ fields: ValueDictionary, _ key: String) throws -> String {
        guard case .text(let text)? = fields[key] else { throw WireError("'\(key)' is missing or not text") }
        return text
    }

    private static func list(_ fields: ValueDictionary, _ key: String) -> [Value] {
        if case .list(let items)? = fields[key] { return items }
        return []
    }
}

extension Optional {
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}

extension Representation {
    /// The form on the wire: `{"content-type": ID}` for a file, `{"type": NAME}` for a value (the
    /// form of the host's `convert` callback's target too).
    public var wire: Value {
        switch self {
        case .file(let type): ["content-type": .text(type.identifier)]
        case .value(let type): ["type": .text(type.name)]
        }
    }

    public init(wire: Value) throws {
        guard case .dictionary(let fields) = wire else { throw WireError("a form must be an object with 'content-type' or 'type'") }
        if case .text(let identifier)? = fields["content-type"] {
            self = .file(ContentType(identifier))
        } else if case .text(let name)? = fields["type"] {
            self = .value(ValueType(described: name))
        } else {
            throw WireError("a form must be an object with 'content-type' or 'type'")
        }
    }
}

extension ValueType {
    /// The type a name from `relay describe` or a package manifest stands for: a built-in type,
    /// a union written `park | trail`, or else an entity type.
    public init(described name: String) {
        if name.contains("|") {
            self = .union(name.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) })
        } else {
            self = ValueType(name: name) ?? .entity(name)
        }
    }
}
