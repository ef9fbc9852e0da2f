import Foundation
import Hummingbird
#if canImport(Glibc)
    import Glibc
#endif
import HummingbirdCore
import HTTPTypes
import Logging
import RelayKit
import RelayLanguage
import RelayRuntime

/// The HTTP side of `relay serve` (Docs/Automations.md): `POST /hooks/NAME` runs a webhook's
/// workflow, `GET /` is the page of served workflows and their runs, `GET /runs/ID` a run's page,
/// and "Run now" posts to `/workflows/N/run`. Hummingbird, on SwiftNIO, reads the requests, with
/// bounded headers and connections; what a request may hold beyond that is held here.
struct WebServer: Sendable {
    let server: Server
    let tokens: HookTokens
    let stateFolder: URL
    let log: Server.ServeLog
    /// Where it listens.
    let host: String
    let port: Int
    /// The page's token (`--token-file`): asked of every request for the page when given.
    let pageToken: String?
    /// The `--allow-…` flags every served workflow is given, which the page shows.
    let flags: [String]
    /// `/mcp`: the served workflows as an assistant's tools.
    let assistants: AssistantEndpoint?

    /// The most bytes a webhook's body may have.
    static let largestBody = 16 << 20
    /// The most connections open at once; more wait to be accepted.
    static let mostConnections = 1_024
    /// A connection that sends nothing this long is closed.
    static let idle: Int64 = 30

    /// Answers the page's forms: a value made at each start, which another site cannot read.
    private let formToken = HookTokens.randomText()
    private let calls = CallWindow()
    let bodies = BodyBudget()
    /// Wrong page tokens in the last minute, held to a few: a token is not guessed call by call.
    let guesses = CallWindow()
    static let mostGuesses = 10
    /// The port it listens on, once it does (`--port 0`: one the system chose).
    let bound = BoundPort()

    final class BoundPort: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        var port: Int {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }

    init(
        server: Server, tokens: HookTokens, stateFolder: URL, log: Server.ServeLog, host: String, port: Int, pageToken: String?, flags: [String],
        assistants: AssistantEndpoint? = nil
    ) {
        self.server = server
        self.tokens = tokens
        self.stateFolder = stateFolder
        self.log = log
        self.host = host
        self.port = port
        self.pageToken = pageToken
        self.flags = flags
        self.assistants = assistants
    }

