import Foundation
import RelayKit
import RelayEngine
import RelayLanguage
import Testing

@testable import RelayActions
@testable import RelayRuntime

/// `retry:` (Docs/Runs.md, "Retries"), against the local server of `Fixtures/http_server.py`.
@Suite("retry: trying a failed step again")
struct RetryTests {
    private static let granted: [Capability: GrantScope] = [.net: .only(["127.0.0.1"])]

    /// A key no other request to the server has used.
    private func key() -> String { UUID().uuidString }

    private func attempts(_ output: CollectedOutput) -> [String] { output.traces.filter { $0.contains(" attempt ") } }

    @Test("a server that fails twice, then answers: retry: 3 succeeds on the third attempt, and the trace shows the two failed ones")
    func failsTwice() async throws {
        let base = await LocalServer.base()
        let output = CollectedOutput()
        let value = try await run(
            "- get-contents-of-url: { url: '\(base)/flaky/\(key())/2' }\n  retry: { times: 3, delay: 0.01 }", output: output, granted: Self.granted,
            tracing: true)
        #expect(try value.property("attempt") == .number(3))
        let failed = attempts(output)
        #expect(failed.count == 2, "\(output.traces)")
        #expect(failed.first?.contains("get-contents-of-url attempt 1 of 4 failed:") == true, "\(failed)")
        #expect(failed.first?.contains("503 Service Unavailable") == true, "\(failed)")
        #expect(failed.last?.contains("attempt 2 of 4 failed") == true, "\(failed)")
    }

    @Test("after the last attempt the error says how often the step was tried, and on-error runs then")
    func lastAttempt() async throws {
        let base = await LocalServer.base()
        let failing = "- get-contents-of-url: { url: '\(base)/flaky/\(key())/5' }\n  retry: { times: 2, delay: 0 }"
        let error = try #require(await failure(failing, granted: Self.granted))
        #expect(error.message.contains("503 Service Unavailable"), "\(error.message)")
        #expect(error.notes.contains("note: the step was tried 3 times (retry: 2)"), "\(error.notes)")
        let output = CollectedOutput()
        let handled = try await run(
            "- get-contents-of-url: { url: '\(base)/flaky/\(key())/5' }\n  retry: { times: 1, delay: 0 }\n  on-error:\n    - text: \"gave up: ${error}\"",
            output: output, granted: Self.granted, tracing: true)
        #expect(handled.textValue.hasPrefix("gave up: GET"), "\(handled)")
        #expect(attempts(output).count == 1, "\(output.traces)")
    }

    @Test("a 429 with Retry-After waits what the server asked, within max-delay")
    func retryAfter() async throws {
        let base = await LocalServer.base()
        let output = CollectedOutput()
        let started = ContinuousClock.now
        let value = try await run(
            "- get-contents-of-url: { url: '\(base)/busy/\(key())/1' }\n  retry: { times: 1, delay: 0 }", output: output, granted: Self.granted,
            tracing: true)
        #expect(try value.property("attempt") == .number(2))
        #expect(ContinuousClock.now - started >= .milliseconds(950), "the wait the server asked for was not kept")
        #expect(attempts(output).first?.contains("trying again in 1 s (as the server asked)") == true, "\(output.traces)")
        // A server asking for an hour gets max-delay.
        let capped = CollectedOutput()
        _ = try await run(
            "- get-contents-of-url: { url: '\(base)/busy/\(key())/3600' }\n  retry: { times: 1, delay: 0, max-delay: 0.05 }", output: capped,
            granted: Self.granted, tracing: true)
        #expect(attempts(capped).first?.contains("trying again in 0.05 s (as the server asked)") == true, "\(capped.traces)")
    }

    @Test("a permission denial is never tried again")
    func denialNotRetried() async throws {
        let base = await LocalServer.base()
        let port = base.split(separator: ":").last.map(String.init) ?? "0"
        let output = CollectedOutput()
        do {
            _ = try await run(
                "- get-contents-of-url: { url: 'http://localhost:\(port)/json' }\n  retry: { times: 3, delay: 5 }", output: output,
                granted: Self.granted, tracing: true)
            Issue.record("a host not granted was reached")
        } catch let error as RuntimeError {
            #expect(error.denial != nil, "\(error.message)")
            #expect(!error.notes.contains { $0.contains("tried") }, "\(error.notes)")
        }
        #expect(attempts(output).isEmpty, "\(output.traces)")
    }

    @Test("each attempt has its own timeout, and starts from the variables the step was given")
    func timeoutsAndVariables() async throws {
        let base = await LocalServer.base()
        let error = try #require(await failure("- get-contents-of-url: { url: '\(base)/slow' }\n  timeout: 0.2\n  retry: { times: 1, delay: 0 }", granted: Self.granted))
        #expect(error.message.contains("timed out after 0.2 seconds"), "\(error.message)")
        #expect(error.notes.contains("note: the step was tried 2 times (retry: 1)"), "\(error.notes)")
        let seen = try await run(
            """
            - for-each: [one]
              do:
                - append: { seen: "${item}" }
                - get-contents-of-url: { url: '\(base)/flaky/\(key())/2' }
              retry: { times: 2, delay: 0 }
            - text: "${seen}"
            """, granted: Self.granted)
        #expect(seen == .text("one"), "a failed attempt's variables were kept: \(seen)")
    }

    @Test("waits grow by backoff up to max-delay; a server's wait wins, within max-delay")
    func waits() {
        let policy = RetryPolicy(times: 5, delay: 2, backoff: 3, maxDelay: 30)
        #expect((1...5).map { policy.wait(after: $0, asked: nil) } == [2, 6, 18, 30, 30])
        #expect(policy.wait(after: 1, asked: 7) == 7)
        #expect(policy.wait(after: 1, asked: 1e9) == 30)
        #expect(policy.wait(after: 3, asked: .nan) == 18)
        #expect(RetryPolicy(times: 100, delay: 3600, backoff: 10, maxDelay: 86_400).wait(after: 100, asked: nil) == 86_400)
    }

    @Test("Retry-After as seconds or an HTTP date, on 429 and 503 only")
    func retryAfterHeader() {
        func response(_ status: Int, _ header: String) -> HTTPClient.Response {
            HTTPClient.Response(status: status, body: .bytes(Data()), contentType: nil, headerLines: Data("HTTP/1.1 \(status) x\r\n\(header)\r\n".utf8))
        }
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(HTTPStatus.retryAfter(response(429, "Retry-After: 120"), now: now) == 120)
        #expect(HTTPStatus.retryAfter(response(503, "retry-after: Sun, 06 Nov 1994 08:50:07 GMT"), now: now) == 30)
        #expect(HTTPStatus.retryAfter(response(503, "Retry-After: Sun, 06 Nov 1994 08:00:00 GMT"), now: now) == 0)
        #expect(HTTPStatus.retryAfter(response(500, "Retry-After: 120"), now: now) == nil)
        #expect(HTTPStatus.retryAfter(response(429, "Retry-After: -5"), now: now) == nil)
        #expect(HTTPStatus.retryAfter(response(429, "Retry-After: 99999999999999999999"), now: now) == nil)
        #expect(HTTPStatus.retryAfter(response(429, "Retry-After: soon"), now: now) == nil)
    }
}
