import Foundation
import RelayKit
import RelayEngine

/// A package loaded from a path (`--package PATH`, `packages:`): built once per version of its
/// sources, run in a host process of its own, and seen by the registry as actions and entity
/// types whose work is done by the host. A host that dies is started again for the next call.
public final class HostedPackage: @unchecked Sendable {
    public let path: String
    public let manifest: PackageManifest
    private let executable: URL
    /// Where the package keeps its data (`PackageDataFolder`).
    private let dataFolder: String
    private let lock = NSLock()
    /// The running host; nil until the first call when the manifest was kept.
    private var connection: HostConnection?
    /// What the run had granted when the running host started: it may touch that besides its own
    /// places (`HostSandbox`).
    private var granted: Confinement
    /// The package's entity types by singular name, once made.
    private var descriptors: [String: EntityDescriptor] = [:]

    /// How long a call may take before the host is taken to hang: `$RELAY_PACKAGE_TIMEOUT` seconds, else 60.
    static let callTimeout: Duration = {
        let seconds = ProcessInfo.processInfo.environment["RELAY_PACKAGE_TIMEOUT"].flatMap(Double.init) ?? 60
        return .milliseconds(Int(max(seconds, 0.1) * 1000))
    }()

    /// Builds (if needed) the package at `path` and reads its manifest: kept beside the built
    /// host once a host has sent it, so that loading a package runs none of its code after the
    /// first time. The host starts at the first call, confined to what the run may touch then.
    public static func load(path: String, progress: @escaping @Sendable (String) -> Void = { _ in }) async throws(HostError) -> HostedPackage {
        try await load(path: path, executable: try await PackageBuilder.hostExecutable(forPackageAt: path, progress: progress))
    }

    /// The package at `path` whose host is the built `executable`.
    static func load(path: String, executable: URL) async throws(HostError) -> HostedPackage {
        let name = (path as NSString).lastPathComponent
        let dataFolder = PackageDataFolder.path(forPackageAt: path)
        let keptByName = PackageDataFolder.pathKeptByName(forPackageAt: path)
        if !FileManager.default.fileExists(atPath: dataFolder), FileManager.default.fileExists(atPath: keptByName) {
            // Data kept by an earlier relay under the folder's name alone; a failed move leaves it there.
            _ = rename(keptByName, dataFolder)
        }
        do {
            try FileManager.default.createDirectory(atPath: dataFolder, withIntermediateDirectories: true)
        } catch {
            throw HostError("cannot make the data folder '\(dataFolder)' of package '\(name)': \(error.localizedDescription)")
        }
        let kept = executable.deletingLastPathComponent().appendingPathComponent("manifest.json")
        if let text = try? String(contentsOf: kept, encoding: .utf8), let json = try? JSONReader.value(from: text),
            let manifest = try? await PackageManifest(json: json)
        {
            return HostedPackage(path: path, manifest: manifest, executable: executable, dataFolder: dataFolder, connection: nil)
        }
        // The first host may touch only its own places.
        let connection = try Self.start(executable, name: name, packagePath: path, dataFolder: dataFolder, granted: Confinement())
        do {
            let json = try await connection.request(HostProtocol.Manifest(), timeout: callTimeout)
            let manifest = try await PackageManifest(json: json)
            // Kept for the next load; a failure to keep it only costs a host start then.
            try? AtomicFile.write(Data(JSONWriter.string(for: json, pretty: false).utf8), to: kept.path)
            return HostedPackage(path: path, manifest: manifest, executable: executable, dataFolder: dataFolder, connection: connection)
        } catch let error as HostError {
            connection.terminate()
            throw error
        } catch {
            connection.terminate()
            throw HostError("the package at '\(path)' sent an unusable manifest: \(Interpreter.message(for: error))")
        }
    }

