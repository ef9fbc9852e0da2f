import Foundation

/// Serves an intent package to Relay over the package-host protocol (Docs/PackageProtocol.md):
/// the `main.swift` of a package's `relay-host` executable is
///
/// ```swift
/// import RelayKit
/// import TrailKit
///
/// await PackageHost.serve(TrailKit.self)
/// ```
///
/// Relay starts the host, asks for its manifest, then sends requests (perform an action, run a
/// query, fetch a property, hand an entity over) as JSON lines on standard input; the host answers
/// on standard output, asking back for confirmations, choices and the like while it performs.
/// Requests are served concurrently. The host ends when its standard input closes.
public enum PackageHost {
    /// Serves `package` until standard input closes.
    public static func serve(_ package: any IntentPackage.Type) async {
        let server: HostServer
        do {
            server = try HostServer(package)
        } catch {
            FileHandle.standardError.write(Data("relay-host: \(error)\n".utf8))
            exit(1)
        }
        let channel = server.channel
        let running = RunningRequests()
        await channel.readLines { line in
            do throws(WireError) {
                switch try WireMessage(line: line) {
                case .reply(let callback, let outcome): channel.resolve(callback, outcome)
                case .request(let id, let method, let params): running.add(Task.immediate { await server.handle(id, method, params) })
                case .answer, .callback, .progress: throw WireError("only a host sends that message")
                }
            } catch {
                FileHandle.standardError.write(Data("relay-host: unreadable message: \(error)\n".utf8))
            }
        }
        // Input has ended: callbacks can no longer be answered, but requests under way may finish.
        channel.closeAll()
        await running.waitForAll()
    }
}

/// The requests being served, so that the host finishes them before it ends.
private final class RunningRequests: @unchecked Sendable {
    private let lock = NSLock()
    private var tasks: [Task<Void, Never>] = []

    func add(_ task: Task<Void, Never>) { lock.withLock { tasks.append(task) } }

    func waitForAll() async {
        for task in lock.withLock({ tasks }) { await task.value }
    }
}

/// Answers Relay's requests for one package.
final class HostServer: Sendable {
    let channel = HostChannel()
    private let manifest: PackageManifest
    private let actions: [String: ActionDefinition]
    private let entityTypes: EntityCatalog
    private let converters: [Converter]
    private let fileProperties: [FilePropertyReader]

    init(_ package: any IntentPackage.Type) throws {
        let definitions = try PackageManifest.definitions(of: package)
        manifest = PackageManifest(name: package.name, definitions: definitions, package: package)
        actions = Dictionary(definitions.map { ($0.shortName, $0) }, uniquingKeysWith: { first, _ in first })
        var catalog = EntityCatalog()
        for descriptor in package.allEntities() { try catalog.add(descriptor) }
        entityTypes = catalog
        converters = package.allConverters()
        fileProperties = package.allFileProperties()
        ContentType.declare(package.allContentTypes())
    }

    /// Answers one request.
    func handle(_ id: Int, _ method: String, _ params: ValueDictionary) async {
        do {
            channel.send(.answer(id: id, .result(try await answer(method, params, request: id))))
        } catch let cancelled as RunCancelled {
            channel.send(.answer(id: id, .failure(WireFailure(message: cancelled.reason, cancelled: true))))
        } catch {
            let refused = Access.refusal(in: error).map { WireFailure.Refusal(capability: $0.capability.rawValue, path: $0.target) }
            channel.send(.answer(id: id, .failure(WireFailure(message: Self.message(for: error), refused: refused))))
        }
    }

    private static func message(for error: any Error) -> String {
        switch error {
        case let error as IntentError: error.message
        case let error as CustomStringConvertible: error.description
        default: error.localizedDescription
        }
    }

