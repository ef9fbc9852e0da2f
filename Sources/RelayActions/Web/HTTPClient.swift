import CHTTPClient
import Foundation
import RelayKit

/// One HTTP exchange through libcurl (opened on first use by the `CHTTPClient` shim, so that
/// FoundationNetworking and libcurl do not load at every start; see Docs/Performance.md).
enum HTTPClient {
    struct Response: Sendable {
        let status: Int
        let body: Data
        let contentType: String?
    }

    /// A flag libcurl reads while it works: raised, the transfer stops within a second.
    private final class Stop: @unchecked Sendable {
        let flag = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        init() { flag.initialize(to: 0) }
        deinit { flag.deallocate() }
        func raise() { flag.pointee = 1 }
    }

    /// Sends the request on a thread of its own (libcurl blocks) and returns the response, whatever
    /// its status; throws when no response came (no connection, a timeout). Cancelling the task
    /// (a step's `timeout:`, a signal) stops the transfer.
    static func send(url: URL, method: String, headers: [String], body: Data?, timeout: Double) async throws -> Response {
        let stop = Stop()
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(with: Result {
                        try sendBlocking(url: url, method: method, headers: headers, body: body, timeout: timeout, stop: stop)
                    })
                }
            }
        } onCancel: {
            stop.raise()
        }
        try Task.checkCancellation()
        return response
    }

    private static func sendBlocking(url: URL, method: String, headers: [String], body: Data?, timeout: Double, stop: Stop) throws -> Response {
        var response = relay_http_response()
        defer { relay_http_response_free(&response) }
        let headerPointers = headers.map { strdup($0) }
        defer { headerPointers.forEach { free($0) } }
        let status: Int32 = headerPointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { lines in
            let send = { (bytes: UnsafePointer<CChar>?, count: Int) in
                relay_http_request(url.absoluteString, method, lines.baseAddress, lines.count, bytes, count, timeout, stop.flag, &response)
            }
            guard let body else { return send(nil, 0) }
            // An empty body still needs a pointer: a null one would mean no body at all.
            guard !body.isEmpty else { return "".withCString { send($0, 0) } }
            return body.withUnsafeBytes { raw in send(raw.bindMemory(to: CChar.self).baseAddress, raw.count) }
        }
        guard status == 0 else {
            let reason = response.error.map { String(cString: $0) } ?? "unknown error"
            throw IntentError("\(method) \(url.absoluteString) failed: \(reason)")
        }
        let data = response.body.map { Data(bytes: $0, count: response.body_length) } ?? Data()
        return Response(status: response.status, body: data, contentType: response.content_type.map { String(cString: $0) })
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