    /// Starts a host confined to its own places and `granted`.
    private static func start(
        _ executable: URL, name: String, packagePath: String, dataFolder: String, granted: Confinement
    ) throws(HostError) -> HostConnection {
        let own = HostSandbox.ownPlaces(packagePath: packagePath, executable: executable, dataFolder: dataFolder)
        let ruleset = try HostSandbox.ruleset(for: own.union(granted))
        do {
            return try HostConnection(
                executable: executable, packageName: name, environment: HostSandbox.environment(dataFolder: dataFolder),
                inheritsEnvironment: false, ruleset: ruleset, refusedCalls: HostSandbox.refusedCalls(for: own.union(granted)))
        } catch let error as HostError {
            throw error
        } catch {
            throw HostError("cannot start the host of package '\(name)': \(error)")
        }
    }

    init(path: String, manifest: PackageManifest, executable: URL, dataFolder: String, connection: HostConnection?) {
        self.path = path
        self.manifest = manifest
        self.executable = executable
        self.dataFolder = dataFolder
        self.connection = connection
        granted = Confinement()
    }

    /// Whether the kernel confines this package's hosts.
    var isConfined: Bool { HostSandbox.version > 0 }

    /// Why package hosts are not confined here, or less than Docs/Security.md says; nil when they are.
    public static var confinementWarning: String? { HostSandbox.warning }
    /// What the kernel gives Relay to confine programs and hosts, in a line (`relay --version`).
    public static var sandboxSummary: String { HostSandbox.summary }

    /// Ends the host.
    public func close() { lock.withLock { connection }?.close() }

    /// Sends a request to the host, starting a new host first if the last one died, or if what
    /// the run may touch now (`needing`, from the run's gate; else the gate of the run under way)
    /// is not exactly what the running host may: the old host finishes what it is doing, and the
    /// new one is confined to what the run grants now — wider for a run granted more, narrower for
    /// a later run granted less, which never reuses a wider host.
    func request<Request: HostRequest>(
        _ request: Request, needing: Confinement? = nil, callbacks: HostConnection.Callbacks? = nil
    ) async throws -> Request.Reply {
        let needing = (needing ?? AccessGate.running?.confinement)?.existing
        let current: HostConnection = try lock.withLock {
            let changes = needing.map { $0 != granted } ?? false
            if let connection, connection.isUsable, !changes { return connection }
            if changes { connection?.retire() } else { connection?.terminate() }
            if let needing { granted = needing }
            let started = try Self.start(executable, name: manifest.name, packagePath: path, dataFolder: dataFolder, granted: granted)
            connection = started
            return started
        }
        return try await current.request(request, timeout: Self.callTimeout, callbacks: callbacks)
    }

    // MARK: - What the registry sees

    /// The package's actions, each performed by the host.
    public func actionDefinitions() throws(IntentDeclarationError) -> [ActionDefinition] {
        try manifest.actions.map { (action) throws(IntentDeclarationError) in
            let name = action.name
            return try ActionDefinition(
                name: "\(manifest.name).\(name)", shortName: name, package: manifest.name, title: action.title, summary: action.summary,
                parameters: action.parameters, output: action.output, supportedModes: action.supportedModes,
                capabilities: action.capabilities, source: path, examples: action.examples, outputItem: action.outputItem
            ) { [self] arguments, context in
                let result = try await perform(name, arguments, context: context)
                // What the checker was told is what the next step gets: a host built any way, or
                // not built from RelayKit at all, is held to its manifest.
                let declared = OutputType(action.output, item: action.outputItem)
                if let problem = declared.problem(with: result.value) {
                    throw HostError("the package's action '\(manifest.name).\(name)' says it outputs \(declared.withArticle) but gave \(problem)")
                }
                return result
            }
        }
    }

    /// The package's entity types.
    public func entityDescriptors() -> [EntityDescriptor] {
        manifest.entities.map(descriptor)
    }

