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

    private func failure(
        of script: String, timeout: Duration = .seconds(10), memoryLimit: UInt64? = nil, messageLimit: Int = HostConnection.messageLimit
    ) async throws -> HostError? {
        let connection = try HostConnection(
            executable: URL(fileURLWithPath: "/bin/sh"), arguments: [try host(script).path], packageName: "Stand-in",
            memoryLimit: memoryLimit, messageLimit: messageLimit)
        defer { connection.terminate() }
        do {
            _ = try await connection.request(HostProtocol.Manifest(), timeout: timeout)
            return nil
        } catch let error as HostError {
            return error
        }
    }

    /// A stand-in's answer to the handshake: this version, answering `manifest`.
    private static let hello =
        "read line\necho '{\"id\": 1, \"result\": {\"protocol\": \(HostProtocol.version), \"capabilities\": [\"manifest\"]}}'\n"

    @Test("an answer that is not UTF-8 ends the connection, saying so, rather than being read as other text")
    func notUTF8() async throws {
        let script = Self.hello + "read line\nprintf '{\"id\": 2, \"result\": {\"text\": \"caf\\351\"}}\\n'\nsleep 5\n"
        let error = try #require(try await failure(of: script))
        #expect(error.message.contains("sent a message that is not UTF-8"), "\(error.message)")
    }

    @Test("messages several to a read, blank lines between, and one split across writes inside a character, are each read whole")
    func framing() async throws {
        // A progress message, a blank line and half the answer in one write; the rest, from the
        // middle of 'é' on, a moment later.
        let script = Self.hello + "read line\nprintf '{\"progress\": 0.5, \"request\": 2, \"label\": null}\\n\\n{\"id\": 2, \"result\": {\"text\": \"caf\\303'\nsleep 0.3\nprintf '\\251 au lait\"}}\\n'\nsleep 5\n"
        let connection = try HostConnection(
            executable: URL(fileURLWithPath: "/bin/sh"), arguments: [try host(script).path], packageName: "Stand-in", memoryLimit: nil)
        defer { connection.terminate() }
        let result = try await connection.request(HostProtocol.Manifest(), timeout: .seconds(30))
        #expect(try result.property("text") == "café au lait")
        // A byte that is not UTF-8 outside any string is said to be that, too.
        let outside = try #require(try await failure(of: Self.hello + "read line\nprintf '{\"id\": 2, \"result\": 1}\\377\\n'\nsleep 5\n"))
        #expect(outside.message.contains("sent a message that is not UTF-8"), "\(outside.message)")
        // A line over the limit is refused when it comes whole in one read, too.
        let long = Self.hello + "read line\nprintf '{\"id\": 2, \"result\": \"%s\"}\\n' \"$(head -c 5000 /dev/zero | tr '\\0' a)\"\nsleep 5\n"
        let refused = try #require(try await failure(of: long, messageLimit: 1024))
        #expect(refused.message.contains("sent a message of more than"), "\(refused.message)")
    }

    @Test("a host of another protocol version, or from before the handshake, is refused with a message naming both versions")
    func otherVersion() async throws {
        let newer = try #require(try await failure(of: "read line\necho '{\"id\": 1, \"result\": {\"protocol\": 9, \"capabilities\": []}}'\nsleep 5\n"))
        #expect(newer.message.contains("speaks package protocol 9"), "\(newer.message)")
        #expect(newer.message.contains("this relay speaks protocol \(HostProtocol.version)"), "\(newer.message)")
        let older = try #require(
            try await failure(of: "read line\necho '{\"id\": 1, \"error\": {\"message\": \"unknown method '\\''hello'\\''\"}}'\nsleep 5\n"))
        #expect(older.message.contains("speaks package protocol 1"), "\(older.message)")
        let wrong = try #require(try await failure(of: "read line\necho '{\"id\": 1, \"result\": {\"protocol\": \"two\"}}'\nsleep 5\n"))
        #expect(wrong.message.contains("answered 'hello' wrongly: 'protocol' must be a whole number"), "\(wrong.message)")
        // A host that does not say it answers a request is not sent it.
        let partial = try #require(
            try await failure(of: "read line\necho '{\"id\": 1, \"result\": {\"protocol\": \(HostProtocol.version), \"capabilities\": []}}'\nsleep 5\n"))
        #expect(partial.message.contains("does not answer 'manifest'"), "\(partial.message)")
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
        // A sleep known by its length: the host sees its own process numbers, not this process's.
        let mark = "120.\(UInt32.random(in: 100_000...999_999))"
        let error = try #require(try await failure(of: "sleep \(mark)\n", timeout: .milliseconds(300)))
        // Stopped by the timeout, not ended by itself (which would say it exited).
        #expect(error.message.contains("did not answer 'hello' within 0.3 s"), "\(error.message)")
        for _ in 0..<200 where !ProcessMarks.running(marked: mark).isEmpty { try await Task.sleep(for: .milliseconds(50)) }
        #expect(ProcessMarks.running(marked: mark).isEmpty, "the host's sleep still runs")
    }

    @Test("an answer that is valid JSON but no message is refused too")
    func wrongShape() async throws {
        let error = try #require(try await failure(of: "read line\necho '{\"hello\": 1}'\nsleep 5\n"))
        #expect(error.message.contains("spoke the protocol wrong: a message must have an 'id', 'callback', 'reply' or 'progress'"), "\(error.message)")
        let relays = try #require(try await failure(of: "read line\necho '{\"reply\": 1, \"result\": 2}'\nsleep 5\n"))
        #expect(relays.message.contains("sent a message only Relay sends"), "\(relays.message)")
    }

    @Test("a host and the children it starts are all stopped after a timeout, even ones that ignore SIGTERM")
    func orphans() async throws {
        // Sleeps known by their lengths: the host sees its own process numbers, not this process's.
        let mark = "300.\(UInt32.random(in: 100_000...999_999))"
        let script = "trap '' TERM\n(trap '' TERM; exec sleep \(mark)1) &\nread line\nsleep \(mark)2\n"
        let error = try #require(try await failure(of: script, timeout: .milliseconds(300)))
        #expect(error.message.contains("did not answer"))
        let started = ContinuousClock.now
        while !ProcessMarks.running(marked: mark).isEmpty, ContinuousClock.now - started < .seconds(10) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(ProcessMarks.running(marked: mark).isEmpty, "still running: \(ProcessMarks.running(marked: mark))")
    }

    @Test("a host that closes its input while it runs: the request fails with a clear error; no SIGPIPE ends this process")
    func closedInput() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("relay-closed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: marker) }
        let connection = try HostConnection(
            // It stays up long after the requests (ended by `terminate`): on a loaded machine the test
            // may take more than half a minute to send them, and an exit would be another error.
            executable: URL(fileURLWithPath: "/bin/sh"), arguments: [try host("exec 0<&-\ntouch \(marker.path)\nsleep 600\n").path],
            packageName: "Stand-in", memoryLimit: nil)
        defer { connection.terminate() }
        let started = ContinuousClock.now
        while !FileManager.default.fileExists(atPath: marker.path), ContinuousClock.now - started < .seconds(30) {
            try await Task.sleep(for: .milliseconds(20))
        }
        await #expect(throws: HostError.self) { try await connection.request(HostProtocol.Manifest(), timeout: .seconds(30)) }
        do {
            _ = try await connection.request(HostProtocol.Manifest(), timeout: .seconds(30))
        } catch let error as HostError {
            #expect(error.message.contains("it has closed its input"), "\(error.message)")
        }
    }

    @Test("an answer to a request nobody sent fails the call")
    func unknownReply() async throws {
        let error = try #require(try await failure(of: "read line\necho '{\"id\": 999, \"result\": null}'\nsleep 5\n"))
        #expect(error.message == "the host of package 'Stand-in' answered request 999, which is not waiting")
        let odd = try #require(try await failure(of: "read line\necho '{\"id\": 1e300, \"result\": null}'\nsleep 5\n"))
        #expect(odd.message.contains("spoke the protocol wrong: 'id' must be a whole number in {\"id\": 1e300"), "\(odd.message)")
    }

    @Test("a 50 MB answer is read in one pass; past the message limit the connection ends with a clear error")
    func bigMessages() async throws {
        let answer = Self.hello + "read line\nprintf '{\"id\": 2, \"result\": {\"text\": \"'\nhead -c 50000000 /dev/zero | tr '\\0' a\nprintf '\"}}\\n'\nsleep 5\n"
        let connection = try HostConnection(
            executable: URL(fileURLWithPath: "/bin/sh"), arguments: [try host(answer).path], packageName: "Stand-in", memoryLimit: nil)
        defer { connection.terminate() }
        // The bound is the request's own deadline, kept by the connection's watcher on a thread of
        // its own (a wall clock read by this task would count time spent waiting for a thread).
        // Alone this takes about 3 s (Docs/Reliability.md); the bound leaves room for the rest of
        // the suite, which at its start keeps both cores busy with other processes.
        let result = try await connection.request(HostProtocol.Manifest(), timeout: .seconds(60))
        #expect(try result.property("text").textValue.count == 50_000_000)

        let error = try #require(try await failure(of: answer, messageLimit: 1_000_000))
        #expect(error.message.contains("sent a message of more than 1 MB, the most one message may be"), "\(error.message)")
    }

    @Test("a host that leaks runs out of memory at its limit, and the error says so")
    func outOfMemory() async throws {
        let leak = "read line\nexec python3 -c 'kept = []\nwhile True: kept.append(bytearray(8 << 20))'\n"
        let error = try #require(try await failure(of: leak, timeout: .seconds(60), memoryLimit: 400 << 20))
        let who = ControlGroup.hierarchy == nil ? "its host" : "its host and what it starts"
        #expect(error.message.contains("the package 'Stand-in' ran out of memory (\(who) may use 419.4 MB; set RELAY_PACKAGE_MEMORY"), "\(error.message)")
    }

    @Test("a host's children share its memory bound: four of 150 MB each under a bound of 400 MB end it, and the error says so")
    func treeOutOfMemory() async throws {
        guard ControlGroup.hierarchy != nil else {
            print("skipped: no control group of Relay's own here (\(ControlGroup.summary))")
            return
        }
        // Each child stays well under the bound alone (its address space is limited to it too):
        // only together are they over it. The bytes are written, so the memory is really used.
        let children = "read line\nfor i in 1 2 3 4; do python3 -c 'x = b\"a\" * (150 << 20); import time; time.sleep(3)' & done\nwait\nexit 3\n"
        let error = try #require(try await failure(of: children, timeout: .seconds(60), memoryLimit: 400 << 20))
        #expect(
            error.message.contains("the package 'Stand-in' ran out of memory (its host and what it starts may use 419.4 MB"), "\(error.message)")
    }

    @Test("a crashed host's standard error shows its own last words and how it crashed, not registers")
    func crashSummary() {
        let report = """
            loading trails
            Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range

            *** Signal 4: Backtracing from 0x7f13cc56df7f... done ***

            *** Program crashed: Illegal instruction at 0x00007f13cc56df7f ***

            Thread 0 "relay-host" crashed:
              0      0x00007f13cc56df7f closure #1 in _assertionFailure + 623 in libswiftCore.so
            Registers:
            rax 0x0000000000000000  0
            """
        #expect(HostError.summary(of: report) == [
            "loading trails", "Swift/ContiguousArrayBuffer.swift:692: Fatal error: Index out of range",
            "*** Program crashed: Illegal instruction at 0x00007f13cc56df7f ***",
        ])
        #expect(HostError.summary(of: "one\ntwo\n") == ["one", "two"])
    }
}

@Suite("The cache of built package hosts")
struct HostCacheTests {
    @Test("the newest few versions of a package are kept, and the one just built; other packages' are left alone")
    func pruning() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-hosts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = ["TrailKit-a1", "TrailKit-b2", "TrailKit-c3", "TrailKit-d4", "TrailKit-e5", "Trail-Kit-f6", "TrailKitPro-07"]
        for (age, name) in names.enumerated() {
            let version = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            // Older the further down the list.
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: Double(-age * 100))], ofItemAtPath: version.path)
        }
        PackageBuilder.pruneHosts(of: "TrailKit", keeping: folder.appendingPathComponent("TrailKit-e5"), in: folder)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["Trail-Kit-f6", "TrailKit-a1", "TrailKit-b2", "TrailKit-c3", "TrailKit-e5", "TrailKitPro-07"])
    }
}