    private func answer(_ method: String, _ params: ValueDictionary, request: Int) async throws -> Value {
        switch method {
        case "manifest": return manifest.json
        case "perform": return try await perform(params, request: request)
        case "query": return try await query(params)
        case "property":
            let entity = try await lookUp(params)
            return WireValue.encode(try await entity.property(params["name"]?.textValue ?? ""))
        case "properties":
            // A deferred property of many entities in one call, in the order of `ids`.
            let descriptor = try descriptor(params)
            let ids = (params["ids"]?.asList ?? []).map(\.textValue)
            let found = Dictionary(try await descriptor.entities(for: ids).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let entities = try ids.map { id in
                guard let entity = found[id] else { throw IntentError("there is no \(descriptor.name.singular) with id '\(id)' any more") }
                return entity
            }
            let name = params["name"]?.textValue ?? ""
            guard let reader = descriptor.reader(for: name) else { throw WireError("a \(descriptor.name.singular) has no property '\(name)'") }
            return .list(try await reader.values(of: entities).map(WireValue.encode))
        case "representations":
            let entity = try await lookUp(params)
            return .list(entity.descriptor.transferRepresentations(of: entity).map { .text($0.contentType.identifier) })
        case "represent": return try await represent(params)
        case "index-record":
            let entity = try await lookUp(params)
            guard let record = try await entity.descriptor.indexRecord(of: entity) else { return .nothing }
            return [
                "title": .text(record.title), "keywords": .list(record.keywords.map { .text($0) }), "content": .text(record.content),
                "modified": record.modified.map { .number($0.timeIntervalSince1970) } ?? .nothing,
            ]
        case "run-converter":
            let converter = try Self.item(of: converters, params, "converter")
            let context = HostContext(channel: channel, request: request, params: params, entityTypes: entityTypes)
            return WireValue.encode(try await converter.convert(try await decode(params["value"] ?? .nothing), context))
        case "value-query":
            let descriptor = try descriptor(params)
            let query = try Self.item(of: descriptor.valueQueries.queries, params, "value query of \(descriptor.name.singular)")
            let context = HostContext(channel: channel, request: request, params: params, entityTypes: entityTypes)
            guard let entity = try await query.entity(try await decode(params["value"] ?? .nothing), descriptor, context) else { return .nothing }
            return WireValue.encode(.entity(entity))
        case "file-property":
            let reader = try Self.item(of: fileProperties, params, "file property")
            guard case .file(let file) = try await decode(params["file"] ?? .nothing) else { throw WireError("'file-property' needs a file") }
            return WireValue.encode(try await reader.value(of: file))
        default: throw WireError("unknown method '\(method)'")
        }
    }

    /// The item of `items` that `params["index"]` names.
    private static func item<T>(of items: [T], _ params: ValueDictionary, _ what: String) throws -> T {
        guard case .number(let number)? = params["index"], let index = Int(exactly: number), items.indices.contains(index) else {
            throw WireError("no such \(what)")
        }
        return items[index]
    }

    private func perform(_ params: ValueDictionary, request: Int) async throws -> Value {
        let name = params["action"]?.textValue ?? ""
        guard let action = actions[name] else { throw WireError("this package has no action '\(name)'") }
        var arguments: [Value?] = []
        for argument in params["arguments"]?.asList ?? [] {
            arguments.append(argument.isNothing ? nil : try await decode(argument))
        }
        let context = HostContext(channel: channel, request: request, params: params, entityTypes: entityTypes)
        let result = try await action.perform(arguments: arguments, context: context)
        var reply: ValueDictionary = ["value": WireValue.encode(result.value)]
        if let url = result.urlToOpen { reply["open"] = .text(url.absoluteString) }
        return .dictionary(reply)
    }

    private func query(_ params: ValueDictionary) async throws -> Value {
        let descriptor = try descriptor(params)
        let found: [EntityValue]
        switch params["kind"]?.textValue {
        case "ids": found = try await descriptor.entities(for: (params["ids"]?.asList ?? []).map(\.textValue))
        case "all": found = try await descriptor.allEntities()
        case "suggested": found = try await descriptor.suggestedEntities()
        case "title": found = try await descriptor.entities(matchingTitle: params["title"]?.textValue ?? "")
        case "request":
            found = try await descriptor.values(matching: try await request(params["request"])).compactMap {
                if case .entity(let entity) = $0 { entity } else { nil }
            }
        default: throw WireError("unknown query kind '\(params["kind"]?.textValue ?? "")'")
        }
        return .list(found.map { WireValue.encode(.entity($0)) })
    }

    private func request(_ wire: Value?) async throws -> QueryRequest {
        guard case .dictionary(let fields)? = wire else { return QueryRequest() }
        var conditions: [FilterCondition] = []
        for item in fields["conditions"]?.asList ?? [] {
            guard case .dictionary(let condition) = item, let comparator = Comparator(rawValue: condition["comparator"]?.textValue ?? "") else {
                throw WireError("a condition needs a property, a comparator and an operand")
            }
            conditions.append(
                try FilterCondition(
                    property: condition["property"]?.textValue ?? "", comparator: comparator,
                    operand: try await decode(condition["operand"] ?? .nothing), caseSensitive: condition["case-sensitive"] == .boolean(true)))
        }
        let sort = (fields["sort"]?.asList ?? []).compactMap { item -> SortKey? in
            guard case .dictionary(let key) = item else { return nil }
            return SortKey(property: key["property"]?.textValue ?? "", ascending: key["ascending"] != .boolean(false))
        }
        let limit: Int? = if case .number(let number)? = fields["limit"] { Int(exactly: number) } else { nil }
        return QueryRequest(conditions: conditions, matchAll: fields["match-all"] != .boolean(false), sort: sort, limit: limit)
    }

    private func represent(_ params: ValueDictionary) async throws -> Value {
        let entity = try await lookUp(params)
        let representation = try Self.item(of: entity.descriptor.transferRepresentations(of: entity), params, "representation")
        switch representation.export {
        case .data(let export): return ["data": .text(try await export().base64EncodedString())]
        case .proxy(let export): return ["value": WireValue.encode(try await export())]
        case .file(let export): return ["file": WireValue.encode(.file(try await export()))]
        }
    }

    private func descriptor(_ params: ValueDictionary) throws -> EntityDescriptor {
        let type = params["type"]?.textValue ?? ""
        guard let descriptor = entityTypes.descriptor(named: type) else { throw WireError("this package has no entity type '\(type)'") }
        return descriptor
    }

    private func lookUp(_ params: ValueDictionary) async throws -> EntityValue {
        let descriptor = try descriptor(params)
        let id = params["id"]?.textValue ?? ""
        guard let entity = try await descriptor.entities(for: [id]).first else {
            throw IntentError("there is no \(descriptor.name.singular) with id '\(id)' any more")
        }
        return entity
    }

    /// A value from Relay: entities of this package's types become the package's own entities;
    /// those of other types (Relay's photos, notes) their properties as a dictionary.
    func decode(_ wire: Value) async throws -> Value {
        try await WireValue.decode(wire, in: entityTypes)
    }
}
