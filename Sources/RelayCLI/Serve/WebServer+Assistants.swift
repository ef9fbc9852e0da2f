import Foundation
import HTTPTypes
import Hummingbird
import MCP
import NIOCore

extension WebServer {
    /// `/mcp` (Docs/Assistants.md, "Over HTTP"): with the token `relay serve token --mcp` made,
    /// in the Authorization header; the request handed to the session it names.
    func assistant(_ request: Request) async -> Response {
        guard let assistants else { return Self.json(.notFound, ["error": "this server offers no assistant's tools"]) }
        // On loopback, only the server's own names: a web page cannot reach it by a name it made point here.
        if Self.isLoopback(host), !ownNames.contains((request.head.authority ?? "").lowercased()) {
            return Self.json(.misdirectedRequest, ["error": "this server answers to \(ownNames[0]) and localhost:\(bound.port) only"])
        }
        let given = Self.bearer(request.headers[.authorization])
        // A token in the URL is kept in logs along the way: refused, whoever sent it.
        if let query = request.uri.query, !query.isEmpty {
            return Self.json(.badRequest, ["error": "/mcp takes no query: its token goes in the Authorization header (Authorization: Bearer TOKEN)"])
        }
        guard let given, tokens.matches(given, hook: AssistantEndpoint.tokenName) else {
            if given != nil, let wait = guesses.admit("mcp", limit: Self.mostGuesses) { return Self.tooManyGuesses(wait) }
            let error =
                !tokens.exists(AssistantEndpoint.tokenName) ? "/mcp has no token yet: make one with 'relay serve token --mcp'"
                : given == nil ? "/mcp needs its token: Authorization: Bearer TOKEN"
                : "the token is not /mcp's (the newest 'relay serve token --mcp' replaced the ones before it)"
            var response = Self.json(.unauthorized, ["error": error])
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.largestBody {
            return Self.json(.contentTooLarge, ["error": "the message is larger than 16 MiB"])
        }
        let bytes: ByteBuffer
        do {
            bytes = try await Self.body(of: request, within: Self.bodyTime)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            return Self.json(.contentTooLarge, ["error": "the message is larger than 16 MiB"])
        } catch is BodyTimedOut {
            var response = Self.json(.requestTimeout, ["error": "the message took longer than \(Self.bodyTime) to send"])
            response.headers[.connection] = "close"
            return response
        } catch {
            return Self.json(.badRequest, ["error": "the body could not be read: it ended early, or its chunks are not well formed"])
        }
        // A message is held in memory while it is handed on: it counts toward the bound of bodies held.
        guard bodies.take(bytes.readableBytes) else {
            var response = Self.json(.serviceUnavailable, ["error": "too many messages wait already; try again later"])
            response.headers[.retryAfter] = "10"
            return response
        }
        defer { bodies.give(bytes.readableBytes) }
        // HTTP/1's Host is the request's authority, not one of its fields: the SDK looks for it too.
        var headers: [String: String] = request.head.authority.map { ["Host": $0] } ?? [:]
        for field in request.headers {
            let name = field.name.canonicalName
            headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
        }
        let message = MCP.HTTPRequest(
            method: request.method.rawValue, headers: headers, body: bytes.readableBytes == 0 ? nil : Data(bytes.readableBytesView), path: request.uri.path)
        // A server on loopback answers only to its own names: a web page cannot reach it by another.
        let origin = Self.isLoopback(host) ? OriginValidator.localhost(port: bound.port) : OriginValidator.disabled
        // A body that is no message is answered here, with the id it gave, else null (as on standard input).
        let inspected = request.method == .post ? LineTransport.Inspected(message.body ?? Data()) : nil
        if let refusal = inspected?.refusal {
            return Response(status: .badRequest, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: refusal)))
        }
        let answer = await assistants.answer(message, origin: origin, inspected: inspected)
        // A request's stream ends with its response: the server waits for it when it stops, and a
        // client gone before it came has its call cancelled.
        let session = answer.headers[HTTPHeaderName.sessionID] ?? message.header(HTTPHeaderName.sessionID)
        var pending: Pending?
        if let session, let id = inspected?.requestID, let key = inspected?.requestKey, case .stream = answer {
            pending = Pending(endpoint: assistants, id: id, key: key, session: session, headers: headers)
        }
        return Self.response(answer, tracking: request.method == .post ? assistants : nil, session: session, pending: pending)
    }

    /// How long a message's body may take to arrive: one sent a byte at a time holds nothing for long.
    static let bodyTime: Duration = .seconds(30)

    private struct BodyTimedOut: Error {}

    /// The body of `request`, at most `largestBody`, read within `time`.
    private static func body(of request: Request, within time: Duration) async throws -> ByteBuffer {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                var request = request
                return try await request.collectBody(upTo: largestBody)
            }
            group.addTask {
                try await Task.sleep(for: time)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let bytes = first else { throw BodyTimedOut() }
            return bytes
        }
    }

    /// A request whose answer is awaited, to cancel when its client is gone first.
    struct Pending: @unchecked Sendable {
        let endpoint: AssistantEndpoint
        /// Its JSON-RPC id, as the client gave it (a text or a number), and as a key.
        let id: Any
        let key: String
        let session: String
        let headers: [String: String]

        func cancel() async {
            var headers = headers
            headers["Content-Type"] = "application/json"
            await endpoint.cancel(id, session: session, headers: headers)
        }
    }

    /// How often an answer's stream, while it waits, says it is there (an SSE comment): a client
    /// gone is found then, and its call is stopped.
    static let heartbeat: Duration = .seconds(15)

    /// The SDK's response as Hummingbird's: its body, or its stream of events as they come.
    private static func response(_ answer: MCP.HTTPResponse, tracking endpoint: AssistantEndpoint?, session: String?, pending: Pending?) -> Response {
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { fields[field] = value }
        }
        let status = HTTPTypes.HTTPResponse.Status(code: answer.statusCode)
        if case .stream(let events, _) = answer {
            return Response(
                status: status, headers: fields,
                body: ResponseBody { writer in
                    endpoint?.answering(true, in: session)
                    defer {
                        if let pending { pending.endpoint.answered(pending.key, in: pending.session) }
                        endpoint?.answering(false, in: session)
                    }
                    // The events, and a comment every `heartbeat` between them.
                    let (merged, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
                    let forwarding = Task {
                        do {
                            for try await event in events { continuation.yield(event) }
                            continuation.finish()
                        } catch {
                            continuation.finish(throwing: error)
                        }
                    }
                    let beating = Task {
                        while !Task.isCancelled {
                            try? await Task.sleep(for: heartbeat)
                            if !Task.isCancelled { continuation.yield(Data(": still working\n\n".utf8)) }
                        }
                    }
                    defer {
                        forwarding.cancel()
                        beating.cancel()
                    }
                    do {
                        for try await chunk in merged { try await writer.write(ByteBuffer(bytes: chunk)) }
                        try await writer.finish(nil)
                    } catch {
                        // The client is gone before its answer: its call is cancelled, as if it had said so.
                        await pending?.cancel()
                        throw error
                    }
                })
        }
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.bodyData ?? Data())))
    }
}