    private func descriptor(for type: PackageManifest.EntityType) -> EntityDescriptor {
        if let made = lock.withLock({ descriptors[type.name.singular] }) { return made }
        let typeName = type.name.singular
        let query: @Sendable (HostedQuery) async throws -> [HostedEntity] = { [self] query in try await self.query(typeName, query) }
        let fetch: @Sendable (HostedEntity, String) async throws -> Value = { [self] entity, property in
            try await decode(try await request(HostProtocol.Property(type: typeName, id: entity.id, name: property)))
        }
        let transfer: @Sendable (HostedEntity) -> [TransferRepresentation] = { [self] entity in
            transferRepresentations(of: entity, type: typeName)
        }
        var indexRecord: (@Sendable (HostedEntity) async throws -> EntityDescriptor.IndexRecord)?
        if type.indexPriority != nil {
            indexRecord = { @Sendable [self] entity in try await self.indexRecord(of: entity, type: typeName) }
        }
        var hosted = HostedEntityType(
            name: type.name, properties: type.properties, urlTemplate: type.urlTemplate, indexPriority: type.indexPriority,
            capabilities: type.capabilities, query: query, fetch: fetch, transfer: transfer, indexRecord: indexRecord)
        hosted.valueQueries = valueQueries(of: type)
        hosted.fetchMany = { [self] entities, property in
            let items = try await request(HostProtocol.Properties(type: typeName, ids: entities.map(\.id), name: property))
            guard items.count == entities.count else {
                throw HostError("the host answered '\(property)' of \(entities.count) \(type.name.plural) with \(items.count) values")
            }
            var values: [Value] = []
            for item in items { values.append(try await decode(item)) }
            return values
        }
        let made = EntityDescriptor(hosted: hosted)
        return lock.withLock {
            if let raced = descriptors[typeName] { return raced }
            descriptors[typeName] = made
            return made
        }
    }

    // MARK: - Calls

    private func indexRecord(of entity: HostedEntity, type: String) async throws -> EntityDescriptor.IndexRecord {
        guard let record = try await request(HostProtocol.IndexRecord(type: type, id: entity.id)) else {
            throw HostError("the host gave no index record for \(type) '\(entity.id)'")
        }
        return EntityDescriptor.IndexRecord(
            id: entity.id, title: record.title, keywords: record.keywords, content: record.content,
            modified: record.modified.map(Date.init(timeIntervalSince1970:)))
    }

    private func perform(_ action: String, _ arguments: [Value?], context: any IntentContext) async throws -> IntentResult {
        let arguments = arguments.map { $0.map(WireValue.encode) ?? .nothing }
        let reply = try await call(for: context) { HostProtocol.Perform(action: action, arguments: arguments, run: $0) }
        let value = try await decode(reply.value)
        if let text = reply.open {
            guard let url = URL(string: text) else { throw HostError("the host asked to open '\(text)', which is not a URL") }
            return IntentResult(value: value, urlToOpen: url)
        }
        return .value(value)
    }

    /// A request made for a step (`perform`, a converter, a value query): the host is confined
    /// to what the run grants, answers its callbacks through the step's context, and a refusal of
    /// the kernel is the step's denial.
    private func call<Request: HostRequest>(
        for context: any IntentContext, _ make: (HostProtocol.Run) -> Request
    ) async throws -> Request.Reply {
        let run = HostProtocol.Run(mode: context.mode, baseDirectory: context.baseDirectory.path, scratch: context.scratchFolder.folder.path)
        // The host is confined to the run's scratch folder, which the kernel needs to exist.
        try? context.scratchFolder.make()
        let gate = (context as? GatedContext)?.gate
        let callbacks = HostConnection.Callbacks(handlers: Self.callbackHandlers, context: CallbackContext(package: self, step: context)) { fraction, label in
            await context.reportProgress(fraction, label)
        }
        do {
            return try await request(make(run), needing: gate?.confinement, callbacks: callbacks)
        } catch let refusal as HostRefusal {
            // The kernel stopped a confined host from touching what the run was not granted.
            if isConfined, let gate, gate.isDryRun, refusal.access.capability == .write {
                // Its own data folder needs no grant in a real run.
                let own = ResolvedPath.path(refusal.access.target, isWithin: ResolvedPath.resolve(dataFolder))
                throw AccessDenied(access: refusal.access, reason: .dryRun(granted: own || gate.allows(refusal.access)))
            }
            if isConfined, let gate, !gate.allows(refusal.access) {
                throw AccessDenied(access: refusal.access, reason: .confined(package: manifest.name))
            }
            throw IntentError(refusal.message)
        }
    }

