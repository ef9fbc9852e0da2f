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

    private func relay(_ arguments: [String], in folder: URL) async throws -> RelayProcess.Result {
        try await RelayProcess.running(arguments, in: folder, environment: ["HOME": folder.appendingPathComponent("home").path, "XDG_STATE_HOME": ""])
    }

    @Test("each mutating action is undone to the exact bytes", arguments: [
        "- text: replaced\n- save-file: { to: a.bin, overwrite: true }",
        "- text: new\n- save-file: new.txt",
        "- read-file: a.bin\n- rename-file: renamed.bin",
        "- read-file: a.bin\n- move-file: sub/",
        "- read-file: a.bin\n- copy-file: { to: b.txt, overwrite: true }",
        "- read-file: a.bin\n- delete-file",
        "- delete-file: sub/",
        "- find-files: .\n- filter: { where: { name: { ends-with: .txt } } }\n- delete-file",
        "- read-file: a.bin\n- make-archive: out.zip",
        "- create-folder: made/deeper\n- text: inside\n- save-file: made/deeper/x.txt",
        "- read-file: a.bin\n- make-archive: a.tar.gz\n- extract-archive: unpacked",
        "- read-file: a.bin\n- rename-file: { name: b.txt, overwrite: true }",
        "- read-file: b.txt\n- move-file: { to: sub/c.txt, overwrite: true }",
        "- read-file: a.bin\n- copy-file: { to: b.txt, overwrite: rename }",
        "- text: new\n- save-file: { to: b.txt, overwrite: rename }",
    ])
    func undo(steps: String) async throws {
        let binary = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let folder = try sandbox(["a.bin": binary, "b.txt": Data("bee".utf8), "sub/c.txt": Data("sea".utf8)])
        try ("steps:\n" + steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n")
            .write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let before = snapshot(folder)
        let run = try await relay(["run", "w.yaml", "--allow-write=\(folder.path)"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(snapshot(folder) != before, "the workflow changed nothing")
        let undo = try await relay(["undo"], in: folder)
        #expect(undo.status == 0, "\(undo.standardError)")
        #expect(snapshot(folder) == before)
        #expect(try await relay(["undo"], in: folder).standardError.contains("nothing to undo"))
    }

    @Test("undo never writes through a folder swapped for a link since the run: the file elsewhere is kept")
    func undoThroughSwappedFolder() async throws {
        let folder = try sandbox(["work/sub/y.txt": Data("why".utf8), "work/sub/z.txt": Data("zed".utf8), "victim/z.txt": Data("VICTIM".utf8)])
        let work = folder.appendingPathComponent("work")
        try "steps:\n  - delete-file: sub/y.txt\n  - text: new\n  - save-file: { to: sub/z.txt, overwrite: true }\n"
            .write(to: work.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let run = try await relay(["run", "w.yaml", "--allow-write=\(work.path)"], in: work)
        #expect(run.status == 0, "\(run.standardError)")
        // The run's folder is swapped for a link to a folder the run never touched.
        try FileManager.default.moveItem(at: work.appendingPathComponent("sub"), to: folder.appendingPathComponent("moved-sub"))
        try FileManager.default.createSymbolicLink(atPath: work.appendingPathComponent("sub").path, withDestinationPath: folder.appendingPathComponent("victim").path)
        let undo = try await relay(["undo"], in: work)
        #expect(undo.status != 0)
        #expect(undo.standardError.contains("is a symbolic link now"), "\(undo.standardError)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("victim/z.txt")) == Data("VICTIM".utf8))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("victim/y.txt").path))
    }

    @Test("image edits in place are undone to the exact bytes", arguments: [
        "- read-file: q.png\n- rotate-image: 90",
        "- read-file: q.png\n- flip-image: vertical",
        "- read-file: q.png\n- resize-image: { width: 10 }",
        "- read-file: q.png\n- convert-image: jpeg",
    ])
    func undoImages(steps: String) async throws {
        // A 60×40 PNG of four coloured quadrants.
        let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAADwAAAAoCAIAAAAt2Q6oAAAAPUlEQVR4nO3OQREAMBCEsPWvok57KviFQUD2t+i9bGhoaGhoaGhoaGhoaOjkjt0FDQ0NDQ0NDQ0NDQ0NnXQbJSQMVclR2wAAAABJRU5ErkJggg=="))
        let folder = try sandbox(["q.png": png])
        try ("steps:\n" + steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n") + "\n")
            .write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let before = snapshot(folder)
        #expect(try await relay(["run", "w.yaml", "--allow-write=\(folder.path)"], in: folder).status == 0)
        #expect(snapshot(folder) != before)
        #expect(try await relay(["undo"], in: folder).status == 0)
        #expect(snapshot(folder) == before)
    }

    @Test("a journal folder, or a run history, that others may change is not believed: undo and the history refuse it with the chmod that fixes it")
    func journalsArePrivate() async throws {
        let folder = try sandbox(["w.yaml": Data("steps:\n  - text: new\n  - save-file: new.txt\n".utf8)])
        #expect(try await relay(["run", "w.yaml", "--allow-write=\(folder.path)"], in: folder).status == 0)
        let state = folder.appendingPathComponent("home/.local/state/relay")
        let mode = { (path: String) in ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int) ?? -1 }
        #expect(mode(state.path) == 0o700 && mode(state.appendingPathComponent("runs").path) == 0o700)
        #expect(mode(state.appendingPathComponent("history.sqlite").path) == 0o600)
        // Anyone could have planted a journal there, which undo would follow to write anywhere.
        let runs = state.appendingPathComponent("runs")
        // The journal's own files, which name every file the run changed, are the owner's alone.
        let journal = try #require(try FileManager.default.contentsOfDirectory(atPath: runs.path).first)
        for name in ["changes.jsonl", "run.json"] {
            #expect(mode(runs.appendingPathComponent("\(journal)/\(name)").path) == 0o600, "\(name)")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: runs.path)
        let refused = try await relay(["undo"], in: folder)
        #expect(refused.status == 1 && refused.standardError.contains("run chmod 700 \(runs.path)"), "\(refused.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("new.txt").path))
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runs.path)
        // The history, which 'relay runs rerun' takes grants from.
        let history = state.appendingPathComponent("history.sqlite")
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: history.path)
        let rerun = try await relay(["runs", "rerun", "last"], in: folder)
        #expect(rerun.status != 0 && rerun.standardError.contains("run chmod 600 \(history.path)"), "\(rerun.standardError)")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: history.path)
        #expect(try await relay(["undo"], in: folder).status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("new.txt").path))
    }

    @Test("undo --list shows the runs and their changes")
    func list() async throws {
        let folder = try sandbox(["a.txt": Data("a".utf8)])
        try "steps:\n  - read-file: a.txt\n  - rename-file: b.txt\n".write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        _ = try await relay(["run", "w.yaml", "--allow-write=\(folder.path)"], in: folder)
        let listing = try await relay(["undo", "--list"], in: folder).standardOutput
        #expect(listing.contains("w.yaml"))
        #expect(listing.contains("moved"))
        #expect(listing.contains("a.txt → "))
    }

    /// Writes a recorded run into `folder`'s journal, as a run killed at some point leaves it.
    private func recordRun(_ name: String, changes: [String], lineEnd: String = "\n", in folder: URL) throws {
        let run = folder.appendingPathComponent("home/.local/state/relay/runs/\(name)")
        try FileManager.default.createDirectory(at: run.appendingPathComponent("saved"), withIntermediateDirectories: true)
        try #"{"workflow": "\#(name).yaml"}"#.write(to: run.appendingPathComponent("run.json"), atomically: true, encoding: .utf8)
        try (changes.joined(separator: lineEnd) + lineEnd).write(to: run.appendingPathComponent("changes.jsonl"), atomically: true, encoding: .utf8)
    }

    @Test("a journal whose lines end in CR LF, or whose last line is cut inside a character, still lists every change")
    func crlfJournal() async throws {
        let folder = try sandbox(["x.txt": Data("x".utf8)])
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        try recordRun("20000101-000000-000-1-crlf", changes: [
            #"{"change": "moved", "from": "\#(path("a.txt"))", "to": "\#(path("b.txt"))"}"#,
            #"{"change": "moved", "from": "\#(path("c.txt"))", "to": "\#(path("d.txt"))"}"#,
        ], lineEnd: "\r\n", in: folder)
        let listing = try await relay(["undo", "--list"], in: folder).standardOutput
        #expect(listing.contains("a.txt → "), "\(listing)")
        #expect(listing.contains("c.txt → "), "\(listing)")
        // A last line cut inside a character, as a run killed mid-write leaves it, hides nothing else.
        let journal = folder.appendingPathComponent("home/.local/state/relay/runs/20000101-000000-000-1-crlf/changes.jsonl")
        let cut = try Data(contentsOf: journal) + Data(#"{"change": "moved", "from": "\#(path("é"))"#.utf8).dropLast()
        try cut.write(to: journal)
        let again = try await relay(["undo", "--list"], in: folder).standardOutput
        #expect(again.contains("a.txt → ") && again.contains("c.txt → "), "\(again)")
    }

    @Test("the SHA-256 of the tests is SHA-256")
    func digest() {
        #expect(SHA256.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Data(repeating: 0x61, count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test("undo never gets stuck: a change that never happened is skipped, one that cannot be reverted is reported, older runs still undo")
    func neverStuck() async throws {
        let folder = try sandbox(["a.txt": Data("a".utf8), "c.txt": Data("c".utf8), "d.txt": Data("d".utf8), "e.txt": Data("e".utf8)])
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        // The oldest run renamed e.txt to f.txt for real.
        try FileManager.default.moveItem(atPath: path("e.txt"), toPath: path("f.txt"))
        try recordRun("20000101-000000-000-1-old", changes: [#"{"change": "moved", "from": "\#(path("e.txt"))", "to": "\#(path("f.txt"))"}"#], in: folder)
        // The middle run was killed after recording a move it never made.
        try recordRun("20000102-000000-000-2-killed", changes: [#"{"change": "moved", "from": "\#(path("a.txt"))", "to": "\#(path("b.txt"))"}"#], in: folder)
        // The newest recorded a move back onto a file that exists again, and a deletion never made.
        try recordRun("20000103-000000-000-3-conflict", changes: [
            #"{"change": "moved", "from": "\#(path("c.txt"))", "to": "\#(path("d.txt"))"}"#,
            #"{"change": "deleted", "path": "\#(path("a.txt"))", "saved": "saved/1"}"#,
        ], in: folder)

        let conflict = try await relay(["undo"], in: folder)
        #expect(conflict.status == 1)
        #expect(conflict.standardError.contains("note: deleted  \(path("a.txt")): skipped, the file was never deleted"), "\(conflict.standardError)")
        #expect(conflict.standardError.contains("error: not reverted: moved    \(path("c.txt")) → \(path("d.txt")): '\(path("c.txt"))' already exists"), "\(conflict.standardError)")
        #expect(try await relay(["undo", "--list"], in: folder).standardOutput.contains("3-conflict.yaml  (undone; 1 not reverted)"))

        let killed = try await relay(["undo"], in: folder)
        #expect(killed.status == 0, "\(killed.standardError)")
        #expect(killed.standardError.contains("skipped, the move never happened"), "\(killed.standardError)")

        let old = try await relay(["undo"], in: folder)
        #expect(old.status == 0, "\(old.standardError)")
        #expect(FileManager.default.contents(atPath: path("e.txt")) == Data("e".utf8))
        #expect(FileManager.default.contents(atPath: path("a.txt")) == Data("a".utf8))
        #expect(FileManager.default.contents(atPath: path("d.txt")) == Data("d".utf8))
    }

    @Test("an image edited through a symbolic link changes the target, the link stays a link, undo restores the target")
    func throughLink() async throws {
        let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAADwAAAAoCAIAAAAt2Q6oAAAAPUlEQVR4nO3OQREAMBCEsPWvok57KviFQUD2t+i9bGhoaGhoaGhoaGhoaOjkjt0FDQ0NDQ0NDQ0NDQ0NnXQbJSQMVclR2wAAAABJRU5ErkJggg=="))
        let folder = try sandbox(["outside/target.png": png])
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("work"), withIntermediateDirectories: true)
        let link = folder.appendingPathComponent("work/link.png").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "../outside/target.png")
        try "steps:\n  - read-file: work/link.png\n  - rotate-image: 90\n".write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let run = try await relay(["run", "w.yaml", "--allow-write=\(folder.path)"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "../outside/target.png")
        let target = folder.appendingPathComponent("outside/target.png").path
        #expect(FileManager.default.contents(atPath: target) != png)
        #expect(try await relay(["undo"], in: folder).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "../outside/target.png")
        #expect(FileManager.default.contents(atPath: target) == png)
    }

    @Test("a process killed while overwriting leaves the old or the new bytes, never a mix")
    func killedMidWrite() async throws {
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
            let process = try RelayProcess.start(running: "w.yaml", ["--allow-write=\(folder.path)"], in: folder)
            try await Task.sleep(for: .microseconds(60_000 + attempt * 45_000))
            kill(process.processIdentifier, SIGKILL)
            await RelayProcess.waitForExit(process)
            let contents = try Data(contentsOf: folder.appendingPathComponent("target.txt"))
            #expect(contents == a || contents == b, "attempt \(attempt): \(contents.count) bytes, mixed or short")
        }
    }

    /// SHA-256 of every visible file under `folder` except `home/` and the workflow, by path.
    private func digests(_ folder: URL) -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            guard !path.hasPrefix("home"), !path.hasSuffix(".yaml"), !(path as NSString).lastPathComponent.hasPrefix(".") else { continue }
            let url = folder.appendingPathComponent(path)
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                let data = FileManager.default.contents(atPath: url.path)
            else { continue }
            result[path] = SHA256.hex(data)
        }
        return result
    }

    @Test("a batch that rotates, renames, moves and deletes 200 files, killed at random points: every file is its old or new version, and undo restores exact bytes")
    func killedBatch() async throws {
        let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAADwAAAAoCAIAAAAt2Q6oAAAAPUlEQVR4nO3OQREAMBCEsPWvok57KviFQUD2t+i9bGhoaGhoaGhoaGhoaOjkjt0FDQ0NDQ0NDQ0NDQ0NnXQbJSQMVclR2wAAAABJRU5ErkJggg=="))
        // The rotated version, made once.
        let reference = try sandbox(["q.png": png])
        try "steps:\n  - read-file: q.png\n  - rotate-image: 90\n".write(to: reference.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        #expect(try await relay(["run", "w.yaml", "--allow-write=\(reference.path)"], in: reference).status == 0)
        let rotated = try #require(FileManager.default.contents(atPath: reference.appendingPathComponent("q.png").path))
        let allowed = Set([png, rotated].map(SHA256.hex))

        var files: [String: Data] = [:]
        for index in 0..<150 { files["batch/\(index).png"] = png }
        for index in 0..<50 { files["trash/\(index).txt"] = Data("text \(index)".utf8) }
        let workflow = """
            steps:
              - find-files: { in: batch, sort: name }
              - for-each:
                do:
                  - rotate-image: 90
                  - rename-file: "r-${index}.png"
                  - move-file: done/
              - find-files: trash
              - delete-file
            """
        var random = SystemRandomNumberGenerator()
        for attempt in 0..<8 {
            let folder = try sandbox(files)
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("done"), withIntermediateDirectories: true)
            try workflow.write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
            let before = digests(folder)
            let process = try RelayProcess.start(running: "w.yaml", ["--allow-write=\(folder.path)"], in: folder)
            try await Task.sleep(nanoseconds: UInt64(UInt32.random(in: 20_000...600_000, using: &random)) * 1_000)
            kill(process.processIdentifier, SIGKILL)
            await RelayProcess.waitForExit(process)

            let after = digests(folder)
            let images = after.filter { $0.key.hasSuffix(".png") }
            #expect(images.count == 150, "attempt \(attempt): \(images.count) images, not 150")
            #expect(images.values.allSatisfy(allowed.contains), "attempt \(attempt): an image is neither its old nor its new version")
            let texts = after.filter { $0.key.hasSuffix(".txt") }
            #expect(texts.allSatisfy { before[$0.key] == $0.value }, "attempt \(attempt): a text file changed")

            let undo = try await relay(["undo"], in: folder)
            #expect(undo.status == 0, "attempt \(attempt): \(undo.standardError)")
            #expect(digests(folder) == before, "attempt \(attempt): undo did not restore the exact bytes")
        }
    }

    @Test("renames within one folder after the journal's first: a name taken by a file is refused, a name that is a link is written through (the link kept), the rest renamed, and undo puts back every name")
    func renamesInOneFolder() async throws {
        var files: [String: Data] = [:]
        for index in 1...6 { files["a\(index).txt"] = Data("file \(index)".utf8) }
        files["r-a3.txt"] = Data("taken".utf8)
        let folder = try sandbox(files)
        let outside = folder.appendingPathComponent("gone.txt")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A link where a new name would go, leading to nothing yet.
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("r-a4.txt").path, withDestinationPath: outside.path)
        try """
            steps:
              - find-files: { in: ., where: { name: { begins-with: a } }, sort: name }
              - for-each:
                do:
                  - rename-file: "r-${item.name}"
                    on-error: continue
            """.write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let before = snapshot(folder)
        let run = try await relay(["run", "w.yaml", "--allow-write=\(folder.path)"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        let after = snapshot(folder)
        for index in [1, 2, 5, 6] {
            #expect(after["r-a\(index).txt"] == Data("file \(index)".utf8) && after["a\(index).txt"] == nil, "a\(index).txt")
        }
        #expect(after["a3.txt"] == Data("file 3".utf8) && after["r-a3.txt"] == Data("taken".utf8))
        // Written through the link, as every write is (Docs/Security.md, "Paths"): the file is at the link's target.
        #expect(after["a4.txt"] == nil && after["gone.txt"] == Data("file 4".utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("r-a4.txt").path) == outside.path)
        let undo = try await relay(["undo"], in: folder)
        #expect(undo.status == 0, "\(undo.standardError)")
        #expect(snapshot(folder) == before)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("r-a4.txt").path) == outside.path)
    }

    @Test("a signal during relay undo stops it between two changes; undo again finishes it, to the exact bytes", arguments: [SIGTERM, SIGINT])
    func signalDuringUndo(signal: Int32) async throws {
        var files: [String: Data] = [:]
        for index in 0..<300 { files["f\(index).txt"] = Data("file \(index)".utf8) }
        let folder = try sandbox(files)
        try "steps:\n  - find-files: .\n  - for-each:\n    do:\n      - text: changed\n      - save-file: { to: '${item.path}', overwrite: true }\n"
            .write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let before = snapshot(folder)
        let run = try await relay(["run", "w.yaml", "--allow-write=\(folder.path)"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        let process = Process()
        process.executableURL = RelayProcess.executable
        process.arguments = ["undo"]
        process.currentDirectoryURL = folder
        process.environment = ["HOME": folder.appendingPathComponent("home").path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Once some files are back (each revert is whole), the signal comes in the middle.
        let started = ContinuousClock.now
        while snapshot(folder).filter({ before[$0.key] == $0.value }).count < 20, ContinuousClock.now - started < .seconds(20) {
            try await Task.sleep(for: .milliseconds(5))
        }
        kill(process.processIdentifier, signal)
        await RelayProcess.waitForExit(process)
        let said = String(decoding: readAll(errors.fileHandleForReading), as: UTF8.self)
        if process.terminationStatus == 128 + signal, said.contains("stopped by") {
            #expect(said.contains("the rest of the run is undone by running 'relay undo' again"), "\(said)")
            #expect(!said.contains("not reverted"), "\(said)")
            #expect(snapshot(folder) != before)
        } else {
            // The undo was over before the signal came (which may still end the process as it exits).
            #expect(process.terminationStatus == 0 || said.hasPrefix("undid 301 changes"), "\(said)")
        }
        // Every file is its old or its new version, and no temporary file is left.
        for (path, data) in snapshot(folder) { #expect(data == before[path] || data == Data("changed\n".utf8), "\(path)") }
        let again = try await relay(["undo"], in: folder)
        #expect(again.status == 0, "\(again.standardError)")
        #expect(snapshot(folder) == before)
    }
}
