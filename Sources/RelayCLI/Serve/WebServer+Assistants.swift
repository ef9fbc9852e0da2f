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
        var request = request
        let bytes: ByteBuffer
        do {
            bytes = try await request.collectBody(upTo: Self.largestBody)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            return Self.json(.contentTooLarge, ["error": "the message is larger than 16 MiB"])
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
        let answer = await assistants.answer(message, origin: origin)
        // A request's stream ends with its response: the server waits for it when it stops.
        return Self.response(answer, tracking: request.method == .post ? assistants : nil)
    }

    /// The SDK's response as Hummingbird's: its body, or its stream of events as they come.
    private static func response(_ answer: MCP.HTTPResponse, tracking endpoint: AssistantEndpoint?) -> Response {
        var fields = HTTPFields()
        for (name, value) in answer.headers {
            if let field = HTTPField.Name(name) { fields[field] = value }
        }
        let status = HTTPTypes.HTTPResponse.Status(code: answer.statusCode)
        if case .stream(let events, _) = answer {
            return Response(
                status: status, headers: fields,
                body: ResponseBody { writer in
                    endpoint?.answering(true)
                    defer { endpoint?.answering(false) }
                    for try await event in events { try await writer.write(ByteBuffer(bytes: event)) }
                    try await writer.finish(nil)
                })
        }
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.bodyData ?? Data())))
    }
}
