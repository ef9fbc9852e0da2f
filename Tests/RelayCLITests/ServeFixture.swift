import Foundation
import RelayKit
import Testing

@testable import RelayCLI

/// What the tests of `relay serve` share: a folder of their own with `flows/` in it, the server
/// started there, and the history read back.
protocol ServeFixture {
    var folder: URL { get }
}

extension ServeFixture {
    /// A new folder for one test, `flows/` in it.
    static func freshFolder(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("flows"), withIntermediateDirectories: true)
        return folder
    }

    /// Runs `program` with `arguments` off the test's thread: its exit status and standard output.
    func running(_ program: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await BlockingWork.run { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = readAll(output.fileHandleForReading)
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }
    var environment: [String: String] {
        ["XDG_STATE_HOME": folder.appendingPathComponent("state").path, "HOME": folder.path, "NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(to: folder.appendingPathComponent("flows/\(name)"), atomically: true, encoding: .utf8)
    }

    /// Starts `relay serve ARGUMENTS…`, its standard error in a file.
    func serve(_ arguments: [String], environment: [String: String]? = nil) throws -> (Process, URL) {
        let process = Process()
        process.executableURL = RelayProcess.executable
        // A port of its own: tests run side by side.
        let listens = !arguments.contains { ["--port", "--check", "--print-unit"].contains($0) || $0.hasPrefix("--port=") }
        process.arguments = ["serve"] + arguments + (listens ? ["--port", "0"] : [])
        process.currentDirectoryURL = folder
        process.environment = environment ?? self.environment
        let log = folder.appendingPathComponent("serve-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        // Standard output beside the log, in LOG.out.
        FileManager.default.createFile(atPath: log.path + ".out", contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log.path + ".out"))
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        return (process, log)
    }

    /// The runs the history keeps, as `relay runs --json` gives them.
    func runs() async throws -> [[String: Any]] {
        let listed = try await RelayProcess.running(["runs", "--json", "--limit", "1000"], in: folder, environment: environment)
        return (try? JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]]) ?? []
    }

    /// Waits until `done` holds of the history's runs; an issue after a minute.
    func waitForRuns(_ done: ([[String: Any]]) -> Bool) async throws -> [[String: Any]] {
        for _ in 0..<600 {
            let kept = try await runs()
            if done(kept) { return kept }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the runs never came: \(try await runs())")
        return []
    }

    /// Waits until the server's log says `text`; an issue after a minute.
    func waitFor(_ text: String, in log: URL) async throws {
        for _ in 0..<600 where !(try String(contentsOf: log, encoding: .utf8)).contains(text) { try await Task.sleep(for: .milliseconds(100)) }
        #expect(try String(contentsOf: log, encoding: .utf8).contains(text), "the log never said '\(text)'")
    }

    /// The port the server's log says it listens on, once it does; 0 when it never says.
    func port(from log: URL, listening address: String = "127.0.0.1") async throws -> Int {
        for _ in 0..<600 {
            let said = try String(contentsOf: log, encoding: .utf8)
            if let range = said.range(of: "listening on http://\(address):") {
                return Int(said[range.upperBound...].prefix { $0.isNumber }) ?? 0
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the server never listened: \(try String(contentsOf: log, encoding: .utf8))")
        return 0
    }
}
