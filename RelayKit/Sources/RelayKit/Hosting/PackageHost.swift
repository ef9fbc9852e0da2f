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
    /// Serves `package` until standard input closes. `@concurrent`: called from a host's
    /// `main.swift`, which runs on the main actor, the host serves from the global executor's
    /// threads, not through the main thread (Docs/Architecture.md, "Where async code runs").
    @concurrent
    public static func serve(_ package: any IntentPackage.Type) async {
        let server: HostServer
        do {
            server = try HostServer(package)
        } catch let error as IntentDeclarationError {
            FileHandle.standardError.write(Data((HostProtocol.declarationErrorPrefix + error.description.replacingOccurrences(of: "\n", with: " ") + "\n").utf8))
            exit(HostProtocol.declarationErrorStatus)
        } catch {
            FileHandle.standardError.write(Data("relay-host: \(error)\n".utf8))
            exit(1)
        }
        let relay = server.relay
        let running = RunningRequests()
        await relay.readLines { line in
            do throws(WireError) {
                switch try WireMessage(line: line) {
                case .reply(let callback, let outcome): relay.resolve(callback, outcome)
                case .request(let id, let method, let params):
                    running.started()
                    Task.immediate {
                        await server.handle(id, method, params)
                        running.ended()
                    }
                case .answer, .callback, .progress: throw WireError("only a host sends that message")
                }
            } catch {
                FileHandle.standardError.write(Data("relay-host: unreadable message: \(error)\n".utf8))
            }
        }
        // Input has ended: callbacks can no longer be answered, but requests under way may finish.
        relay.closeAll()
        await running.waitForAll()
    }
}

/// How many requests are being served, so that the host finishes them before it ends. Only a
/// count: a host serves millions of requests in a long run, and keeps nothing of those done.
private final class RunningRequests: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var waiting: CheckedContinuation<Void, Never>?

    func started() { lock.withLock { count += 1 } }

    func ended() {
        let finished: CheckedContinuation<Void, Never>? = lock.withLock {
            count -= 1
            guard count == 0 else { return nil }
            defer { waiting = nil }
            return waiting
        }
        finished?.resume()
    }

    /// Returns once no request is being served.
    func waitForAll() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = lock.withLock {
                if count == 0 { return true }
                waiting = continuation
                return false
            }
            if idle { continuation.resume() }
        }
    }
}

/// Answers Relay's requests for one package.
final class HostServer: Sendable {
    let relay = RelayConnection()
    private let manifest: PackageManifest
    private let actions: [String: ActionDefinition]
    private let entityTypes: EntityCatalog
    private let converters: [Converter]
    private let fileProperties: [FilePropertyReader]
    /// The package's content types and file properties, current while a request is served.
    private let declarations: Declarations
    /// Set once in `init`, never changed.
    nonisolated(unsafe) private var handlers = HostHandlers<Int>()

    init(_ package: any IntentPackage.Type) throws {
        let definitions = try PackageManifest.definitions(of: package)
        manifest = PackageManifest(name: package.name, definitions: definitions, package: package)
        actions = Dictionary(definitions.map { ($0.shortName, $0) }, uniquingKeysWith: { first, _ in first })
        var catalog = EntityCatalog()
        for descriptor in package.allEntities() { try catalog.add(descriptor) }
        entityTypes = catalog
        converters = package.allConverters()
        fileProperties = package.allFileProperties()
        var declarations = Declarations()
        declarations.declare(package.allContentTypes())
        declarations.add(fileProperties)
        self.declarations = declarations
        handlers = Self.handlers(for: self)
    }

    /// Answers one request.
    func handle(_ id: Int, _ method: String, _ params: ValueDictionary) async {
        do {
            let result = try await declarations.using { try await handlers.handle(method, params, in: id) }
            relay.send(.answer(id: id, .result(result)))
        } catch let cancelled as RunCancelled {
            relay.send(.answer(id: id, .failure(WireFailure(message: cancelled.reason, cancelled: true))))
        } catch {
            let refused = Access.refusal(in: error).map { WireFailure.Refusal(capability: $0.capability.rawValue, path: $0.target) }
            relay.send(
                .answer(
                    id: id, .failure(WireFailure(message: Self.message(for: error), refused: refused, retryAfter: (error as? IntentError)?.retryAfter))))
        }
    }

    private static func message(for error: any Error) -> String {
        switch error {
        case let error as IntentError: error.message
        case let error as CustomStringConvertible: error.description
        default: error.localizedDescription
        }
    }