    // MARK: - Conversions the host makes

    /// The package's converters, each run by the host.
    public func converters() -> [Converter] {
        manifest.converters.enumerated().map { index, info in
            Converter(from: info.from, to: info.to, lossy: info.isLossy) { [self] value, context in
                try await decode(try await call(for: context) { HostProtocol.RunConverter(index: index, value: WireValue.encode(value), run: $0) })
            }
        }
    }

    /// The package's file properties, each read by the host: a step, a filter or a sort waits.
    /// The host may be let at what the run may touch now, as for a step.
    public func fileProperties() -> [FilePropertyReader] {
        manifest.fileProperties.enumerated().map { index, info in
            FilePropertyReader(contentType: info.contentType, name: info.name) { [self] file in
                do {
                    return try await decode(try await request(HostProtocol.FileProperty(index: index, file: WireValue.encode(.file(file)))))
                } catch let refusal as HostRefusal {
                    throw IntentError(refusal.message)
                }
            }
        }
    }

    /// How values become entities of `type`, each asked of the host.
    private func valueQueries(of type: PackageManifest.EntityType) -> EntityValueQueries {
        let typeName = type.name.singular
        return EntityValueQueries(type.valueQueries.enumerated().map { index, from in
            (from, { [self] value, _, context in
                let reply = try await decode(
                    try await call(for: context) { HostProtocol.ValueQuery(type: typeName, index: index, value: WireValue.encode(value), run: $0) })
                switch reply {
                case .nothing: return nil
                case .entity(let entity) where entity.typeName == typeName: return entity
                default: throw HostError("the host answered a value query of \(typeName) with \(reply.briefDescription)")
                }
            })
        })
    }

    /// The callbacks Relay answers, as `hello` tells a host.
    static let callbackMethods = HostProtocol.callbacks.map { $0.method }

    /// What answers a callback: the package (to decode the host's values) and the step's context.
    struct CallbackContext: Sendable {
        let package: HostedPackage
        let step: any IntentContext
    }

    /// Answers the callbacks of a request made for a step through the step's context: made once,
    /// not for every call.
    static let callbackHandlers: HostHandlers<CallbackContext> = {
        var handlers = HostHandlers<CallbackContext>()
        handlers.on(HostProtocol.Show.self) { show, on in
            await on.step.show(try await on.package.decode(show.value))
            return HostProtocol.Empty()
        }
        handlers.on(HostProtocol.Ask.self) { ask, on in
            var defaultValue: Value?
            if let wired = ask.defaultValue { defaultValue = try await on.package.decode(wired) }
            let question = Question(prompt: ask.prompt, type: ValueType(described: ask.type), defaultValue: defaultValue, key: ask.key)
            return WireValue.encode(try await on.step.ask(question))
        }
        handlers.on(HostProtocol.Choose.self) { choose, on in
            let request = choose.request
            if let problem = Disambiguation.problem(count: request.options.count, what: "options", prompt: request.prompt) {
                throw IntentError(problem)
            }
            return try await on.step.choose(request)
        }
        handlers.on(HostProtocol.Confirm.self) { confirm, on in
            try await on.step.requestConfirmation(confirm.prompt, key: confirm.key)
            return HostProtocol.Empty()
        }
        handlers.on(HostProtocol.Open.self) { open, on in
            guard let url = URL(string: open.url) else { throw IntentError("'\(open.url)' is not a URL") }
            try await on.step.open(url)
            return HostProtocol.Empty()
        }
        handlers.on(HostProtocol.Convert.self) { convert, on in
            let value = try await on.package.decode(convert.value)
            return WireValue.encode(try await on.step.convert(value, to: try Representation(wire: convert.to)))
        }
        handlers.on(HostProtocol.RunWorkflow.self) { run, on in
            WireValue.encode(try await on.step.runWorkflow(at: run.path, input: try await on.package.decode(run.input)))
        }
        handlers.on(HostProtocol.RegisterUndo.self) { undo, on in
            var arguments = ValueDictionary()
            if case .dictionary(let wired) = undo.arguments {
                for (name, value) in wired { arguments[name] = try await on.package.decode(value) }
            }
            try await on.step.registerUndo(action: undo.action, arguments: arguments)
            return HostProtocol.Empty()
        }
        return handlers
    }()

