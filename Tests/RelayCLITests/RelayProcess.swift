import CSpawn
import Foundation
import RelayKit

/// Runs the built `relay` executable, as a user would.
struct RelayProcess {
    struct Result: Sendable {
        var status: Int32
        var standardOutput: String
        var standardError: String
        /// How long the process ran, timed by the thread that waited for it (not by a test task,
        /// which may wait for a thread after the process has ended).
        var elapsed: Duration = .zero
    }

    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `relay` executable built beside the test bundle.
    static let executable: URL = {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent("relay")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug/relay")
    }()

    /// `run`, awaited on a thread of its own, so that a long run does not hold one of Swift's
    /// cooperative threads (two on two cores) that other tests need.
    static func running(_ arguments: [String], in folder: URL = root, input: String = "", environment: [String: String] = [:]) async throws -> Result {
        try await BlockingWork.run { _ in
            let started = ContinuousClock.now
            var result = try run(arguments, in: folder, input: input, environment: environment)
            result.elapsed = ContinuousClock.now - started
            return result
        }
    }

    /// Starts `relay run WORKFLOW ARGUMENTS…` in `folder` with `folder/home` as HOME, its output
    /// discarded, and returns at once: for tests that kill a run, or run two at once.
    static func start(running workflow: String, _ arguments: [String] = [], in folder: URL) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["run", workflow] + arguments
        process.currentDirectoryURL = folder
        process.environment = ["HOME": folder.appendingPathComponent("home").path, "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits for `process` to end on a thread of its own (see `running`).
    static func waitForExit(_ process: Process) async {
        _ = try? await BlockingWork.run { _ in process.waitUntilExit() }
    }

    /// Another program, found on PATH (`/usr/bin/env` starts it), run the way `running` runs Relay.
    static func tool(_ arguments: [String], in folder: URL = root) async throws -> Result {
        try await BlockingWork.run { _ in try run(arguments, in: folder, program: URL(fileURLWithPath: "/usr/bin/env")) }
    }

    /// Runs `program` with `arguments` in `folder` and waits for it. The program is started with
    /// Relay's own spawn (`relay_spawn`), through `env -C FOLDER`, not Foundation's `Process`,
    /// whose `run()` on Linux now and then reads past a buffer while it lists /proc/self/fd and
    /// ends the whole test process.
    static func run(
        _ arguments: [String], in folder: URL = root, input: String = "", environment: [String: String] = [:], program: URL = executable
    ) throws -> Result {
        var processEnvironment = ProcessInfo.processInfo.environment
        processEnvironment["NO_COLOR"] = "1"
        processEnvironment.merge(environment) { $1 }
        // Standard error goes to a file: read from a pipe after standard output, more than a pipe
        // holds (a long trace) would block the program and the test forever.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("relay-stderr-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil),
              let standardError = FileHandle(forWritingAtPath: errorFile.path) else { throw CocoaError(.fileWriteUnknown) }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        // Standard input comes from a file too: written to a pipe, it would raise SIGPIPE in this
        // process (which ends it, every test with it) whenever relay ended before reading it all.
        let inputFile = FileManager.default.temporaryDirectory.appendingPathComponent("relay-stdin-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: inputFile.path, contents: Data(input.utf8)),
              let standardInput = FileHandle(forReadingAtPath: inputFile.path) else { throw CocoaError(.fileWriteUnknown) }
        defer { try? FileManager.default.removeItem(at: inputFile) }
        let argv = (["/usr/bin/env", "-C", folder.path, program.path] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let environ = processEnvironment.map { strdup("\($0.key)=\($0.value)") }
        defer { environ.forEach { free($0) } }
        var child = relay_child()
        let streams = relay_streams(input: standardInput.fileDescriptor, output: -1, errors: standardError.fileDescriptor)
        let started = (argv + [nil]).withUnsafeBufferPointer { pointers in
            (environ + [nil]).withUnsafeBufferPointer { entries in
                relay_spawn(
                    "/usr/bin/env", UnsafeMutablePointer(mutating: pointers.baseAddress), UnsafeMutablePointer(mutating: entries.baseAddress), 0, 0,
                    -1, 0, streams, relay_tree(contained: 0, process_limit: 0, control_group: -1), &child)
            }
        }
        try standardError.close()
        try standardInput.close()
        guard started == 0 else { throw POSIXError(POSIXErrorCode(rawValue: started) ?? .EIO) }
        let outputHandle = FileHandle(fileDescriptor: child.output, closeOnDealloc: true)
        let output = readAll(outputHandle)
        try? outputHandle.close()
        var status: Int32 = 0
        while waitpid(child.pid, &status, 0) == -1, errno == EINTR {}
        let error = (try? Data(contentsOf: errorFile)) ?? Data()
        let exited = status & 0x7F == 0
        return Result(
            status: exited ? (status >> 8) & 0xFF : -(status & 0x7F),
            standardOutput: String(decoding: output, as: UTF8.self), standardError: String(decoding: error, as: UTF8.self))
    }
}

/// Whether this machine lets Relay contain a program's whole process tree (user and PID
/// namespaces: `relay --version`'s sandbox line); tests of it are skipped where it cannot.
enum ProcessTrees {
    static let contained: Bool = {
        #if os(Linux)
            let text = (try? String(contentsOfFile: "/proc/sys/user/max_user_namespaces", encoding: .utf8)) ?? "0"
            return (Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0
        #else
            return false
        #endif
    }()
}

/// Everything `handle` gives until its end: a read a signal interrupts is tried again, where
/// Foundation's `readDataToEndOfFile` stops the test process.
func readAll(_ handle: FileHandle) -> Data {
    var data = Data()
    var failures = 0
    while failures < 100 {
        do {
            guard let chunk = try handle.read(upToCount: 65_536), !chunk.isEmpty else { return data }
            data.append(chunk)
        } catch {
            failures += 1
        }
    }
    return data
}
