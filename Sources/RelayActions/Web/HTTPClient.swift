import CHTTPClient
import Foundation
import RelayKit

/// One HTTP exchange through libcurl (opened on first use by the `CHTTPClient` shim, so that
/// FoundationNetworking and libcurl do not load at every start; see Docs/Performance.md).
enum HTTPClient {
    /// Bytes to send or received: in memory, or in a file (read or written as they go, so a big
    /// body never sits whole in memory; Docs/Reliability.md, "Big files").
    enum Body: Sendable {
        case bytes(Data)
        case file(path: String)
        /// A file to send, read at the path the gate allowed, with no symbolic link followed.
        case upload(FileReference)

        /// The first `count` bytes (to tell the type of the content, or to quote it in a message).
        func prefix(_ count: Int) -> Data {
            switch self {
            case .bytes(let data): return data.prefix(count)
            case .file(let path):
                guard let handle = FileHandle(forReadingAtPath: path) else { return Data() }
                defer { try? handle.close() }
                return (try? handle.read(upToCount: count)) ?? Data()
            case .upload(let file):
                guard let descriptor = try? file.openForReading() else { return Data() }
                let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
                return (try? handle.read(upToCount: count)) ?? Data()
            }
        }
    }

    struct Request: Sendable {
        var url: URL
        var method: String
        var headers: [String]
        var body: Body?
        /// A connection not made, or a response that sends nothing, for this long fails; the
        /// whole exchange has no limit but the step's `timeout:`.
        var stallSeconds = 60
    }

    struct Response: Sendable {
        let status: Int
        let body: Body
        let contentType: String?
        /// Where a redirect points (an absolute URL), or nil.
        var redirect: String? = nil
        /// The URL this response came from: the last hop's, after redirects (set by `send`).
        var url: URL? = nil
        /// The response's header lines, as the server sent them (at most 64 KiB).
        var headerLines: Data = Data()

        /// The headers by name, in the order sent; a name sent twice has its values joined with
        /// ", " (RFC 9110). Names are lower-cased, as HTTP/2 sends them.
        var headers: ValueDictionary {
            var headers = ValueDictionary()
            for line in TextSplitting.lines(String(decoding: headerLines, as: UTF8.self)) {
                guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("HTTP/") else { continue }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { continue }
                headers[name] = headers[name].map { .text($0.textValue + ", " + value) } ?? .text(value)
            }
            return headers
        }
    }

    /// A transfer's stop flag and progress, shared with libcurl's thread.
    final class Transfer: @unchecked Sendable {
        private let pointer: OpaquePointer?

        init() { pointer = relay_http_transfer_create() }
        deinit { relay_http_transfer_free(pointer) }

        /// Raised, the transfer stops within a second (libcurl's progress callback reads it).
        func stop() {
            guard let pointer else { return }
            relay_http_transfer_stop(pointer)
        }

        /// The bytes received so far, of the announced total.
        var display: (fraction: Double, label: String) {
            guard let pointer else { return (0, "") }
            var received: UInt64 = 0
            var expected: UInt64 = 0
            relay_http_transfer_progress(pointer, &received, &expected)
            return ByteProgress.display(done: Int64(clamping: received), total: Int64(clamping: expected))
        }

        fileprivate var handle: OpaquePointer? { pointer }
    }

