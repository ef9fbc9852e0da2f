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

        /// The first `count` bytes (to tell the type of the content, or to quote it in a message).
        func prefix(_ count: Int) -> Data {
            switch self {
            case .bytes(let data): return data.prefix(count)
            case .file(let path):
                guard let handle = FileHandle(forReadingAtPath: path) else { return Data() }
                defer { try? handle.close() }
                return (try? handle.read(upToCount: count)) ?? Data()
            }
        }
    }

    struct Request: Sendable {
        var url: URL
        var method: String
        var headers: [String]
        var body: Body?
        var timeout: Double
    }

    struct Response: Sendable {
        let status: Int
        let body: Body
        let contentType: String?
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

    /// Sends the request on a thread of its own (libcurl blocks; `BlockingWork`) and returns the response, whatever
    /// its status; throws when no response came (no connection, a timeout, no space left). A
    /// response longer than `Limits.responseInMemory` is written to `spillPath` as it arrives
    /// (and is then `.file(spillPath)`); nothing is left there otherwise. Cancelling the task (a
    /// step's `timeout:`, a signal) stops the transfer.
    static func send(_ request: Request, spillingTo spillPath: String, transfer: Transfer = Transfer()) async throws -> Response {
        guard transfer.handle != nil else { throw IntentError("cannot start a transfer: out of memory") }
        let response = try await BlockingWork.run(onCancel: { transfer.stop() }) { _ in
            try sendBlocking(request, spillingTo: spillPath, transfer: transfer)
        }
        if Task.isCancelled, case .file(let path) = response.body { unlink(path) }
        try Task.checkCancellation()
        return response
    }

    private static func sendBlocking(_ request: Request, spillingTo spillPath: String, transfer: Transfer) throws -> Response {
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
        if case .file(let path)? = request.body {
            upload = open(path, O_RDONLY | O_CLOEXEC)
            var info = stat()
            guard upload >= 0, fstat(upload, &info) == 0 else {
                if upload >= 0 { close(upload) }
                throw IntentError("\(described) failed: cannot read '\(path)': \(String(cString: strerror(errno)))")
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
                request.method.withCString { method in
                    let send = { (bytes: UnsafePointer<CChar>?, count: Int) -> Int32 in
                        var options = relay_http_request_options(
                            url: url, method: method, headers: lines.baseAddress, header_count: lines.count, body: bytes,
                            body_length: count, body_fd: upload, timeout_seconds: request.timeout,
                            memory_limit: Limits.responseInMemory, spill_fd: spill, size_limit: Limits.responseBytes)
                        return relay_http_request(&options, transfer.handle, &response)
                    }
                    guard case .bytes(let body)? = request.body else { return send(nil, uploadLength) }
                    // An empty body still needs a pointer: a null one would mean no body at all.
                    guard !body.isEmpty else { return "".withCString { send($0, 0) } }
                    return body.withUnsafeBytes { raw in send(raw.bindMemory(to: CChar.self).baseAddress, raw.count) }
                }
            }
        }
        guard status == 0 else {
            let reason = response.error.map { String(cString: $0) } ?? "unknown error"
            throw IntentError("\(described) failed: \(reason)")
        }
        let body: Body
        if response.body_in_file != 0 {
            keepSpill = true
            body = .file(path: spillPath)
        } else {
            body = .bytes(response.body.map { Data(bytes: $0, count: response.body_length) } ?? Data())
        }
        return Response(status: response.status, body: body, contentType: response.content_type.map { String(cString: $0) })
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
}
