import Foundation
import Logging
import MCP
import Synchronization

/// `relay serve`'s `/mcp` (Docs/Assistants.md, "Over HTTP"): the same tools as `relay mcp`, for
/// the workflows the server serves, over the protocol's Streamable HTTP, behind the token made by
/// `relay serve token --mcp`. Each client that starts a session has one of its own (the SDK's
/// stateful transport and a protocol server), named by the `Mcp-Session-Id` it is given; a
/// session unused for ten minutes is ended when room is needed, at most `mostSessions` are open,
/// and what they keep together is bounded (`mostKept`).
final class AssistantEndpoint: Sendable {
    let assistant: AssistantServer
    private let state = Mutex(State())

    private struct State {
        var sessions: [String: Session] = [:]
        var stopping = false
        /// The answers being written: a request's stream of events, until its response is in it.
        var answering = 0
    }

    private struct Session {
        let transport: StatefulHTTPServerTransport
        let server: MCP.Server
        var used: ContinuousClock.Instant
        /// The bytes sent in it, which its transport keeps for a client that reconnects.
        let sent: SentBytes
        /// Its requests' answers being written.
        var answering = 0
        /// Its calls under way: stopped when it ends.
        let calls: RunningRuns
        /// Over the budget while an answer of it was under way: it takes no more requests, and
        /// ends once its answers are written.
        var spent = false
        /// The requests whose answers are under way, by id.
        var pending: Set<String> = []
    }

    /// The name its token is kept by: no webhook's name starts with `_`.
    static let tokenName = "_mcp"
    static let mostSessions = 32
    /// The most bytes the sessions may have sent, together: the SDK's transport keeps each
    /// session's messages until it ends, for a client that reconnects; past this, the sessions
    /// unused longest, with no answer under way, are ended.
    static let mostKept = 64 << 20
    /// A session unused this long may be ended to make room for a new one.
    static let idleSession: Duration = .seconds(600)

    /// The most bytes the sessions may have sent together (`mostKept`, unless a test says less).
    let budget: Int

    init(assistant: AssistantServer, budget: Int = AssistantEndpoint.mostKept) {
        self.assistant = assistant
        self.budget = budget
    }

    /// Answers `request` (its token already checked), whose body is `inspected` (read once by
    /// the caller, else here). `origin` guards a loopback server against a web page's requests
    /// sent to it by another name.
    func answer(_ request: HTTPRequest, origin: OriginValidator, inspected: LineTransport.Inspected? = nil) async -> HTTPResponse {
        let post = request.method.uppercased() == "POST"
        // A JSON-RPC request's key, by its id; nil for a notification, a response or no message.
        let key = post ? (inspected ?? request.body.map(LineTransport.Inspected.init))?.requestKey : nil
        if state.withLock({ $0.stopping }) { return .error(statusCode: 503, .internalError("the server is stopping")) }
        guard let id = request.header(HTTPHeaderName.sessionID) else {
            guard request.method.uppercased() == "POST" else {
                return .error(statusCode: 400, .invalidRequest("a session starts with an initialize request; send its Mcp-Session-Id after"))
            }
            return await start(request, origin: origin)
        }
        let session = state.withLock { state -> Session? in
            state.sessions[id]?.used = .now
            return state.sessions[id]
        }
        guard let session else {
            return .error(statusCode: 404, .invalidRequest("there is no session '\(id.prefix(80))' (it ended, or the server started again): start a new one"))
        }
        // Over the budget with the others ended, this one ends too, between two of its answers;
        // with an answer under way, it takes no more requests, and ends once its answers are written.
        let spent: Bool
        if await keepWithinBudget(sparing: id) {
            spent = state.withLock { $0.sessions[id]?.spent ?? false }
        } else if state.withLock({ $0.sessions[id]?.answering == 0 }) {
            await end(id)
            spent = true
        } else {
            state.withLock { $0.sessions[id]?.spent = true }
            spent = true
        }
        // A request (whose answer it would keep) or a stream of the server's own, not a notification or a response.
        if spent, key != nil || request.method.uppercased() == "GET" {
            return .error(
                statusCode: 404,
                .invalidRequest("this session has kept more than \(budget >> 20) MiB of messages, and takes no more: start a new one"))
        }
        // A request of an id whose answer is under way would take its answer's place: refused.
        if let key {
            let taken = state.withLock { state -> Bool in
                guard state.sessions[id]?.pending.contains(key) == false else { return true }
                state.sessions[id]?.pending.insert(key)
                return false
            }
            if taken { return .error(statusCode: 409, .invalidRequest("a request of this id is under way in this session"), sessionID: id) }
        }
        let response = await session.transport.handleRequest(request)
        // A stream's answer is written later (its end says so); any other is written now.
        if let key, !Self.isStream(response) { answered(key, in: id) }
        if request.method.uppercased() == "DELETE", response.statusCode < 300 { await end(id) }
        return response
    }

    private static func isStream(_ response: HTTPResponse) -> Bool {
        if case .stream = response { true } else { false }
    }

    /// The answer to the request `key` of the session `id` is written: its id may be used again.
    func answered(_ key: String, in id: String) {
        _ = state.withLock { $0.sessions[id]?.pending.remove(key) }
    }


    /// Ends the sessions unused longest but `sparing` (whose answer may be under way), with no
    /// answer under way, while together they have sent more than `budget`; whether they are
    /// within it now.
    @discardableResult
    private func keepWithinBudget(sparing current: String) async -> Bool {
        while true {
            let (within, ended) = state.withLock { state -> (Bool, Session?) in
                let total = state.sessions.values.reduce(0) { $0 + $1.sent.count }
                guard total > budget else { return (true, nil) }
                let idle = state.sessions.filter { $0.key != current && $0.value.answering == 0 }
                guard let oldest = idle.min(by: { $0.value.used < $1.value.used }) else { return (false, nil) }
                return (false, state.sessions.removeValue(forKey: oldest.key))
            }
            guard let ended else { return within }
            await Self.stop(ended)
        }
    }