    /// Sends the request and follows its redirects (at most `maxRedirects`), asking `authorize` about
    /// every hop's host before connecting to it: a redirect is a new connection, and goes through
    /// the gate like the first (Docs/Security.md, "Requests"). Each hop connects only to the host
    /// and port that were asked about. A 303, and a 301 or 302 of a POST, continue as a GET without
    /// the body, as browsers do; a 307 or 308 repeats the method and body. Credentials
    /// (`Authorization`, `Cookie`) do not follow a redirect to another host.
    ///
    /// Returns the last response, whatever its status; throws when no response came (no
    /// connection, a timeout, no space left), for a URL whose host cannot be named, and when the
    /// gate refuses a hop. A response longer than `Limits.responseInMemory` is written to
    /// `spillPath` as it arrives (and is then `.file(spillPath)`); nothing is left there otherwise
    /// (one longer than `Limits.responseArriving` goes there too as it arrives, and is read back).
    /// Cancelling the task (a step's `timeout:`, a signal) stops the transfer.
    static func send(
        _ request: Request, spillingTo spillPath: String, transfer: Transfer = Transfer(),
        authorize: @Sendable (Access) async throws -> Void
    ) async throws -> Response {
        var current = request
        var hops = 0
        while true {
            let target = try Self.connectionTarget(of: current.url)
            if let access = Access.net(current.url) { try await authorize(access) }
            var response = try await sendOnce(current, connectingTo: target, spillingTo: spillPath, transfer: transfer)
            response.url = current.url
            guard let location = response.redirect, [301, 302, 303, 307, 308].contains(response.status) else { return response }
            if case .file(let path) = response.body { unlink(path) }
            hops += 1
            guard hops <= maxRedirects else {
                throw IntentError("\(request.method) \(request.url.absoluteString) failed: more than \(maxRedirects) redirects")
            }
            guard let next = URL(string: location), let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
                throw IntentError("\(current.method) \(current.url.absoluteString) redirects to '\(location)', which is not an http or https URL")
            }
            let keepsMethod = response.status == 307 || response.status == 308
            let becomesGet = !keepsMethod && (response.status == 303 ? current.method != "HEAD" : current.method == "POST")
            if becomesGet {
                current.method = "GET"
                current.body = nil
                current.headers.removeAll { $0.lowercased().hasPrefix("content-type:") }
            }
            if Access.hostTarget(of: next) != Access.hostTarget(of: current.url) || next.scheme != current.url.scheme {
                current.headers.removeAll { $0.lowercased().hasPrefix("authorization:") || $0.lowercased().hasPrefix("cookie:") }
            }
            current.url = next
        }
    }

    /// The most redirects one request follows.
    static let maxRedirects = 10

    /// `HOST:PORT` of the URL, as the gate names its host, with the scheme's port when it names
    /// none: where libcurl is made to connect. A URL whose host Relay cannot name
    /// (`http:/127.0.0.1/`, with one slash) is refused: nothing could be asked about it.
    static func connectionTarget(of url: URL) throws -> String {
        guard let host = Access.hostTarget(of: url) else {
            throw IntentError(Access.namesNoHost(url.absoluteString))
        }
        if url.port != nil { return host }
        return "\(host):\(url.scheme?.lowercased() == "https" ? 443 : 80)"
    }

    /// One exchange, on a thread of its own (libcurl blocks; `BlockingWork`).
    private static func sendOnce(_ request: Request, connectingTo target: String, spillingTo spillPath: String, transfer: Transfer) async throws -> Response {
        guard transfer.handle != nil else { throw IntentError("cannot start a transfer: out of memory") }
        let response = try await BlockingWork.run(onCancel: { transfer.stop() }) { _ in
            try sendBlocking(request, connectingTo: target, spillingTo: spillPath, transfer: transfer)
        }
        if Task.isCancelled, case .file(let path) = response.body { unlink(path) }
        try Task.checkCancellation()
        return response
    }

    private static func sendBlocking(_ request: Request, connectingTo target: String, spillingTo spillPath: String, transfer: Transfer) throws -> Response {
        let described = "\(request.method) \(request.url.absoluteString)"
        let spill = open(spillPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard spill >= 0 else {
            throw IntentError("\(described) failed: cannot make '\(spillPath)': \(String(cString: strerror(errno)))")
        }
        var keepSpill = false
        defer {
            close(spill)
            if !keepSpill { unlink(spillPath) }
        }
        var upload: Int32 = -1
        var uploadLength = 0
        if case .upload(let file)? = request.body {
            do throws(ValueAccessError) {
                upload = try file.openForReading()
            } catch {
                throw IntentError("\(described) failed: \(error.message)")
            }
            var info = stat()
            guard fstat(upload, &info) == 0 else {
                close(upload)
                throw IntentError("\(described) failed: cannot read '\(file.path)': \(String(cString: strerror(errno)))")
            }
            uploadLength = Int(info.st_size)
        }
        defer { if upload >= 0 { close(upload) } }

        var response = relay_http_response()
        defer { relay_http_response_free(&response) }
        let headerPointers = request.headers.map { strdup($0) }
        defer { headerPointers.forEach { free($0) } }
        let status: Int32 = headerPointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { lines in
            request.url.absoluteString.withCString { url in
              target.withCString { connectTo in
                request.method.withCString { method in
                    let send = { (bytes: UnsafePointer<CChar>?, count: Int) -> Int32 in
                        var options = relay_http_request_options(
                            url: url, method: method, headers: lines.baseAddress, header_count: lines.count, body: bytes,
                            body_length: count, body_fd: upload, stall_seconds: request.stallSeconds,
                            memory_limit: Limits.responseArriving, spill_fd: spill, size_limit: Limits.responseBytes,
                            connect_to: connectTo)
                        return relay_http_request(&options, transfer.handle, &response)
                    }
                    guard case .bytes(let body)? = request.body else { return send(nil, uploadLength) }
                    // An empty body still needs a pointer: a null one would mean no body at all.
                    guard !body.isEmpty else { return "".withCString { send($0, 0) } }
                    return body.withUnsafeBytes { raw in send(raw.bindMemory(to: CChar.self).baseAddress, raw.count) }
                }
              }
            }
        }
        guard status == 0 else {
            let reason = response.error.map { String(cString: $0) } ?? "unknown error"
            throw IntentError("\(described) failed: \(reason)")
        }
        let body: Body
        if response.body_in_file != 0 {
            var info = stat()
            if fstat(spill, &info) == 0, info.st_size <= Limits.responseInMemory, let data = FileManager.default.contents(atPath: spillPath),
                data.count == Int(info.st_size)
            {
                // Short enough to be a value after all: text, JSON, or bytes.
                body = .bytes(data)
            } else {
                keepSpill = true
                body = .file(path: spillPath)
            }
        } else {
            body = .bytes(response.body.map { Data(bytes: $0, count: response.body_length) } ?? Data())
        }
        return Response(
            status: response.status, body: body, contentType: response.content_type.map { String(cString: $0) },
            redirect: response.redirect_url.map { String(cString: $0) },
            headerLines: response.headers.map { Data(bytes: $0, count: response.headers_length) } ?? Data())
    }
}

/// The reason phrases of common HTTP statuses, for messages.
enum HTTPStatus {
    private static let reasons: [Int: String] = [
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 413: "Content Too Large", 415: "Unsupported Media Type",
        422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error", 501: "Not Implemented",
        502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
    ]

    /// `404 Not Found`, or just the number for a status without a common phrase.
    static func describe(_ status: Int) -> String { reasons[status].map { "\(status) \($0)" } ?? String(status) }

    /// The seconds a 429 or 503 response asks the client to wait (`Retry-After`, RFC 9110: a
    /// number of seconds, or an HTTP date), from `now`; nil for other statuses, or without a
    /// header that says it. A date in the past is 0; anything else odd is nil.
    static func retryAfter(_ response: HTTPClient.Response, now: Date = Date()) -> Double? {
        guard response.status == 429 || response.status == 503,
            let value = response.headers["retry-after"]?.textValue.trimmingCharacters(in: .whitespaces), !value.isEmpty
        else { return nil }
        if value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return value.utf8.count <= 9 ? Double(value) : nil
        }
        guard let date = httpDate.date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form RFC 9110 has servers send.
    private static let httpDate: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()
}
