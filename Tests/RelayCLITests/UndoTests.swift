import Foundation
import Testing

/// `relay undo` restores the exact bytes; atomic writes survive a kill.
@Suite("Undo and atomic file changes")
struct UndoTests {
    /// A fresh folder with its own HOME (so its own undo journal) and `files`.
    private func sandbox(_ files: [String: Data]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-undo-\(UUID().uuidString)")
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return folder
    }

    /// Every file under `folder` (except the journal in `home/`) with its bytes.
    private func snapshot(_ folder: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            guard !path.hasPrefix("home"), !path.hasSuffix(".yaml") else { continue }
            if let data = FileManager.default.contents(atPath: folder.appendingPathComponent(path).path),
                !((try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)[.type] as? FileAttributeType) == .typeDirectory)
            {
                result[path] = data
            }
        }
        return result
    }

    private func relay(_ arguments: [String], in folder: URL) throws -> RelayProcess.Result {
        try RelayProcess.run(arguments, in: folder, environment: ["HOME": folder.appendingPathComponent("home").path, "XDG_STATE_HOME": ""])
    }

    @Test("each mutating action is undone to the exact bytes", arguments: [
        "- text: replaced\n- save-file: { to: a.bin, overwrite: true }",
        "- text: new\n- save-file: new.txt",
        "- read-file: a.bin\n- rename-file: renamed.bin",
        "- read-file: a.bin\n- move-file: sub/",
        "- read-file: a.bin\n- copy-file: { to: b.txt, overwrite: true }",
        "- read-file: a.bin\n- delete-file",
        "- find-files: .\n- filter: { where: { name: { ends-with: .txt } } }\n- delete-file",
    ])
    func undo(steps: String) throws {
        let binary = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let folder = try sandbox(["a.bin": binary, "b.txt": Data("bee".utf8), "sub/c.txt": Data("sea".utf8)])
        try ("steps:\n" + steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n")
            .write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let before = snapshot(folder)
        let run = try relay(["run", "w.yaml"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(snapshot(folder) != before, "the workflow changed nothing")
        let undo = try relay(["undo"], in: folder)
        #expect(undo.status == 0, "\(undo.standardError)")
        #expect(snapshot(folder) == before)
        #expect(try relay(["undo"], in: folder).standardError.contains("nothing to undo"))
    }

    @Test("image edits in place are undone to the exact bytes", arguments: [
        "- read-file: q.png\n- rotate-image: 90",
        "- read-file: q.png\n- flip-image: vertical",
        "- read-file: q.png\n- resize-image: { width: 10 }",
        "- read-file: q.png\n- convert-image: jpeg",
    ])
    func undoImages(steps: String) throws {
        // A 60×40 PNG of four coloured quadrants.
        let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAADwAAAAoCAIAAAAt2Q6oAAAAPUlEQVR4nO3OQREAMBCEsPWvok57KviFQUD2t+i9bGhoaGhoaGhoaGhoaOjkjt0FDQ0NDQ0NDQ0NDQ0NnXQbJSQMVclR2wAAAABJRU5ErkJggg=="))
        let folder = try sandbox(["q.png": png])
        try ("steps:\n" + steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n")
            .write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let before = snapshot(folder)
        #expect(try relay(["run", "w.yaml"], in: folder).status == 0)
        #expect(snapshot(folder) != before)
        #expect(try relay(["undo"], in: folder).status == 0)
        #expect(snapshot(folder) == before)
    }

    @Test("undo --list shows the runs and their changes")
    func list() throws {
        let folder = try sandbox(["a.txt": Data("a".utf8)])
        try "steps:\n  - read-file: a.txt\n  - rename-file: b.txt\n".write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        _ = try relay(["run", "w.yaml"], in: folder)
        let listing = try relay(["undo", "--list"], in: folder).standardOutput
        #expect(listing.contains("w.yaml"))
        #expect(listing.contains("moved"))
        #expect(listing.contains("a.txt → "))
    }

    @Test("a process killed while overwriting leaves the old or the new bytes, never a mix")
    func killedMidWrite() throws {
        let size = 4_000_000
        let a = Data(repeating: UInt8(ascii: "a"), count: size), b = Data(repeating: UInt8(ascii: "b"), count: size)
        let folder = try sandbox(["a.txt": a, "b.txt": b, "target.txt": a])
        try """
            steps:
              - repeat: 1000
                do:
                  - read-file: b.txt
                  - save-file: { to: target.txt, overwrite: true }
                  - read-file: a.txt
                  - save-file: { to: target.txt, overwrite: true }
            """.write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        for attempt in 0..<6 {
            let process = Process()
            process.executableURL = RelayProcess.executable
            process.arguments = ["run", "w.yaml"]
            process.currentDirectoryURL = folder
            process.environment = ["HOME": folder.appendingPathComponent("home").path, "PATH": "/usr/bin:/bin"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(60_000 + attempt * 45_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let contents = try Data(contentsOf: folder.appendingPathComponent("target.txt"))
            #expect(contents == a || contents == b, "attempt \(attempt): \(contents.count) bytes, mixed or short")
        }
    }
}
