import Foundation
import MCP
import Synchronization

/// `relay serve`'s `/mcp` (Docs/Assistants.md, "Over HTTP"): the same tools as `relay mcp`, for
/// the workflows the server serves, over the protocol's Streamable HTTP, behind the token made by
/// `relay serve token --mcp`. Each client that starts a session has one of its own (the SDK's
/// stateful transport and a protocol server), named by the `Mcp-Session-Id` it is given; a
/// session unused for an hour is ended when room is needed, and at most `mostSessions` are open.
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
    }

    /// The name its token is kept by: no webhook's name starts with `_`.
    static let tokenName = "_mcp"
    static let mostSessions = 32
    /// A session unused this long may be ended to make room for a new one.
    static let idleSession: Duration = .seconds(600)

    init(assistant: AssistantServer) { self.assistant = assistant }

    /// Answers `request` (its token already checked). `origin` guards a loopback server against a
    /// web page's requests sent to it by another name.
    func answer(_ request: HTTPRequest, origin: OriginValidator) async -> HTTPResponse {
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
        let response = await session.transport.handleRequest(request)
        if request.method.uppercased() == "DELETE", response.statusCode < 300 { await end(id) }
        return response
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
        do {
            server = try await assistant.start(on: transport)
        } catch {
            return .error(statusCode: 500, .internalError("could not start a session: \(error)"))
        }
        let response = await transport.handleRequest(request)
        guard let id = response.headers[HTTPHeaderName.sessionID], response.statusCode < 300 else {
            await server.stop()
            return response
        }
        state.withLock { $0.sessions[id] = Session(transport: transport, server: server, used: .now) }
        return response
    }

    /// Whether there is room for one more session: when not, the one unused longest is ended if
    /// it has been unused `idleSession`.
    private func makeRoom() async -> Bool {
        let ended = state.withLock { state -> (id: String, session: Session)?? in
            guard state.sessions.count >= Self.mostSessions else { return .some(nil) }
            guard let oldest = state.sessions.min(by: { $0.value.used < $1.value.used }), ContinuousClock.now - oldest.value.used > Self.idleSession
            else { return nil }
            state.sessions[oldest.key] = nil
            return .some((oldest.key, oldest.value))
        }
        guard let ended else { return false }
        if let ended { await ended.session.server.stop() }
        return true
    }

    private func end(_ id: String) async {
        let session = state.withLock { $0.sessions.removeValue(forKey: id) }
        await session?.server.stop()
    }

    /// No session starts, and no request is answered, from now on.
    func stopAccepting() {
        state.withLock { $0.stopping = true }
    }

    /// A request's answer is being written (`true`), or is written.
    func answering(_ started: Bool) {
        state.withLock { $0.answering += started ? 1 : -1 }
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
        for session in sessions { await session.server.stop() }
    }
}
