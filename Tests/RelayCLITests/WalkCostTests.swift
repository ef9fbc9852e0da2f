import Foundation
import RelayKit
import Testing

/// What `find-files` costs the system per file (Docs/Performance.md, "Folders of many files"):
/// counted with `strace`, not timed, so a return to several `stat`s a file fails here on any
/// machine, however fast.
@Suite("System calls per file")
struct WalkCostTests {
    /// The calls that touch files, folders and paths.
    private static let fileCalls: Set<String> = [
        "statx", "newfstatat", "fstatat64", "stat", "lstat", "fstat", "open", "openat", "openat2", "close", "read", "pread64",
        "getdents64", "readlink", "readlinkat", "access", "faccessat", "faccessat2",
    ]

    /// Makes `folders` folders of `files` empty files under `tree`, on a thread of its own: thousands
    /// of file creations must not hold one of the two cooperative threads the other tests need.
    private static func makeTree(_ tree: URL, folders: Int, files: Int) async throws {
        try await BlockingWork.run { _ in
            for folder in 0..<folders {
                let path = tree.appendingPathComponent("d\(folder)")
                try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
                for file in 0..<files { FileManager.default.createFile(atPath: path.appendingPathComponent("f\(file).txt").path, contents: nil) }
            }
        }
    }

    /// Runs `find-files` (a name condition one file in ten meets) and `count` over `folders`
    /// folders of `files` files each; returns how many file calls the run made.
    private func calls(folders: Int, files: Int, in root: URL) async throws -> Int {
        let tree = root.appendingPathComponent("tree-\(files)")
        try await Self.makeTree(tree, folders: folders, files: files)
        let workflow = root.appendingPathComponent("find-\(files).yaml")
        try Data("""
            steps:
              - find-files: { in: \(tree.path), recursive: true, where: { name: { ends-with: "7.txt" } } }
              - count
            """.utf8).write(to: workflow)
        let summary = root.appendingPathComponent("strace-\(files).txt")
        let result = try await BlockingWork.run { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/strace")
            process.arguments = ["-f", "-c", "-o", summary.path, RelayProcess.executable.path, "run", workflow.path]
            process.environment = ["HOME": root.appendingPathComponent("home").path, "PATH": "/usr/bin:/bin"]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // On a thread of BlockingWork's own, never one of Swift's cooperative threads.
            let printed = readAll(output.fileHandleForReading)
            process.waitUntilExit()
            return String(decoding: printed, as: UTF8.self)
        }
        #expect(result.trimmingCharacters(in: .whitespacesAndNewlines) == String(folders * files / 10))
        var total = 0
        for line in try String(contentsOf: summary, encoding: .utf8).split(separator: "\n") {
            let columns = line.split(separator: " ", omittingEmptySubsequences: true)
            // % time, seconds, usecs/call, calls, [errors], syscall
            guard columns.count >= 5, let name = columns.last, Self.fileCalls.contains(String(name)), let count = Int(columns[3]) else { continue }
            total += count
        }
        return total
    }

    @Test("find-files by name, then count: doubling the files adds a status for each one kept, nothing for the others")
    func callsPerFile() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            print("skipped: strace is not installed (Scripts/install-dependencies installs it)")
            return
        }
        let root = URL(fileURLWithPath: FileManager.default.temporaryDirectory.path).appendingPathComponent("relay-walkcost-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let small = try await calls(folders: 10, files: 150, in: root)
        let large = try await calls(folders: 10, files: 300, in: root)
        // 1,500 more files, 150 more kept.
        let perFile = Double(large - small) / 1_500
        print("file calls: \(small) for 1,500 files, \(large) for 3,000: \(perFile) a file")
        // One file in ten is kept, and costs one status (its identity): `count` does not read
        // the files it counts, so the gate is not asked about them.
        #expect(perFile < 0.2, "each file added costs \(perFile) file calls")
    }

    @Test("with a limit and no sort the walk ends once it has them; skipped entries are a located warning; --trace counts what was read")
    func limitEndsTheWalk() async throws {
        let root = URL(fileURLWithPath: FileManager.default.temporaryDirectory.path).appendingPathComponent("relay-walklimit-\(UUID().uuidString)")
        defer {
            chmod(root.appendingPathComponent("tree/d5").path, 0o755)
            try? FileManager.default.removeItem(at: root)
        }
        try await Self.makeTree(root.appendingPathComponent("tree"), folders: 20, files: 100)
        try Data("""
            steps:
              - find-files: { in: tree, recursive: true, limit: 10 }
              - count
            """.utf8).write(to: root.appendingPathComponent("first.yaml"))
        try Data("""
            steps:
              - find-files: { in: tree, recursive: true, where: { name: { ends-with: "7.txt" } } }
              - count
            """.utf8).write(to: root.appendingPathComponent("all.yaml"))
        let environment = ["HOME": root.appendingPathComponent("home").path, "XDG_STATE_HOME": ""]
        let first = try await RelayProcess.running(["run", "first.yaml", "--trace"], in: root, environment: environment)
        #expect(first.status == 0 && first.standardOutput == "10\n")
        #expect(first.standardError.contains("find-files: read 2 folders and 10 file names; 10 kept"), "\(first.standardError)")

        // A name that is not UTF-8 (any user), and a folder that cannot be read (but by root).
        var name = Array((root.path + "/tree/d3/caf").utf8) + [0xE9, 0x37, 0x2E, 0x74, 0x78, 0x74, 0]
        let made = name.withUnsafeMutableBufferPointer { $0.withMemoryRebound(to: CChar.self) { creat($0.baseAddress!, 0o644) } }
        #expect(made >= 0)
        close(made)
        #expect(chmod(root.appendingPathComponent("tree/d5").path, 0) == 0)
        let all = try await RelayProcess.running(["run", "all.yaml"], in: root, environment: environment)
        #expect(all.status == 0)
        if getuid() != 0 {  // root reads any folder
            #expect(all.standardOutput == "190\n")
            #expect(all.standardError.contains("all.yaml:2:5: warning: find-files: 2 entries were skipped, the first '\(root.path)/tree/d3/caf\\xE97.txt' (the name is not UTF-8)"), "\(all.standardError)")
        } else {
            #expect(all.standardOutput == "200\n")
            #expect(all.standardError == "all.yaml:2:5: warning: find-files: 1 entry was skipped: '\(root.path)/tree/d3/caf\\xE97.txt' (the name is not UTF-8)\n", "\(all.standardError)")
        }
    }
}