    /// A new session, for an initialize request.
    private func start(_ request: HTTPRequest, origin: OriginValidator) async -> HTTPResponse {
        guard await makeRoom() else {
            return .error(
                statusCode: 503, .internalError("\(Self.mostSessions) sessions are open already: end one (DELETE /mcp), or wait"),
                extraHeaders: ["Retry-After": "60"])
        }
        let transport = StatefulHTTPServerTransport(
            validationPipeline: StandardValidationPipeline(validators: [
                origin, AcceptHeaderValidator(mode: .sseRequired), ContentTypeValidator(), ProtocolVersionValidator(), SessionValidator(),
            ]))
        let server: MCP.Server
        let sent = SentBytes()
        let calls = RunningRuns()
        do {
            server = try await assistant.start(on: CountingTransport(transport, counting: sent), session: calls)
        } catch {
            return .error(statusCode: 500, .internalError("could not start a session: \(error)"))
        }
        let response = await transport.handleRequest(request)
        guard let id = response.headers[HTTPHeaderName.sessionID], response.statusCode < 300 else {
            await server.stop()
            return response
        }
        state.withLock { $0.sessions[id] = Session(transport: transport, server: server, used: .now, sent: sent, calls: calls) }
        await keepWithinBudget(sparing: id)
        return response
    }

    /// Whether there is room for one more session: when not, the one unused longest is ended if
    /// it has been unused `idleSession`.
    private func makeRoom() async -> Bool {
        let ended = state.withLock { state -> (id: String, session: Session)?? in
            guard state.sessions.count >= Self.mostSessions else { return .some(nil) }
            let idle = state.sessions.filter { $0.value.answering == 0 }
            guard let oldest = idle.min(by: { $0.value.used < $1.value.used }), ContinuousClock.now - oldest.value.used > Self.idleSession
            else { return nil }
            state.sessions[oldest.key] = nil
            return .some((oldest.key, oldest.value))
        }
        guard let ended else { return false }
        if let ended { await Self.stop(ended.session) }
        return true
    }

    private func end(_ id: String) async {
        guard let session = state.withLock({ $0.sessions.removeValue(forKey: id) }) else { return }
        await Self.stop(session)
    }

    /// Ends `session`: its calls under way stop, then its streams close.
    private static func stop(_ session: Session) async {
        session.calls.cancelAll(.cancelled(by: "the assistant's session ended"))
        await session.server.stop()
    }

    /// Cancels the request `requestID` of the session `id`, as its client would: its connection
    /// closed before its answer came.
    func cancel(_ requestID: Any, session id: String, headers: [String: String]) async {
        guard let session = state.withLock({ $0.sessions[id] }),
            let body = try? JSONSerialization.data(withJSONObject: [
                "jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": ["requestId": requestID, "reason": "the assistant's connection closed before the answer"],
            ] as [String: Any])
        else { return }
        _ = await session.transport.handleRequest(HTTPRequest(method: "POST", headers: headers, body: body, path: "/mcp"))
    }

    /// No session starts, and no request is answered, from now on.
    func stopAccepting() {
        state.withLock { $0.stopping = true }
    }

    /// A request's answer is being written (`true`), or is written; in the session `id`, when it
    /// has one. A spent session whose answers are written ends.
    func answering(_ started: Bool, in id: String?) {
        let ends = state.withLock { state -> Bool in
            state.answering += started ? 1 : -1
            guard let id else { return false }
            state.sessions[id]?.answering += started ? 1 : -1
            return state.sessions[id].map { $0.spent && $0.answering == 0 } ?? false
        }
        if ends, let id { Task { await end(id) } }
    }

    /// Ends every session: their streams close, once the answers under way are written (calls
    /// stopped are answered so), or two seconds have passed.
    func endAll() async {
        let deadline = ContinuousClock.now + .seconds(2)
        while state.withLock({ $0.answering > 0 }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        let sessions = state.withLock { state in
            defer { state.sessions.removeAll() }
            return Array(state.sessions.values)
        }
        for session in sessions { await Self.stop(session) }
    }
}

/// How many bytes a session's server has sent.
final class SentBytes: Sendable {
    private let total = Mutex(0)
    var count: Int { total.withLock { $0 } }
    func add(_ bytes: Int) { total.withLock { $0 += bytes } }
}

/// A session's transport, counting what its server sends through it.
actor CountingTransport: Transport {
    nonisolated let logger: Logger
    private let inner: StatefulHTTPServerTransport
    private let sent: SentBytes

    init(_ inner: StatefulHTTPServerTransport, counting sent: SentBytes) {
        self.inner = inner
        self.sent = sent
        logger = inner.logger
    }

    /// The inner transport's messages, taken when it connects (the server asks for them after).
    private var messages: AsyncThrowingStream<Data, any Swift.Error>?

    func connect() async throws {
        try await inner.connect()
        messages = await inner.receive()
    }
    func disconnect() async { await inner.disconnect() }
    func send(_ data: Data) async throws {
        sent.add(data.count)
        try await inner.send(data)
    }
    func receive() -> AsyncThrowingStream<Data, any Swift.Error> {
        messages ?? AsyncThrowingStream { $0.finish(throwing: MCPError.internalError("the transport is not connected")) }
    }
}
