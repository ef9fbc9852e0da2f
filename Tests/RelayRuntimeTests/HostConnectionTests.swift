import Foundation
import RelayKit
import Testing

@testable import RelayRuntime

/// The host connection against stand-in hosts: shell scripts that answer wrong.
@Suite("Package host connection")
struct HostConnectionTests {
    /// A script file, run by `/bin/sh` (not executed itself: a file just written may still be
    /// open for writing in a process another test is forking, and executing it would fail).
    private func host(_ script: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("relay-host-\(UUID().uuidString).sh")
        try script.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    private func failure(of script: String, timeout: Duration = .seconds(10)) async throws -> HostError? {
        let connection = try HostConnection(
            executable: URL(fileURLWithPath: "/bin/sh"), arguments: [try host(script).path], packageName: "Stand-in")
        defer { connection.terminate() }
        do {
            _ = try await connection.request("manifest", timeout: timeout)
            return nil
        } catch let error as HostError {
            return error
        }
    }

    @Test("a host that answers with something that is not JSON spoke the protocol wrong; its standard error comes along")
    func garbage() async throws {
        let error = try #require(try await failure(of: "read line\necho 'oops' >&2\necho 'this is not json'\nsleep 5\n"))
        #expect(error.message.contains("spoke the protocol wrong"), "\(error.message)")
    }

    @Test("a host that exits before answering: its status and standard error")
    func exits() async throws {
        let error = try #require(try await failure(of: "read line\necho 'giving up' >&2\nexit 4\n"))
        #expect(error.message == "the host of package 'Stand-in' exited with status 4")
        #expect(error.description.contains("giving up"))
    }

    @Test("a host that never answers is stopped after the timeout")
    func hangs() async throws {
        let started = ContinuousClock.now
        let error = try #require(try await failure(of: "sleep 120\n", timeout: .milliseconds(300)))
        #expect(error.message.contains("did not answer 'manifest' within 0.3 s"), "\(error.message)")
        // Well before the host would end by itself, even on a loaded machine.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test("an answer that is valid JSON but no message is refused too")
    func wrongShape() async throws {
        let error = try #require(try await failure(of: "read line\necho '{\"hello\": 1}'\nsleep 5\n"))
        #expect(error.message.contains("neither an answer nor a callback"), "\(error.message)")
    }
}
