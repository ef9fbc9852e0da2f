import Foundation
import RelayKit
import Testing

/// Big files stream: downloads, uploads, copies and saves keep memory bounded whatever the size,
/// a server that never stops is stopped, and a full disk leaves no partial file
/// (Docs/Reliability.md, "Big files").
@Suite("Big files in bounded memory")
struct BigFileTests {

    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-big-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        return folder
    }

    /// A file of `megabytes` MB of varied bytes (a 1 MiB block, each copy changed at its start),
    /// written on a thread of its own (a test holds none of the few cooperative threads).
    private func bigFile(_ megabytes: Int, at url: URL) async throws {
        try await BlockingWork.run { _ in try writeBigFile(megabytes, at: url) }
    }

    private func writeBigFile(_ megabytes: Int, at url: URL) throws {
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var block = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        for index in 0..<megabytes {
            block[0] = UInt8(truncatingIfNeeded: index)
            block[1] = UInt8(truncatingIfNeeded: index >> 8)
            try handle.write(contentsOf: block)
        }
    }

    /// The files (not folders) under `folder`, as paths relative to it.
    private func files(under folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder), !isFolder.boolValue {
                found.append(path)
            }
        }
        return found.sorted()
    }

    /// Runs `relay run w.yaml GRANTS…` in `folder` (scratch files under `folder/tmp`) and returns its
    /// result with its peak resident memory in MB, measured by the kernel for the one child of a
    /// small Python parent.
    private func runMeasured(in folder: URL, granting grants: [String]) async throws -> (result: RelayProcess.Result, peakMB: Double) {
        let measure = """
            import resource, subprocess, sys
            status = subprocess.run(sys.argv[1:]).returncode
            print("peak-kb", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
            sys.exit(status)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", measure, RelayProcess.executable.path, "run", "w.yaml"] + grants
        process.currentDirectoryURL = folder
        process.environment = [
            "HOME": folder.appendingPathComponent("home").path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1",
            "TMPDIR": folder.appendingPathComponent("tmp").path,
        ]
        let errors = Pipe(), output = Pipe()
        process.standardError = errors
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        return try await BlockingWork.run { _ in
            let started = ContinuousClock.now
            try process.run()
            let printed = readAll(output.fileHandleForReading)
            let said = String(decoding: readAll(errors.fileHandleForReading), as: UTF8.self)
            process.waitUntilExit()
            var lines = said.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var peak = 0.0
            if let index = lines.lastIndex(where: { $0.hasPrefix("peak-kb ") }) {
                peak = (Double(lines[index].dropFirst(8)) ?? 0) / 1024
                lines.remove(at: index)
            }
            let result = RelayProcess.Result(
                status: process.terminationStatus, standardOutput: String(decoding: printed, as: UTF8.self),
                standardError: lines.joined(separator: "\n"), elapsed: ContinuousClock.now - started)
            return (result, peak)
        }
    }

    @Test("download → save → copy of a 48 MB file keeps every byte and stays under 64 MB of memory", arguments: ["file", "unannounced"])
    func downloadSaveCopy(route: String) async throws {
        let base = await LocalHTTPServer.base()
        let root = try folder()
        let source = root.appendingPathComponent("source.bin")
        try await bigFile(48, at: source)
        try """
            steps:
              - url: \(base)/\(route)\(source.path)
              - get-contents-of-url:
                timeout: 120
                as: download
              - save-file:
                  to: out/saved.bin
              - copy-file:
                  to: out/copied.bin
              - text: ${previous.name} ${download}
            """.write(to: root.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let (result, peak) = try await runMeasured(in: root, granting: ["--allow-net=127.0.0.1", "--allow-write=\(root.path)/out"])
        #expect(result.status == 0, "\(result.standardError)")
        // The run prints the download's path, so its scratch folder is kept.
        #expect(result.standardOutput.hasPrefix("copied.bin /") && result.standardOutput.hasSuffix("/source.bin\n"), "\(result.standardOutput)")
        for name in ["saved.bin", "copied.bin"] {
            #expect(FileManager.default.contentsEqual(atPath: source.path, andPath: root.appendingPathComponent("out/\(name)").path))
        }
        // The download itself is in the scratch folder under its own name; nothing half-made is left.
        let scratch = files(under: root.appendingPathComponent("tmp"))
        #expect(scratch.count == 1 && scratch.first?.hasSuffix("/source.bin") == true, "\(scratch)")
        #expect(peak > 0 && peak < 64, "peak memory \(peak) MB")
    }

    @Test("400,000 records read from JSON or CSV (18 and 8 MB) take a few times the file, not fifteen or forty", arguments: ["json", "csv"])
    func recordsInMemory(format: String) async throws {
        let root = try folder()
        let count = 400_000
        try await BlockingWork.run { _ in
            var text = format == "json" ? "{\"items\": [" : "id,name,ok\n"
            text.reserveCapacity(count * 48)
            for index in 0..<count {
                if format == "json" {
                    text += (index == 0 ? "" : ", ") + "{\"id\": \(index), \"name\": \"item\(index)\", \"ok\": \(index % 2 == 0)}"
                } else {
                    text += "\(index),item\(index),\(index % 2 == 0)\n"
                }
            }
            if format == "json" { text += "]}" }
            try text.write(to: root.appendingPathComponent("records.\(format)"), atomically: false, encoding: .utf8)
        }
        let steps = format == "json" ? "  - read-file: records.json\n  - get-value: items\n" : "  - read-file: records.csv\n  - parse-csv\n"
        try "steps:\n\(steps)  - get-item: \(count)\n  - get-value: name\n".write(to: root.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let (result, peak) = try await runMeasured(in: root, granting: [])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "item\(count - 1)\n")
        // Each record's dictionary shares its keys with the others and holds its values in 32 bytes
        // each; before, a value took 88 and each record had keys of its own. In a debug build:
        // JSON 301 MB before, 114 MB now; CSV 321 MB before, 94 MB now.
        #expect(peak > 0 && peak < 160, "peak \(peak) MB")
    }

    @Test("a replacement that would make a text past the bound is refused before the text is made", arguments: [false, true])
    func replacementPastTheBound(regex: Bool) async throws {
        let root = try folder()
        // 1 MiB of 'x', each to be replaced by 300 bytes: 300 MiB, past the 256 MiB a text may be.
        let long = String(repeating: "y", count: 300)
        try """
            steps:
              - set: { t: x }
              - repeat: 20
                do:
                  - set: { t: "${t}${t}" }
              - replace-text: { text: "${t}", find: "x", with: "\(long)", regex: \(regex) }
              - text: "${previous.count}"
            """.write(to: root.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let (result, peak) = try await runMeasured(in: root, granting: [])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("w.yaml:6:"), "\(result.standardError)")
        #expect(result.standardError.contains("a text may be at most 256 MiB"), "\(result.standardError)")
        // The 300 MiB text was never made (a debug build's own footprint is about 60 MB).
        #expect(peak > 0 && peak < 200, "peak memory \(peak) MB")
    }

    @Test("a file sent as a request's body is read as it goes: every byte arrives, memory stays under 64 MB")
    func upload() async throws {
        let base = await LocalHTTPServer.base()
        let root = try folder()
        let source = root.appendingPathComponent("source.bin")
        try await bigFile(48, at: source)
        let stored = root.appendingPathComponent("stored.bin")
        try """
            steps:
              - read-file: source.bin
                as: file
              - url: \(base)/store\(stored.path)
              - get-contents-of-url:
                  method: put
                  body: ${file}
                timeout: 120
            """.write(to: root.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let (result, peak) = try await runMeasured(in: root, granting: ["--allow-net=127.0.0.1"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "stored\n")
        #expect(FileManager.default.contentsEqual(atPath: source.path, andPath: stored.path))
        #expect(peak > 0 && peak < 64, "peak memory \(peak) MB")
    }

    @Test("a server that sends data forever is stopped by the timeout, and leaves no partial file", arguments: [
        "  - get-contents-of-url:\n    timeout: 2", "  - get-contents-of-url: { method: GET }\n    timeout: 2",
    ])
    func endless(step: String) async throws {
        let base = await LocalHTTPServer.base()
        let root = try folder()
        try "steps:\n  - url: \(base)/forever\n\(step)\n".write(to: root.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let (result, peak) = try await runMeasured(in: root, granting: ["--allow-net=127.0.0.1"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("w.yaml:"), "\(result.standardError)")
        // Ended by its step's timeout: the server never stops sending.
        #expect(result.standardError.contains("timed out after 2 seconds"), "\(result.standardError)")
        #expect(files(under: root.appendingPathComponent("tmp")).isEmpty)
        #expect(peak < 64, "peak memory \(peak) MB")
    }

    @Test("a download or a copy onto a full disk fails with 'No space left on device' and leaves no partial file")
    func fullDisk() async throws {
        let base = await LocalHTTPServer.base()
        let probe = try await RelayProcess.tool(["unshare", "--user", "--map-root-user", "--mount", "true"])
        guard probe.status == 0 else {
            print("skipped: this machine cannot make a small file system for the test (unshare: \(probe.standardError))")
            return
        }
        let root = try folder()
        let small = root.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        try await bigFile(24, at: root.appendingPathComponent("source.bin"))
        let download = "steps:\n  - url: \(base)/file\(root.path)/source.bin\n  - get-contents-of-url:\n    timeout: 60\n"
        let copy = "steps:\n  - read-file: source.bin\n  - copy-file: \(small.path)/out/\n"
        try download.write(to: root.appendingPathComponent("download.yaml"), atomically: true, encoding: .utf8)
        try copy.write(to: root.appendingPathComponent("copy.yaml"), atomically: true, encoding: .utf8)
        // In a mount namespace of its own, an 8 MB file system is mounted on `small` and is the
        // scratch folder; after each run, what is left in it is listed. The scratch folder's quota
        // (half the free space) is off, so that the disk, not the quota's watch, is what stops the
        // download, whichever would be first.
        let script = """
            mount -t tmpfs -o size=8m tmpfs '\(small.path)' || exit 99
            for workflow in download copy; do
              mkdir -p '\(small.path)/tmp'
              RELAY_SCRATCH_QUOTA=none TMPDIR='\(small.path)/tmp' HOME='\(root.path)/home' '\(RelayProcess.executable.path)' run $workflow.yaml --allow-net=127.0.0.1 --allow-write='\(small.path)/out'
              echo "exit $?"
              echo "left: $(find '\(small.path)' -type f | wc -l)"
            done
            """
        let result = try await RelayProcess.tool(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script], in: root)
        guard result.status != 99 else {
            print("skipped: cannot mount a small file system for the test: \(result.standardError)")
            return
        }
        #expect(result.standardOutput == "exit 1\nleft: 0\nexit 1\nleft: 0\n", "\(result.standardError)")
        let errors = result.standardError.split(separator: "\n").filter { $0.contains("error:") }
        #expect(errors.count == 2, "\(result.standardError)")
        #expect(errors.allSatisfy { $0.contains("No space left on device") }, "\(result.standardError)")
        #expect(errors.first?.contains("download.yaml:3:5") == true, "\(result.standardError)")
    }
}
