import Foundation
import MCP
import RelayKit
import Testing

@testable import RelayCLI

/// `relay serve`'s `/mcp` sessions, handed requests as its web server hands them on.
@Suite("Assistants: the sessions of /mcp")
struct AssistantEndpointTests {
    /// An endpoint offering no tools, whose sessions may send `budget` bytes together.
    private func endpoint(budget: Int) throws -> AssistantEndpoint {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("relay-endpoint-\(UUID().uuidString)")
        let assistant = AssistantServer(
            offered: { Offered() },
            options: ToolRunOptions(granted: [:], grantsDeclared: false, packages: [], stateFolder: state, paths: []),
            assumeYes: false, yesFlag: nil, asksPermissions: false, callFolder: state.appendingPathComponent("mcp-calls"), calls: RunningRuns(),
            resources: EntityResources(EntityCatalog()))
        return AssistantEndpoint(assistant: assistant, budget: budget)
    }

    private static let headers = ["Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Host": "127.0.0.1:1"]

    /// POSTs `body` (in the session `id`), and reads the answer's events to their end.
    private func post(_ endpoint: AssistantEndpoint, _ body: String, session id: String? = nil) async -> (status: Int, session: String?, text: String) {
        var headers = Self.headers
        if let id {
            headers[HTTPHeaderName.sessionID] = id
            headers["MCP-Protocol-Version"] = "2025-06-18"
        }
        let answer = await endpoint.answer(HTTPRequest(method: "POST", headers: headers, body: Data(body.utf8), path: "/mcp"), origin: .localhost(port: 1))
        var text = String(decoding: answer.bodyData ?? Data(), as: UTF8.self)
        if case .stream(let events, _) = answer {
            endpoint.answering(true, in: answer.headers[HTTPHeaderName.sessionID])
            defer { endpoint.answering(false, in: answer.headers[HTTPHeaderName.sessionID]) }
            do { for try await event in events { text += String(decoding: event, as: UTF8.self) } } catch {}
        }
        return (answer.statusCode, answer.headers[HTTPHeaderName.sessionID], text)
    }

    private let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#

    @Test("the sessions' kept messages are bounded together: past the budget, the one unused longest is ended, and its client told to start again")
    func keptMessagesAreBounded() async throws {
        let endpoint = try endpoint(budget: 1_500)
        let first = await post(endpoint, initialize)
        let firstID = try #require(first.session, "\(first)")
        let second = await post(endpoint, initialize)
        let secondID = try #require(second.session, "\(second)")
        // The first sends more than the budget: the second, unused longest, is ended to keep within it.
        var statuses: [Int] = []
        for id in 2...30 {
            statuses.append(await post(endpoint, #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/list"}"#, session: firstID).status)
        }
        let ended = await post(endpoint, #"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#, session: secondID)
        #expect(ended.status == 404 && ended.text.contains("start a new one"), "\(ended)")
        // Alone over the budget, the first ends too, between two of its answers: each answer it was given came whole.
        let answered = statuses.prefix { $0 == 200 }.count
        #expect(answered > 2 && statuses.dropFirst(answered).first == 404, "\(statuses)")
        let third = await post(endpoint, initialize)
        #expect(third.status == 200 && third.session != nil, "\(third)")
        await endpoint.endAll()
    }

    @Test("a session over the budget while an answer of it is under way takes no more requests, and ends once its answers are written")
    func spentSessionEndsAfterItsAnswers() async throws {
        let endpoint = try endpoint(budget: 1_500)
        let id = try #require(await post(endpoint, initialize).session)
        // An answer of it under way (its stream still being written).
        endpoint.answering(true, in: id)
        var statuses: [Int] = []
        for number in 2...30 {
            statuses.append(await post(endpoint, #"{"jsonrpc":"2.0","id":\#(number),"method":"tools/list"}"#, session: id).status)
        }
        #expect(statuses.contains(404) && statuses.drop { $0 == 200 }.allSatisfy { $0 == 404 }, "\(statuses)")
        // A notification still reaches it: only requests, whose answers it would keep, are refused.
        let notified = await post(endpoint, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, session: id)
        #expect(notified.status == 202, "\(notified)")
        endpoint.answering(false, in: id)
        for _ in 0..<200 where await post(endpoint, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, session: id).status != 404 {
            try await Task.sleep(for: .milliseconds(10))
        }
        let ended = await post(endpoint, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, session: id)
        #expect(ended.status == 404 && ended.text.contains("there is no session"), "\(ended)")
        await endpoint.endAll()
    }

    @Test("a request of an id whose answer is under way is refused, not given the other's answer; once answered, the id is free")
    func duplicateIDs() async throws {
        let endpoint = try endpoint(budget: AssistantEndpoint.mostKept)
        let id = try #require(await post(endpoint, initialize).session)
        // This harness reads the answers but never says they were written: the ids stay taken.
        #expect(await post(endpoint, #"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#, session: id).status == 200)
        #expect(await post(endpoint, #"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#, session: id).status == 409)
        endpoint.answered("n:5", in: id)
        #expect(await post(endpoint, #"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#, session: id).status == 200)
        await endpoint.endAll()
    }

    @Test("a session is refused past the most open at once, unless one has been idle long enough to end")
    func sessionsAreBounded() async throws {
        let endpoint = try endpoint(budget: AssistantEndpoint.mostKept)
        for _ in 0..<AssistantEndpoint.mostSessions {
            let started = await post(endpoint, initialize)
            #expect(started.status == 200, "\(started)")
        }
        let refused = await post(endpoint, initialize)
        #expect(refused.status == 503, "\(refused)")
        await endpoint.endAll()
    }
}
