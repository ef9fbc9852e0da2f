import Foundation
import RelayKit

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
        let executable = try await PackageBuilder.hostExecutable(forPackageAt: path, progress: progress)
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
            let json = try await connection.request("manifest", timeout: callTimeout)
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

    private init(path: String, manifest: PackageManifest, executable: URL, dataFolder: String, connection: HostConnection?) {
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

    /// Ends the host.
    public func close() { lock.withLock { connection }?.close() }

    /// Sends a request to the host, starting a new host first if the last one died, or if what
    /// the run may touch now (`needing`, from the run's gate; else the gate of the run under way)
    /// is not exactly what the running host may: the old host finishes what it is doing, and the
    /// new one is confined to what the run grants now — wider for a run granted more, narrower for
    /// a later run granted less, which never reuses a wider host.
    func request(
        _ method: String, _ params: ValueDictionary, needing: Confinement? = nil, callbacks: HostConnection.Callbacks? = nil
    ) async throws -> Value {
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
        return try await current.request(method, params, timeout: Self.callTimeout, callbacks: callbacks)
    }

    // MARK: - What the registry sees

    /// The package's actions, each performed by the host.
    public func actionDefinitions() throws(IntentDeclarationError) -> [ActionDefinition] {
        try manifest.actions.map { (action) throws(IntentDeclarationError) in
            let name = action.name
            return try ActionDefinition(
                name: "\(manifest.name).\(name)", shortName: name, package: manifest.name, title: action.title, summary: action.summary,
                parameters: action.parameters, output: action.output, supportedModes: action.supportedModes,
                capabilities: action.capabilities, source: path, examples: action.examples
            ) { [self] arguments, context in
                try await perform(name, arguments, context: context)
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
            try await decode(try await request("property", ["type": .text(typeName), "id": .text(entity.id), "name": .text(property)]))
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
            let reply = try await request(
                "properties", ["type": .text(typeName), "ids": .list(entities.map { .text($0.id) }), "name": .text(property)])
            guard case .list(let items) = reply, items.count == entities.count else {
                throw HostError("the host answered '\(property)' of \(entities.count) \(type.name.plural) with \(reply.briefDescription)")
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
        let record = try await request("index-record", ["type": .text(type), "id": .text(entity.id)])
        guard case .dictionary(let fields) = record else { throw HostError("the host gave no index record for \(type) '\(entity.id)'") }
        let modified: Date? = if case .number(let seconds)? = fields["modified"] { Date(timeIntervalSince1970: seconds) } else { nil }
        return EntityDescriptor.IndexRecord(
            id: entity.id, title: fields["title"]?.textValue ?? entity.displayRepresentation.title,
            keywords: (fields["keywords"]?.asList ?? []).map(\.textValue), content: fields["content"]?.textValue ?? "", modified: modified)
    }

    private func perform(_ action: String, _ arguments: [Value?], context: any IntentContext) async throws -> IntentResult {
        let params: ValueDictionary = ["action": .text(action), "arguments": .list(arguments.map { $0.map(WireValue.encode) ?? .nothing })]
        let reply = try await call("perform", params, for: context)
        guard case .dictionary(let fields) = reply else { throw HostError("the host answered 'perform' with \(reply.briefDescription)") }
        let value = try await decode(fields["value"] ?? .nothing)
        if case .text(let text)? = fields["open"] {
            guard let url = URL(string: text) else { throw HostError("the host asked to open '\(text)', which is not a URL") }
            return IntentResult(value: value, urlToOpen: url)
        }
        return .value(value)
    }

    /// A request made for a step (`perform`, a converter, a value query): the host is confined
    /// to what the run grants, answers its callbacks through the step's context, and a refusal of
    /// the kernel is the step's denial.
    private func call(_ method: String, _ params: ValueDictionary, for context: any IntentContext) async throws -> Value {
        var params = params
        params["mode"] = .text(context.mode.rawValue)
        params["base-directory"] = .text(context.baseDirectory.path)
        params["scratch"] = .text(context.scratchFolder.folder.path)
        // The host is confined to the run's scratch folder, which the kernel needs to exist.
        try? context.scratchFolder.make()
        let gate = (context as? GatedContext)?.gate
        do {
            return try await request(method, params, needing: gate?.confinement) { [self] method, params in
                try await answer(method, params, context: context)
            }
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
                try await decode(try await call("run-converter", ["index": .number(Double(index)), "value": WireValue.encode(value)], for: context))
            }
        }
    }

    /// The package's file properties, each read by the host: a step, a filter or a sort waits.
    /// The host may be let at what the run may touch now, as for a step.
    public func fileProperties() -> [FilePropertyReader] {
        manifest.fileProperties.enumerated().map { index, info in
            FilePropertyReader(contentType: info.contentType, name: info.name) { [self] file in
                let params: ValueDictionary = ["index": .number(Double(index)), "file": WireValue.encode(.file(file))]
                do {
                    return try await decode(try await request("file-property", params))
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
                let params: ValueDictionary = ["type": .text(typeName), "index": .number(Double(index)), "value": WireValue.encode(value)]
                let reply = try await decode(try await call("value-query", params, for: context))
                switch reply {
                case .nothing: return nil
                case .entity(let entity) where entity.typeName == typeName: return entity
                default: throw HostError("the host answered a value query of \(typeName) with \(reply.briefDescription)")
                }
            })
        })
    }

    /// Answers a callback of a `perform` through the step's context.
    private func answer(_ method: String, _ params: ValueDictionary, context: any IntentContext) async throws -> Value {
        switch method {
        case "show":
            await context.show(try await decode(params["value"] ?? .nothing))
            return .nothing
        case "ask":
            let type = ValueType(described: params["type"]?.textValue ?? "text")
            var defaultValue: Value?
            if let wired = params["default"] { defaultValue = try await decode(wired) }
            return WireValue.encode(try await context.ask(Question(prompt: params["prompt"]?.textValue ?? "", type: type, defaultValue: defaultValue)))
        case "choose":
            return .list(try await context.choose(ChoiceRequest(wire: params)).map { .number(Double($0)) })
        case "confirm":
            try await context.requestConfirmation(params["prompt"]?.textValue ?? "")
            return .boolean(true)
        case "open":
            guard let url = URL(string: params["url"]?.textValue ?? "") else { throw IntentError("'\(params["url"]?.textValue ?? "")' is not a URL") }
            try await context.open(url)
            return .nothing
        case "convert":
            let value = try await decode(params["value"] ?? .nothing)
            guard let target = params["to"] else { throw IntentError("'convert' needs a target") }
            return WireValue.encode(try await context.convert(value, to: try Representation(wire: target)))
        case "run-workflow":
            let input = try await decode(params["input"] ?? .nothing)
            return WireValue.encode(try await context.runWorkflow(at: params["path"]?.textValue ?? "", input: input))
        case "register-undo":
            var arguments = ValueDictionary()
            if case .dictionary(let wired)? = params["arguments"] {
                for (name, value) in wired { arguments[name] = try await decode(value) }
            }
            try await context.registerUndo(action: params["action"]?.textValue ?? "", arguments: arguments)
            return .nothing
        case "progress":
            let fraction: Double = if case .number(let number)? = params["fraction"] { number } else { 0 }
            await context.reportProgress(fraction, params["label"].flatMap { $0.isNothing ? nil : $0.textValue })
            return .nothing
        default:
            throw IntentError("unknown callback '\(method)'")
        }
    }

    private func query(_ type: String, _ query: HostedQuery) async throws -> [HostedEntity] {
        var params: ValueDictionary = ["type": .text(type)]
        switch query {
        case .ids(let ids): params["kind"] = "ids"; params["ids"] = .list(ids.map { .text($0) })
        case .all: params["kind"] = "all"
        case .suggested: params["kind"] = "suggested"
        case .title(let title): params["kind"] = "title"; params["title"] = .text(title)
        case .request(let request): params["kind"] = "request"; params["request"] = Self.wire(request)
        }
        let found = try await self.request("query", params)
        var entities: [HostedEntity] = []
        for item in found.asList {
            guard case .entity(let entity) = try await decode(item), let hosted = entity.entity(as: HostedEntity.self) else {
                throw HostError("the host answered a query for \(type) with something that is not one")
            }
            entities.append(hosted)
        }
        return entities
    }

    private static func wire(_ request: QueryRequest) -> Value {
        [
            "conditions": .list(request.conditions.map { condition in
                [
                    "property": .text(condition.property), "comparator": .text(condition.comparator.name),
                    "operand": WireValue.encode(condition.operand), "case-sensitive": .boolean(condition.caseSensitive),
                ]
            }),
            "match-all": .boolean(request.matchAll),
            "sort": .list(request.sort.map { ["property": .text($0.property), "ascending": .boolean($0.ascending)] }),
            "limit": request.limit.map { .number(Double($0)) } ?? .nothing,
        ]
    }

    /// The entity's forms, as the host listed them, each fetching its content from the host when chosen.
    private func transferRepresentations(of entity: HostedEntity, type: String) -> [TransferRepresentation] {
        entity.representations.enumerated().map { index, representation in
            let params: ValueDictionary = ["type": .text(type), "id": .text(entity.id), "index": .number(Double(index))]
            let form: TransferRepresentation
            switch representation.kind {
            case .data:
                form = .data(representation.contentType) { [self] in
                    let reply = try await request("represent", params)
                    guard case .dictionary(let fields) = reply, case .text(let base64)? = fields["data"], let data = Data(base64Encoded: base64) else {
                        throw HostError("the host sent no \(representation.contentType.identifier) data for \(type) '\(entity.id)'")
                    }
                    return data
                }
            case .value:
                form = .proxy(representation.contentType) { [self] in
                    let reply = try await request("represent", params)
                    guard case .dictionary(let fields) = reply else { throw HostError("the host sent no value for \(type) '\(entity.id)'") }
                    return try await decode(fields["value"] ?? .nothing)
                }
            case .file:
                form = .file(representation.contentType) { [self] in
                    let reply = try await request("represent", params)
                    guard case .dictionary(let fields) = reply, case .file(let file) = try await decode(fields["file"] ?? .nothing) else {
                        throw HostError("the host sent no \(representation.contentType.identifier) file for \(type) '\(entity.id)'")
                    }
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