    private func query(_ type: String, _ query: HostedQuery) async throws -> [HostedEntity] {
        let asked = switch query {
        case .ids(let ids): HostProtocol.Query(type: type, kind: .ids, ids: ids)
        case .all: HostProtocol.Query(type: type, kind: .all)
        case .suggested: HostProtocol.Query(type: type, kind: .suggested)
        case .title(let title): HostProtocol.Query(type: type, kind: .title, title: title)
        case .request(let request): HostProtocol.Query(type: type, kind: .request, request: HostProtocol.Query.Request(request))
        }
        var entities: [HostedEntity] = []
        for item in try await self.request(asked) {
            guard case .entity(let entity) = try await decode(item), let hosted = entity.entity(as: HostedEntity.self) else {
                throw HostError("the host answered a query for \(type) with something that is not one")
            }
            entities.append(hosted)
        }
        return entities
    }

    /// The entity's forms, as the host listed them, each fetching its content from the host when chosen.
    private func transferRepresentations(of entity: HostedEntity, type: String) -> [TransferRepresentation] {
        entity.representations.enumerated().map { index, representation in
            let asked = HostProtocol.Represent(type: type, id: entity.id, index: index)
            let form: TransferRepresentation
            switch representation.kind {
            case .data:
                form = .data(representation.contentType) { [self] in
                    guard let base64 = try await request(asked).data, let data = Data(base64Encoded: base64) else {
                        throw HostError("the host sent no \(representation.contentType.identifier) data for \(type) '\(entity.id)'")
                    }
                    return data
                }
            case .value:
                form = .proxy(representation.contentType) { [self] in
                    try await decode(try await request(asked).value ?? .nothing)
                }
            case .file:
                form = .file(representation.contentType) { [self] in
                    guard case .file(let file) = try await decode(try await request(asked).file ?? .nothing) else {
                        throw HostError("the host sent no \(representation.contentType.identifier) file for \(type) '\(entity.id)'")
                    }
                    // A file the package keeps in its own data folder is readable where it is handed
                    // over, with no grant for a folder the person never named (Docs/Packages.md,
                    // "Where a package keeps its data"): that file alone, not the rest of the folder.
                    let resolved = ResolvedPath.resolve(file.path)
                    if ResolvedPath.path(resolved, isWithin: ResolvedPath.resolve(dataFolder)) { AccessGate.running?.allowFreely(.read, resolved) }
                    return file
                }
            }
            return representation.suggestedFileName.map(form.suggestedFileName) ?? form
        }
    }

    /// A value from the host: its entities become hosted entities of this package's types.
    func decode(_ wire: Value) async throws -> Value {
        try await WireValue.decode(wire) { [self] entity in
            guard let type = manifest.entities.first(where: { $0.name.singular == entity.type }) else { return entity.dictionary }
            let hosted = HostedEntity(
                id: entity.id, displayRepresentation: DisplayRepresentation(title: entity.title, subtitle: entity.subtitle),
                values: entity.properties, modified: entity.modified, representations: entity.representations)
            return .entity(descriptor(for: type).value(of: hosted))
        }
    }
}
