import Foundation
import RelayKit
import Testing

@testable import RelayActions
@testable import RelayRuntime

/// Zip and tar.gz: made and extracted whole, and what a hostile archive cannot do.
@Suite("Archives")
struct ArchiveTests {
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-archives-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("docs/sub"), withIntermediateDirectories: true)
        try "one\n".write(to: folder.appendingPathComponent("docs/a.txt"), atomically: true, encoding: .utf8)
        try Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: folder.appendingPathComponent("docs/sub/b.bin"))
        try "three\n".write(to: folder.appendingPathComponent("c.txt"), atomically: true, encoding: .utf8)
        return folder
    }

    private func run(_ steps: String, in folder: URL) async throws -> Value {
        try await RelayRuntimeTests.run(steps, path: folder.appendingPathComponent("w.yaml").path, granted: writing(folder))
    }

    private func expectFailure(_ steps: String, in folder: URL, _ fragment: String) async {
        do {
            let value = try await run(steps, in: folder)
            Issue.record("\(steps) gave \(value)")
        } catch let error as RuntimeError {
            #expect(error.message.contains(fragment), "\(error.message)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("a folder and a file go into a zip and a tar.gz and come out the same", arguments: ["zip", "tar.gz"])
    func roundTrip(format: String) async throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try await run("- read-file: c.txt\n- make-archive: { folder: docs, to: out/all.\(format) }", in: root)
        _ = try await run("- read-file: out/all.\(format)\n- extract-archive: back", in: root)
        for path in ["docs/a.txt", "docs/sub/b.bin", "c.txt"] {
            #expect(
                FileManager.default.contents(atPath: root.appendingPathComponent("back/" + path).path)
                    == FileManager.default.contents(atPath: root.appendingPathComponent(path).path), "\(path)")
        }
        // Beside the archive, named after it, by default; never into a folder that is there.
        _ = try await run("- read-file: out/all.\(format)\n- extract-archive", in: root)
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("out/all/c.txt").path))
        await expectFailure("- read-file: out/all.\(format)\n- extract-archive: back", in: root, "already exists; extract into a new folder")
        let beside = try await run("- read-file: out/all.\(format)\n- extract-archive: { to: back, overwrite: rename }", in: root)
        #expect(try beside.fileValue().name == "back 2")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("back 2/c.txt").path))
        await expectFailure("- read-file: c.txt\n- make-archive: out/all.\(format)", in: root, "already exists; set overwrite: true")
    }

    @Test("an archive made in the scratch folder is there after the step, made again over itself too")
    func inScratch() async throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        for overwrite in ["false", "true"] {
            let made = try await run(
                "- read-file: c.txt\n- make-archive: { to: \"${scratch}/z.zip\", overwrite: \(overwrite) }\n- make-archive: { to: \"${scratch}/z.zip\", overwrite: true }",
                in: root)
            let file = try made.fileValue()
            #expect(file.name == "z.zip" && FileManager.default.fileExists(atPath: file.path), "\(file.path)")
            let others = try FileManager.default.contentsOfDirectory(atPath: (file.path as NSString).deletingLastPathComponent)
            #expect(others == ["z.zip"], "\(others)")
        }
    }

    @Test("entries that leave the folder, links, bombs, damage and repeats are refused, and nothing is left")
    func hostile() async throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let a = FileReference(path: root.appendingPathComponent("c.txt").path)
        for (name, entries) in [
            ("slip.zip", [("ok.txt", a), ("../evil.txt", a)]), ("absolute.tar.gz", [("/tmp/evil.txt", a)]),
            ("deep.zip", [("a/../../evil.txt", a)]), ("twice.zip", [("x.txt", a), ("x.txt", a)]),
            ("control.zip", [("bad\u{1B}name.txt", a)]),
        ] {
            try Archive.write(entries, format: Archive.Format(fileName: name) ?? .zip, to: root.appendingPathComponent(name).path, stop: nil)
        }
        for (name, fragment) in [
            ("slip.zip", "'../evil.txt' leads out of the folder"), ("absolute.tar.gz", "'/tmp/evil.txt' is an absolute path"),
            ("deep.zip", "leads out of the folder"), ("twice.zip", "the archive holds it twice"),
            ("control.zip", "has a control character in its name"),
        ] {
            await expectFailure("- read-file: \(name)\n- extract-archive: out", in: root, fragment)
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("out").path), "\(name) left a folder")
        }
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("evil.txt").path))
        #expect(!FileManager.default.fileExists(atPath: root.deletingLastPathComponent().appendingPathComponent("evil.txt").path))

        // A link, made by Python's tarfile (which can).
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", "-c",
            "import tarfile,sys; t=tarfile.open(sys.argv[1],'w:gz'); i=tarfile.TarInfo('l'); i.type=tarfile.SYMTYPE; i.linkname='/etc/passwd'; t.addfile(i); t.close()",
            root.appendingPathComponent("link.tar.gz").path,
        ]
        try python.run()
        python.waitUntilExit()
        if python.terminationStatus == 0 {
            await expectFailure("- read-file: link.tar.gz\n- extract-archive: out", in: root, "holds a link, 'l'")
        }

        // Too much: 3 MB of zeros against a limit of 1 MB.
        try Data(count: 3_000_000).write(to: root.appendingPathComponent("zeros.bin"))
        _ = try await run("- read-file: zeros.bin\n- make-archive: zeros.zip", in: root)
        await expectFailure("- read-file: zeros.zip\n- extract-archive: { to: out, max-size: 1 MB }", in: root, "holds more than 1 MB (max-size)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("out").path))

        // Damaged: cut short, and not an archive at all.
        let whole = try Data(contentsOf: root.appendingPathComponent("zeros.zip"))
        try whole.prefix(whole.count / 2).write(to: root.appendingPathComponent("cut.zip"))
        await expectFailure("- read-file: cut.zip\n- extract-archive: out", in: root, "cut.zip")
        await expectFailure("- read-file: c.txt\n- extract-archive: out", in: root, "cannot read 'c.txt' as an archive")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("out").path))
    }

    @Test("entry names: what may be extracted, and where it goes", arguments: [
        ("a/b.txt", ["a", "b.txt"]), ("./a//b.txt", ["a", "b.txt"]), ("dir\\win.txt", ["dir", "win.txt"]),
    ])
    func names(name: String, parts: [String]) throws {
        #expect(try ArchiveEntryName.parts(name).get() == parts)
    }
}