    /// This host's answer to each request (`HostProtocol`); a handler gets the request's number,
    /// for the callbacks of the intent it performs.
    private static func handlers(for server: HostServer) -> HostHandlers<Int> {
        var handlers = HostHandlers<Int>()
        handlers.on(HostProtocol.Hello.self) { [unowned server] _, _ in
            HostProtocol.Hello(capabilities: server.handlers.methods)
        }
        handlers.on(HostProtocol.Manifest.self) { [unowned server] _, _ in server.manifest.json }
        handlers.on(HostProtocol.Perform.self) { [unowned server] perform, request in try await server.perform(perform, request: request) }
        handlers.on(HostProtocol.Query.self) { [unowned server] query, _ in try await server.query(query) }
        handlers.on(HostProtocol.Property.self) { [unowned server] asked, _ in
            let entity = try await server.lookUp(asked.type, asked.id)
            return WireValue.encode(try await entity.property(asked.name))
        }
        handlers.on(HostProtocol.Properties.self) { [unowned server] asked, _ in try await server.properties(asked) }
        handlers.on(HostProtocol.Represent.self) { [unowned server] asked, _ in try await server.represent(asked) }
        handlers.on(HostProtocol.IndexRecord.self) { [unowned server] asked, _ in
            let entity = try await server.lookUp(asked.type, asked.id)
            guard let record = try await entity.descriptor.indexRecord(of: entity) else { return nil }
            return HostProtocol.IndexRecord.Record(
                title: record.title, keywords: record.keywords, content: record.content, modified: record.modified?.timeIntervalSince1970)
        }
        handlers.on(HostProtocol.RunConverter.self) { [unowned server] asked, request in
            let converter = try Self.item(asked.index, of: server.converters, "converter")
            let context = server.context(for: request, asked.run)
            return WireValue.encode(try await converter.convert(try await server.decode(asked.value), context))
        }
        handlers.on(HostProtocol.ValueQuery.self) { [unowned server] asked, request in
            let descriptor = try server.descriptor(asked.type)
            let query = try Self.item(asked.index, of: descriptor.valueQueries.queries, "value query of \(descriptor.name.singular)")
            let context = server.context(for: request, asked.run)
            guard let entity = try await query.entity(try await server.decode(asked.value), descriptor, context) else { return .nothing }
            return WireValue.encode(.entity(entity))
        }
        handlers.on(HostProtocol.FileProperty.self) { [unowned server] asked, _ in
            let reader = try Self.item(asked.index, of: server.fileProperties, "file property")
            guard case .file(let file) = try await server.decode(asked.file) else { throw WireError("'file-property' needs a file") }
            return WireValue.encode(try await reader.value(of: file))
        }
        return handlers
    }

    /// The item of `items` at `index`.
    private static func item<T>(_ index: Int, of items: [T], _ what: String) throws -> T {
        guard items.indices.contains(index) else { throw WireError("no such \(what)") }
        return items[index]
    }

    private func context(for request: Int, _ run: HostProtocol.Run) -> HostContext {
        HostContext(relay: relay, request: request, run: run, entityTypes: entityTypes)
    }

    private func perform(_ perform: HostProtocol.Perform, request: Int) async throws -> HostProtocol.Perform.Reply {
        guard let action = actions[perform.action] else { throw WireError("this package has no action '\(perform.action)'") }
        var arguments: [Value?] = []
        for argument in perform.arguments {
            arguments.append(argument.isNothing ? nil : try await decode(argument))
        }
        let result = try await action.perform(arguments: arguments, context: context(for: request, perform.run))
        return HostProtocol.Perform.Reply(value: WireValue.encode(result.value), open: result.urlToOpen?.absoluteString)
    }

    private func query(_ query: HostProtocol.Query) async throws -> [Value] {
        let descriptor = try descriptor(query.type)
        let found: [EntityValue]
        switch query.kind {
        case .ids: found = try await descriptor.entities(for: query.ids ?? [])
        case .all: found = try await descriptor.allEntities()
        case .suggested: found = try await descriptor.suggestedEntities()
        case .title: found = try await descriptor.entities(matchingTitle: query.title ?? "")
        case .request:
            let request = try await query.request?.queryRequest(decode: decode) ?? QueryRequest()
            found = try await descriptor.values(matching: request).compactMap { if case .entity(let entity) = $0 { entity } else { nil } }
        }
        return found.map { WireValue.encode(.entity($0)) }
    }

    /// A deferred property of many entities in one call, in the order of their ids.
    private func properties(_ asked: HostProtocol.Properties) async throws -> [Value] {
        let descriptor = try descriptor(asked.type)
        let found = Dictionary(try await descriptor.entities(for: asked.ids).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let entities = try asked.ids.map { id in
            guard let entity = found[id] else { throw IntentError("there is no \(descriptor.name.singular) with id '\(id)' any more") }
            return entity
        }
        guard let reader = descriptor.reader(for: asked.name) else { throw WireError("a \(descriptor.name.singular) has no property '\(asked.name)'") }
        return try await reader.values(of: entities).map(WireValue.encode)
    }

    private func represent(_ asked: HostProtocol.Represent) async throws -> HostProtocol.Represent.Reply {
        let entity = try await lookUp(asked.type, asked.id)
        let representation = try Self.item(asked.index, of: entity.descriptor.transferRepresentations(of: entity), "representation")
        switch representation.export {
        case .data(let export): return HostProtocol.Represent.Reply(data: try await export().base64EncodedString())
        case .proxy(let export): return HostProtocol.Represent.Reply(value: WireValue.encode(try await export()))
        case .file(let export): return HostProtocol.Represent.Reply(file: WireValue.encode(.file(try await export())))
        }
    }

    private func descriptor(_ type: String) throws -> EntityDescriptor {
        guard let descriptor = entityTypes.descriptor(named: type) else { throw WireError("this package has no entity type '\(type)'") }
        return descriptor
    }

    private func lookUp(_ type: String, _ id: String) async throws -> EntityValue {
        let descriptor = try descriptor(type)
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
