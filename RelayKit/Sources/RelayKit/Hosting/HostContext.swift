import Foundation

/// What an intent performed in a package host can ask of the run: every question, opening and
/// conversion goes back to Relay as a callback of the request being served.
struct HostContext: IntentContext {
    let channel: HostChannel
    let request: Int
    let mode: RunMode
    let baseDirectory: URL
    let scratchFolder: ScratchFolder
    let entityTypes: EntityCatalog
    /// Files a hosted intent changes are written atomically; Relay's undo journal does not see them (yet).
    var fileChanges: FileChanges { FileChanges(journal: nil) }

    init(channel: HostChannel, request: Int, params: ValueDictionary, entityTypes: EntityCatalog) {
        self.channel = channel
        self.request = request
        self.entityTypes = entityTypes
        mode = params["mode"]?.textValue == RunMode.interactive.rawValue ? .interactive : .background
        baseDirectory = URL(fileURLWithPath: params["base-directory"]?.textValue ?? FileManager.default.currentDirectoryPath)
        scratchFolder = params["scratch"].map { ScratchFolder(root: URL(fileURLWithPath: $0.textValue)) } ?? ScratchFolder()
    }

    private func call(_ method: String, _ params: ValueDictionary) async throws -> Value {
        try await channel.call(method, for: request, params)
    }

    private func decode(_ wire: Value) async throws -> Value {
        try await WireValue.decode(wire, in: entityTypes)
    }

    func show(_ value: Value) async {
        _ = try? await call("show", ["value": WireValue.encode(value)])
    }

    func ask(_ question: Question) async throws -> Value {
        var params: ValueDictionary = ["prompt": .text(question.prompt), "type": .text(question.type.name)]
        if let defaultValue = question.defaultValue { params["default"] = WireValue.encode(defaultValue) }
        return try await decode(try await call("ask", params))
    }

    func choose(_ request: ChoiceRequest) async throws -> [Int] {
        let answer = try await call("choose", request.wire)
        return answer.asList.compactMap { if case .number(let index) = $0 { Int(exactly: index) } else { nil } }
    }

    func requestConfirmation(_ prompt: String) async throws {
        _ = try await call("confirm", ["prompt": .text(prompt)])
    }

    func open(_ url: URL) async throws {
        _ = try await call("open", ["url": .text(url.absoluteString)])
    }

    func convert(_ value: Value, to representation: Representation) async throws -> Value {
        try await decode(try await call("convert", ["value": WireValue.encode(value), "to": representation.wire]))
    }

    func runWorkflow(at path: String, input: Value) async throws -> Value {
        try await decode(try await call("run-workflow", ["path": .text(path), "input": WireValue.encode(input)]))
    }

    func registerUndo(action: String, arguments: ValueDictionary) async throws {
        var encoded = ValueDictionary()
        for (name, value) in arguments { encoded[name] = WireValue.encode(value) }
        _ = try await call("register-undo", ["action": .text(action), "arguments": .dictionary(encoded)])
    }

    func reportProgress(_ fraction: Double, _ label: String?) async {
        channel.send(.progress(request: request, fraction: fraction, label: label))
    }
}
