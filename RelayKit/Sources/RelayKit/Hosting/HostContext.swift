import Foundation

/// What an intent performed in a package host can ask of the run: every question, opening and
/// conversion goes back to Relay as a callback of the request being served.
struct HostContext: IntentContext {
    let relay: RelayConnection
    let request: Int
    let mode: RunMode
    let baseDirectory: URL
    private let scratch: Scratch
    let entityTypes: EntityCatalog
    /// The run's scratch folder as the request sees it, made when first asked for: most requests
    /// never ask, and making one looks at the file system.
    var scratchFolder: ScratchFolder { scratch.folder }
    /// Files a hosted intent changes are written atomically; Relay's undo journal does not see them (yet).
    var fileChanges: any FileChanges { PlainFileChanges() }

    init(relay: RelayConnection, request: Int, run: HostProtocol.Run, entityTypes: EntityCatalog) {
        self.relay = relay
        self.request = request
        self.entityTypes = entityTypes
        mode = run.mode
        // Both are folders: said, so that no request asks the file system (a `stat` each).
        baseDirectory = URL(fileURLWithPath: run.baseDirectory, isDirectory: true)
        scratch = Scratch(root: run.scratch)
    }

    /// The request's scratch folder, made once when first asked for. Relay keeps the run's folder
    /// within its quota; the host's share of it is not bounded again.
    private final class Scratch: @unchecked Sendable {
        private let root: String
        private let lock = NSLock()
        private var made: ScratchFolder?

        init(root: String) { self.root = root }

        var folder: ScratchFolder {
            lock.withLock {
                if let made { return made }
                let folder = ScratchFolder(root: URL(fileURLWithPath: root, isDirectory: true), quota: .unbounded)
                made = folder
                return folder
            }
        }
    }

    private func call<Callback: HostCallback>(_ callback: Callback) async throws -> Callback.Reply {
        try await relay.call(callback, for: request)
    }

    private func decode(_ wire: Value) async throws -> Value {
        try await WireValue.decode(wire, in: entityTypes)
    }

    func show(_ value: Value) async {
        _ = try? await call(HostProtocol.Show(value: WireValue.encode(value)))
    }

    func ask(_ question: Question) async throws -> Value {
        try await decode(try await call(HostProtocol.Ask(question)))
    }

    func choose(_ request: ChoiceRequest) async throws -> [Int] {
        try await call(HostProtocol.Choose(request))
    }

    func requestConfirmation(_ prompt: String) async throws {
        try await requestConfirmation(prompt, key: nil)
    }

    func requestConfirmation(_ prompt: String, key: String?) async throws {
        _ = try await call(HostProtocol.Confirm(prompt: prompt, key: key))
    }

    func open(_ url: URL) async throws {
        _ = try await call(HostProtocol.Open(url: url.absoluteString))
    }

    func convert(_ value: Value, to representation: Representation) async throws -> Value {
        try await decode(try await call(HostProtocol.Convert(value: WireValue.encode(value), to: representation)))
    }

    func runWorkflow(at path: String, input: Value) async throws -> Value {
        try await decode(try await call(HostProtocol.RunWorkflow(path: path, input: WireValue.encode(input))))
    }

    func registerUndo(action: String, arguments: ValueDictionary) async throws {
        var encoded = ValueDictionary()
        for (name, value) in arguments { encoded[name] = WireValue.encode(value) }
        _ = try await call(HostProtocol.RegisterUndo(action: action, arguments: .dictionary(encoded)))
    }

    func reportProgress(_ fraction: Double, _ label: String?) async {
        relay.send(.progress(request: request, fraction: fraction, label: label))
    }
}