    /// Listens until cancelled; throws when it cannot listen. `ready` is told the port once it does.
    func run(ready: @escaping @Sendable (Int) -> Void) async throws {
        Self.allowDescriptors(Self.mostConnections + 512)
        let router = Router(context: ServeContext.self)
        let web = self
        router.post("/hooks/:name") { request, context in await web.hook(request, name: context.parameters.get("name") ?? "") }
        router.get("/") { request, context in await web.page(request, from: context.peerPort) }
        router.get("/runs/:id") { request, context in await web.runPage(request, id: context.parameters.get("id") ?? "", from: context.peerPort) }
        router.post("/workflows/:index/run") { request, context in
            await web.runNow(request, index: context.parameters.get("index") ?? "", from: context.peerPort)
        }
        router.post("/login") { request, _ in await web.login(request) }
        router.post("/mcp") { request, _ in await web.assistant(request) }
        router.get("/mcp") { request, _ in await web.assistant(request) }
        router.delete("/mcp") { request, _ in await web.assistant(request) }
        var logger = Logger(label: "relay-serve")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: .seconds(Self.idle))),
            configuration: .init(
                address: .hostname(host, port: port), serverName: "relay",
                availableConnectionsDelegate: MaximumAvailableConnections(Self.mostConnections)),
            onServerRunning: { [port, bound] channel in
                bound.port = channel.localAddress?.port ?? port
                ready(bound.port)
            },
            logger: logger)
        try await app.run()
    }

    // MARK: Webhooks

    private func hook(_ request: Request, name: String) async -> Response {
        var response = await answer(request, hook: name)
        // A refused call's body may be unread, or read in part: the connection ends with it.
        if response.status.code >= 400 { response.headers[.connection] = "close" }
        return response
    }

    private func answer(_ request: Request, hook name: String) async -> Response {
        // Only a name a webhook may have is looked up: it names the token's file.
        guard Trigger.isWebhookName(name) else {
            return Self.json(.notFound, ["error": "no webhook named '\(Excerpt.start(of: name))' is served here"])
        }
        let query = Self.query(request.uri.query)
        guard let query, query.count <= 100 else { return Self.json(.badRequest, ["error": "the query has too many parameters, or is not percent-encoded"]) }
        // A token in the URL is kept in logs and histories along the way: refused, whoever sent it.
        let tokenNames: Set<String> = ["token", "access_token", "auth", "authorization", "bearer", "api_key", "apikey", "key"]
        if query.contains(where: { tokenNames.contains($0.0.lowercased()) || tokens.matches($0.1, hook: name) }) {
            log.note("webhook \(name): refused a token in the URL", error: true)
            return Self.json(
                .badRequest,
                ["error": "a token goes in the Authorization header (Authorization: Bearer TOKEN), never in the URL, where logs keep it; if this was the token, make a new one with 'relay serve token \(name)'"])
        }
        guard Trigger.isWebhookName(name), let (served, trigger) = server.hook(name), case .webhook(let hook) = trigger.kind else {
            // A workflow that has it but is not armed: why, for whoever has its token.
            if Trigger.isWebhookName(name), let idle = server.served.first(where: { $0.problem == nil && $0.hooks.contains { $0.name == name } }),
                let given = Self.bearer(request.headers[.authorization]), tokens.matches(given, hook: name)
            {
                return Self.json(.serviceUnavailable, ["error": "nothing was run: \(idle.file) needs \(ServeCommand.needs(of: idle))"])
            }
            return Self.json(.notFound, ["error": "no webhook named '\(Excerpt.start(of: name))' is served here"])
        }
        let given = Self.bearer(request.headers[.authorization])
        guard let given, tokens.matches(given, hook: name) else {
            let error =
                !tokens.exists(name) ? "webhook '\(name)' has no token yet: make one with 'relay serve token \(name)'"
                : given == nil ? "a webhook needs its token: Authorization: Bearer TOKEN"
                : "the token is not this webhook's (the newest 'relay serve token \(name)' replaced the ones before it)"
            var response = Self.json(.unauthorized, ["error": error])
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
        if let wait = calls.admit(name, limit: hook.limit) {
            var response = Self.json(.tooManyRequests, ["error": "more than \(hook.limit) calls a minute ('limit:')"])
            response.headers[.retryAfter] = String(Int(wait.rounded(.up)))
            return response
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.largestBody {
            return Self.json(.contentTooLarge, ["error": "the body is larger than 16 MiB"])
        }
        var request = request
        let bytes: ByteBuffer
        do {
            bytes = try await request.collectBody(upTo: Self.largestBody)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            return Self.json(.contentTooLarge, ["error": "the body is larger than 16 MiB"])
        } catch {
            return Self.json(.badRequest, ["error": "the body could not be read: it ended early, or its chunks are not well formed"])
        }
        let type = request.headers[.contentType]
        // A body read into memory (not written to a file) counts toward the bound until its run ends.
        let held = Self.isHeldInMemory(type) ? bytes.readableBytes : 0
        guard bodies.take(held) else {
            var response = Self.json(.serviceUnavailable, ["error": "nothing was run: too many calls' bodies wait already; try again later"])
            response.headers[.retryAfter] = "10"
            return response
        }
        let body: (WorkflowRun.Input, String?)
        do {
            body = try Self.input(Array(bytes.readableBytesView), type: type, hook: name)
        } catch {
            bodies.give(held)
            return Self.json(.badRequest, ["error": error.description])
        }
        let mediaType = type.map(Self.mediaType)
        let described = Self.describe(body.0, size: bytes.readableBytes, hook: name)
        var input = body.0
        if case .given(let value, _) = input { input = .given(value, described ?? "") }
        let budget = bodies
        let hookRequest = HookRequest(
            name: name, query: query, contentType: mediaType, size: bytes.readableBytes, body: input, spool: body.1, release: { budget.give(held) })
        let watcher = RunWatcher()
        let queuedID = await Self.queue(served.file, input: described, stateFolder: stateFolder)
        let fired = server.fire(
            Server.Firing(trigger: trigger, time: Date(), request: hookRequest, queuedID: queuedID, watcher: watcher), of: served.file)
        switch fired {
        case .started, .queued:
            break
        case .skipped, .dropped, .closed:
            hookRequest.finished()
            if let queuedID { await Self.forget(queuedID, stateFolder: stateFolder) }
            let reason =
                fired == .skipped ? "a run of it is under way, and its webhook says 'concurrency: skip'"
                : fired == .dropped ? "\(WorkflowQueue.longest) runs of it are waiting already" : "the server is stopping"
            var response = Self.json(fired == .skipped ? .conflict : .serviceUnavailable, ["error": "nothing was run: \(reason)"])
            if fired != .skipped { response.headers[.retryAfter] = "10" }
            return response
        }
        // A run that reads a secret is not waited for: how it ended could answer, call by call,
        // a question about the secret (Docs/Security.md, "Runs nobody started").
        let (outcome, ended) = await watcher.outcome(within: served.readsSecrets ? 0 : hook.wait)
        guard ended, let outcome, !served.readsSecrets else {
            let id = await watcher.id(within: 0) ?? queuedID
            var fields: [String: Value] = ["status": .text(watcher.started ? "running" : "queued")]
            if let id { fields["run"] = .number(Double(id)) }
            var response = Self.json(.accepted, fields)
            if let id { response.headers[.location] = "/runs/\(id)" }
            return response
        }
        return Self.answer(outcome, error: watcher.errorText)
    }

    /// The header that names the run a webhook's answer comes from.
    static let runHeader = HTTPField.Name("Relay-Run")

    /// A run's end as a webhook's answer: its output as JSON, or what went wrong.
    static func answer(_ outcome: WorkflowRun.Outcome, error: String) -> Response {
        var response: Response
        if outcome.status == 0 {
            let output = (outcome.output ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            response = Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: (output.isEmpty ? "null" : output) + "\n")))
        } else {
            let (status, word): (HTTPResponse.Status, String) =
                switch outcome.status {
                case ExitStatus.permissionDenied.rawValue: (.forbidden, "denied")
                case ExitStatus.invalid.rawValue: (.unprocessableContent, "did not check")
                case ExitStatus.cancelled.rawValue, 128...: (.serviceUnavailable, "stopped")
                default: (.internalServerError, "failed")
                }
            var fields: [String: Value] = ["status": .text(word), "exit": .number(Double(outcome.status)), "error": .text(error)]
            if let id = outcome.runID { fields["run"] = .number(Double(id)) }
            response = json(status, fields)
        }
        if let id = outcome.runID, let name = runHeader { response.headers[name] = String(id) }
        return response
    }

    /// The body as the run's input: JSON a value, a form a dictionary, text text, anything else a
    /// file, written in a folder of its own; and that folder.
    static func input(_ bytes: [UInt8], type: String?, hook: String) throws(ServeError) -> (WorkflowRun.Input, String?) {
        guard !bytes.isEmpty else { return (.none, nil) }
        let media = type.map(mediaType) ?? "application/octet-stream"
        let charset = type.flatMap(Self.charset)
        if media == "application/json" || media.hasSuffix("+json") {
            do {
                return (.given(try JSONReader.value(from: bytes), ""), nil)
            } catch {
                throw ServeError("the body is not JSON, as its Content-Type says: \(error)")
            }
        }
        if media.hasPrefix("text/") || media == "application/x-www-form-urlencoded" {
            guard charset == nil || charset == "utf-8" || charset == "us-ascii", let text = String(validating: bytes, as: UTF8.self) else {
                throw ServeError("the body is not UTF-8 text, as its Content-Type says")
            }
            guard media == "application/x-www-form-urlencoded" else { return (.given(.text(text), ""), nil) }
            guard let fields = query(text) else { throw ServeError("the body is not a form, as its Content-Type says") }
            var form = ValueDictionary()
            for (name, value) in fields { form[name] = .text(value) }
            return (.given(.dictionary(form), ""), nil)
        }
        // Anything else is a file, named by its type, in a folder only this user can read.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-hook-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ServeError("the body could not be kept: \(error.localizedDescription)")
        }
        let file = folder.appendingPathComponent("\(hook)\(ContentType(mimeType: media)?.preferredExtension.map { "." + $0 } ?? "")")
        guard FileManager.default.createFile(atPath: file.path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            try? FileManager.default.removeItem(at: folder)
            throw ServeError("the body could not be kept in \(folder.path)")
        }
        return (.given(.file(FileReference(path: file.path)), ""), folder.path)
    }

    /// Whether a body of `type` is read into memory (JSON, a form, text), not written to a file.
    static func isHeldInMemory(_ type: String?) -> Bool {
        guard let media = type.map(mediaType) else { return false }
        return media == "application/json" || media.hasSuffix("+json") || media.hasPrefix("text/") || media == "application/x-www-form-urlencoded"
    }

    /// What the input was, in words, for the history.
    static func describe(_ input: WorkflowRun.Input, size: Int, hook: String) -> String? {
        let from = "from POST /hooks/\(hook)"
        switch input {
        case .given(.dictionary, _): return "a dictionary, \(size) bytes, \(from)"
        case .given(.list, _): return "a list, \(size) bytes, \(from)"
        case .given(.text, _): return "text, \(size) bytes, \(from)"
        case .given(.file(let file), _): return "a file, \(size) bytes (\(file.path)), \(from)"
        case .given: return "a value, \(size) bytes, \(from)"
        default: return nil
        }
    }

    /// Writes the call's run into the history as queued before its caller is answered: a server
    /// that then dies leaves it there, marked interrupted once it is found gone.
    static func queue(_ workflow: String, input: String?, stateFolder: URL) async -> Int64? {
        await onHistory(stateFolder) { history in
            try history.begin(
                .init(workflow: workflow, content: nil, folder: FileManager.default.currentDirectoryPath, arguments: nil, input: input, trigger: "webhook"),
                status: .queued)
        }
    }

    /// Removes a queued run that never started.
    static func forget(_ id: Int64, stateFolder: URL) async {
        _ = await onHistory(stateFolder) { history in try history.forget(queued: id) }
    }

    private static let historyQueue = DispatchQueue(label: "relay.serve-history")

    /// Runs `body` with the history, on a queue of its own, never on the caller's thread.
    static func onHistory<T: Sendable>(_ stateFolder: URL, _ body: @escaping @Sendable (RunHistory) throws -> T) async -> T? {
        await withCheckedContinuation { (done: CheckedContinuation<T?, Never>) in
            historyQueue.async {
                do {
                    let history = try RunHistory(path: stateFolder.appendingPathComponent(RunHistory.fileName).path)
                    history.setBusyTimeout(2_000)
                    done.resume(returning: try body(history))
                } catch {
                    done.resume(returning: nil)
                }
            }
        }
    }

    // MARK: The page

    /// Whether a request for the page may have it: sent to this server by its own name (not a
    /// name another site made to point here), and with the page's token when it has one; without
    /// one, from a process of this user's only.
    private func admitted(_ request: Request, from peerPort: Int?) -> Response? {
        if pageToken == nil, !PeerOwner.isOwnUser(clientPort: peerPort, serverPort: bound.port) {
            return Self.text(.forbidden, "this page is its owner's alone: another user of this machine cannot see it (--token-file gives it a token)")
        }
        if pageToken == nil || Self.isLoopback(host) {
            guard ownNames.contains((request.head.authority ?? "").lowercased()) else {
                return Self.text(.misdirectedRequest, "this server answers to \(ownNames[0]) and localhost:\(bound.port) only")
            }
        }
        guard let pageToken else { return nil }
        let given = Self.bearer(request.headers[.authorization]) ?? request.cookies["relay_token"]?.value
        guard let given, Self.sameText(given, pageToken) else {
            if given != nil, let wait = guesses.admit("page", limit: Self.mostGuesses) { return Self.tooManyGuesses(wait) }
            return Self.html(.unauthorized, ServePage.login())
        }
        return nil
    }

    /// The names a request may give this server by (`127.0.0.1:PORT`, `localhost:PORT` …).
    var ownNames: [String] {
        ["127.0.0.1", "localhost", "[::1]", host.contains(":") ? "[\(host)]" : host].map { "\($0):\(bound.port)" }
    }

    private func page(_ request: Request, from peerPort: Int?) async -> Response {
        if let refused = admitted(request, from: peerPort) { return refused }
        let filter = Self.query(request.uri.query) ?? []
        let value = { (name: String) in filter.last(where: { $0.0 == name })?.1.trimmingCharacters(in: .whitespaces) }
        let status = value("status").flatMap { RunHistory.Status(rawValue: $0) }
        let workflow = value("workflow").flatMap { $0.isEmpty ? nil : $0 }
        let trigger = value("trigger").flatMap { $0.isEmpty ? nil : $0 }
        let runs = await Self.onHistory(stateFolder) { history in
            try history.markInterrupted()
            return try history.runs(matching: .init(workflow: workflow, status: status, since: nil, limit: 100, trigger: trigger))
        }
        let served = server.served
        let last = await Self.onHistory(stateFolder) { history in
            served.compactMap { workflow in
                (try? history.runs(matching: .init(workflow: workflow.file, status: nil, since: nil, limit: 1)).first).flatMap { $0 }
            }
        }
        let html = ServePage.page(
            served: served, runs: runs ?? [], lastRuns: last ?? [], started: server.startedAt, now: Date(), flags: flags, formToken: formToken,
            filter: .init(workflow: workflow, status: status?.rawValue, trigger: trigger), historyReadable: runs != nil,
            troubles: Dictionary(served.map { ($0.file, server.troubles(of: $0.file)) }, uniquingKeysWith: { first, _ in first }))
        return Self.html(.ok, html)
    }

    private func runPage(_ request: Request, id: String, from peerPort: Int?) async -> Response {
        if let refused = admitted(request, from: peerPort) { return refused }
        guard let number = Int64(id), number > 0 else { return Self.html(.notFound, ServePage.missing("There is no run \(id).")) }
        let run = await Self.onHistory(stateFolder) { history in try history.run(number) }
        guard let run = run ?? nil else { return Self.html(.notFound, ServePage.missing("There is no run \(number) in the history.")) }
        return Self.html(.ok, RunPage.html(run, back: "/"))
    }

    private func runNow(_ request: Request, index: String, from peerPort: Int?) async -> Response {
        if let refused = admitted(request, from: peerPort) { return refused }
        var request = request
        guard let bytes = try? await request.collectBody(upTo: 64 << 10), let text = String(validating: Array(bytes.readableBytesView), as: UTF8.self),
            let form = Self.query(text), let token = form.last(where: { $0.0 == "form" })?.1, Self.sameText(token, formToken)
        else {
            return Self.html(.forbidden, ServePage.missing("This form is out of date: load the page again and press Run now there."))
        }
        let served = server.served
        guard let number = Int(index), served.indices.contains(number) else {
            return Self.html(.notFound, ServePage.missing("There is no such workflow here."))
        }
        let workflow = served[number]
        guard workflow.runsNow else {
            return Self.html(.conflict, ServePage.missing("\(workflow.file) is not run from the page: the page says why."))
        }
        let watcher = RunWatcher()
        switch server.fire(Server.Firing(trigger: nil, time: Date(), watcher: watcher), of: workflow.file) {
        case .started, .queued:
            let id = await watcher.id(within: 5)
            return Self.redirect(id.map { "/runs/\($0)" } ?? "/")
        case .skipped, .dropped, .closed:
            return Self.html(.serviceUnavailable, ServePage.missing("Nothing was run: the server is stopping, or too many runs wait."))
        }
    }

    private func login(_ request: Request) async -> Response {
        var request = request
        guard let pageToken, let bytes = try? await request.collectBody(upTo: 64 << 10),
            let text = String(validating: Array(bytes.readableBytesView), as: UTF8.self), let form = Self.query(text),
            let given = form.last(where: { $0.0 == "token" })?.1, Self.sameText(given, pageToken)
        else {
            if let wait = guesses.admit("page", limit: Self.mostGuesses) { return Self.tooManyGuesses(wait) }
            return Self.html(.unauthorized, ServePage.login())
        }
        var response = Self.redirect("/")
        response.headers[.setCookie] = "relay_token=\(pageToken); HttpOnly; SameSite=Strict; Path=/"
        return response
    }

    // MARK: Helpers

    /// Raises the soft limit on open descriptors to `count`, as far as the hard limit lets it: a
    /// connection is one, and the runs' files and children need theirs.
    static func allowDescriptors(_ count: Int) {
        #if canImport(Glibc)
            let resource = Int32(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(count))
        setrlimit(resource, &limit)
    }

    /// `localhost`, `::1`, or an address `127.x.y.z` written in digits: not a name that merely
    /// starts so.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) && (Int($0) ?? 256) <= 255 }
    }

    /// `Bearer TOKEN`'s token.
    static func bearer(_ header: String?) -> String? {
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// Whether two texts are the same, compared by their digests, every byte.
    static func sameText(_ a: String, _ b: String) -> Bool {
        guard let x = HookTokens.digest(a), let y = HookTokens.digest(b) else { return false }
        return HookTokens.sameDigests(x, y)
    }

    /// A query or a form's pairs (`FormEncoding`); none for no text.
    static func query(_ text: String?) -> [(String, String)]? {
        guard let text else { return [] }
        return FormEncoding.pairs(text)
    }

    /// `text/plain; charset=utf-8` → `text/plain`.
    static func mediaType(_ type: String) -> String {
        String(type.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }

    static func charset(_ type: String) -> String? {
        for parameter in type.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: " \"")).lowercased()
            }
        }
        return nil
    }

    static func json(_ status: HTTPResponse.Status, _ fields: [String: Value]) -> Response {
        var dictionary = ValueDictionary()
        for key in fields.keys.sorted() { dictionary[key] = fields[key] }
        let text = OutputFormatter.render(.dictionary(dictionary), json: true)
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func json(_ status: HTTPResponse.Status, _ fields: [String: String]) -> Response {
        json(status, fields.mapValues { Value.text($0) })
    }

    static func html(_ status: HTTPResponse.Status, _ page: String) -> Response {
        Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
                .xContentTypeOptions: "nosniff", .cacheControl: "no-store",
            ], body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }

    static func tooManyGuesses(_ wait: Double) -> Response {
        var response = text(.tooManyRequests, "more than \(mostGuesses) wrong tokens in a minute: wait")
        response.headers[.retryAfter] = String(Int(wait.rounded(.up)))
        return response
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}

/// A request's context: where it came from, which says whose process sent it.
struct ServeContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The caller's port, on its side of the connection.
    let peerPort: Int?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerPort = source.channel.remoteAddress?.port
    }
}
