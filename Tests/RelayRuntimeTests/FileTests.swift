import Foundation
import RelayKit
import RelayEngine
import Testing

@testable import RelayRuntime

@Suite("File values and file actions (Docs/Language.md, 'Changing files, and undo')")
struct FileTests {
    /// A fresh folder with `files` (relative path → contents).
    private func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-files-\(UUID().uuidString)")
        for (path, contents) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: url, atomically: true, encoding: .utf8)
        }
        return folder
    }

    private func runIn(_ folder: URL, _ steps: String, granted: [Capability: GrantScope] = [:]) async throws -> Value {
        try await run(steps, path: folder.appendingPathComponent("main.yaml").path, granted: granted)
    }

    @Test("a file has name, path, extension, size, created, modified and type")
    func properties() throws {
        let root = try folder(["notes.md": "# Hello"])
        let file = FileReference(path: "notes.md", relativeTo: root)
        let value = Value.file(file)
        #expect(try value.property("name") == "notes.md")
        #expect(try value.property("path") == .text(root.standardizedFileURL.appendingPathComponent("notes.md").path))
        #expect(try value.property("extension") == "md")
        #expect(try value.property("size") == 7)
        #expect(try value.property("type") == "net.daringfireball.markdown")
        guard case .date = try value.property("modified"), case .date = try value.property("created") else {
            Issue.record("dates missing")
            return
        }
    }

    @Test("a file value follows its file through a rename in its folder")
    func survivesRename() throws {
        let root = try folder(["before.txt": "x"])
        let file = FileReference(path: root.appendingPathComponent("before.txt").path)
        try FileManager.default.moveItem(at: root.appendingPathComponent("before.txt"), to: root.appendingPathComponent("after.txt"))
        #expect(file.name == "after.txt")
        try FileManager.default.removeItem(at: root.appendingPathComponent("after.txt"))
        #expect(throws: ValueAccessError.self) { try Value.file(file).property("size") }
    }

    @Test("a file value made before move-file follows the file to its new folder")
    func followsMoves() async throws {
        let root = try folder(["a.txt": "contents", "archive/keep.txt": "x"])
        let value = try await runIn(
            root, "- read-file: a.txt\n  as: original\n- move-file: archive/\n- text: \"${original.path}\"", granted: writing(root))
        #expect(value == .text(root.standardizedFileURL.appendingPathComponent("archive/a.txt").path))
    }

    @Test("a path or a new name holding a NUL is an error that touches nothing: the system would act on the part before it")
    func pathWithNul() async throws {
        let root = try folder(["a.txt": "a"])
        defer { try? FileManager.default.removeItem(at: root) }
        for steps in [
            "- text: \"a.txt\\0zzz\"\n  as: name\n- read-file: \"${name}\"",  // read-file would read a.txt
            "- text: \"out\\0.txt\"\n  as: name\n- text: x\n- save-file: \"${name}\"",  // save-file would write 'out'
            "- read-file: a.txt\n- rename-file: \"b\\0c.txt\"",  // renamed to 'b', the value saying 'b\0c.txt'
        ] {
            do {
                let value = try await run(steps, path: root.appendingPathComponent("main.yaml").path, granted: writing(root))
                Issue.record("ran: \(value)")
            } catch let error as RuntimeError {
                #expect(error.message.contains("NUL") || error.message.contains("is not a file name"), "\(error.message)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["a.txt"])
    }

    @Test("~ expands; relative paths resolve against the workflow's folder")
    func paths() throws {
        #expect(FileReference(path: "~/x.txt").originalPath == (HomeFolder.path as NSString).appendingPathComponent("x.txt"))
        #expect(FileReference(path: "a/../b.txt", relativeTo: URL(fileURLWithPath: "/tmp")).originalPath == "/tmp/b.txt")
    }

    @Test("file → text reads a text file; other types are an error")
    func fileToText() async throws {
        let root = try folder(["a.txt": "hello file", "b.pdf": "%PDF-1.4 binary"])
        #expect(try await runIn(root, "- read-file: a.txt\n- change-case: upper") == "HELLO FILE")
        await #expect(throws: RuntimeError.self) { try await runIn(root, "- read-file: b.pdf\n- change-case: upper") }
        #expect(try await runIn(root, "- read-file: a.txt\n- text: \"${previous.name}\"") == "a.txt")
    }

    @Test("save-file of nothing or of an empty list is an error, and leaves the file that is there as it was")
    func saveNothing() async throws {
        let root = try folder(["kept.txt": "keep me"])
        for steps in ["- list: []\n- save-file: { to: kept.txt, overwrite: true }", "- find-files: .\n  where: {name: none.txt}\n- save-file: { to: kept.txt, overwrite: true }"] {
            let error = await #expect(throws: RuntimeError.self) { try await runIn(root, steps, granted: [.write: .only([root.path])]) }
            #expect(error?.message.contains("there is nothing to save: the input is a list of 0 items") == true, "\(String(describing: error))")
        }
        #expect(try String(contentsOf: root.appendingPathComponent("kept.txt"), encoding: .utf8) == "keep me")
    }

    @Test("read-file needs an existing file, not a folder")
    func readFileErrors() async throws {
        let root = try folder(["sub/x.txt": "x"])
        let missing = await failureIn(root, "- read-file: nope.txt")
        #expect(missing?.message.contains("no such file") == true)
        let folderError = await failureIn(root, "- read-file: sub")
        #expect(folderError?.message.contains("is a folder") == true)
    }

    private func failureIn(_ root: URL, _ steps: String) async -> RuntimeError? {
        do {
            _ = try await runIn(root, steps)
            return nil
        } catch {
            return error as? RuntimeError
        }
    }

    @Test("find-files: where on file properties, recursive, sort, limit, sizes with units")
    func findFiles() async throws {
        let big = String(repeating: "x", count: 3000)
        let root = try folder(["a.txt": "hi", "b.txt": "hello", "c.md": "x", ".hidden.txt": "h", "sub/d.txt": big])
        func names(_ arguments: String) async throws -> String {
            JSONWriter.string(for: try await runIn(root, "- find-files: \(arguments)\n- for-each:\n  do:\n    - text: \"${item.name}\""), pretty: false)
        }
        #expect(try await names("{ in: ., where: { name: { ends-with: .txt } }, sort: name }") == #"["a.txt","b.txt"]"#)
        #expect(try await names("{ in: ., recursive: true, where: { extension: txt }, sort: { by: size, order: descending } }") == #"["d.txt","b.txt","a.txt"]"#)
        #expect(try await names("{ in: ., recursive: true, where: { size: { greater-than: \"2 KB\" } } }") == #"["d.txt"]"#)
        #expect(try await names("{ in: ., recursive: true, where: { size: { less-than: \"2.9 KiB\" } }, sort: name, limit: 2 }") == #"["a.txt","b.txt"]"#)
        #expect(try await names("{ in: ., where: { type: net.daringfireball.markdown } }") == #"["c.md"]"#)
        let few = try await names("{ in: ., recursive: true, where: { extension: txt }, sort: random, limit: 2 }")
        #expect([#"["a.txt","b.txt"]"#, #"["b.txt","a.txt"]"#, #"["a.txt","d.txt"]"#, #"["d.txt","a.txt"]"#, #"["b.txt","d.txt"]"#, #"["d.txt","b.txt"]"#].contains(few), "\(few)")
        let notFolder = await failureIn(root, "- find-files: a.txt")
        #expect(notFolder?.message.contains("is not a folder") == true)
    }

    @Test("a file value never jumps to an unrelated file that reuses its inode: it keeps its path")
    func inodeReuse() async throws {
        // The reproducer: the atomic rewrite frees a.txt's inode, notes.txt may get it, and the
        // value made before the rewrite must still mean a.txt.
        let root = try folder(["a.txt": "old"])
        _ = try await runIn(root, """
            - read-file: a.txt
              as: f
            - text: new
            - save-file: { to: a.txt, overwrite: true }
            - text: hello
            - save-file: notes.txt
            - delete-file:
              input: ${f}
            """, granted: writing(root))
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("a.txt").path))
        #expect(try String(contentsOf: root.appendingPathComponent("notes.txt"), encoding: .utf8) == "hello\n")

        // The same without luck: a value whose inode now belongs to another file (of another size
        // and time) does not find that file; with its own path gone, reading it names the path.
        let other = try folder(["gone.png": "png bytes", "notes.txt": "hello, a different file"])
        let gone = other.appendingPathComponent("gone.png").path
        let notes = try #require(FileIdentity(path: other.appendingPathComponent("notes.txt").path))
        let original = try #require(FileIdentity(path: gone))
        let stale = FileIdentity(device: notes.device, inode: notes.inode, size: original.size, modified: original.modified, born: original.born)
        try FileManager.default.removeItem(atPath: gone)
        let value = FileReference(path: gone, identity: stale)
        #expect(value.path == gone)
        #expect(throws: ValueAccessError.self) { try value.contents() }
    }

    @Test("a file value follows Relay's own rename after Relay rewrote it")
    func followsChain() async throws {
        let root = try folder(["a.txt": "old"])
        let value = try await runIn(root, """
            - read-file: a.txt
              as: f
            - text: new
            - save-file: { to: a.txt, overwrite: true }
            - read-file: a.txt
            - rename-file: b.txt
            - text: "${f.name}"
            """, granted: writing(root))
        #expect(value == "b.txt")
    }

    @Test("find-files does not follow links unless asked, and then only inside the folder, each folder once")
    func findFilesLinks() async throws {
        let root = try folder(["tree/a.txt": "a", "tree/sub/b.txt": "b", "outside/secret.txt": "s"])
        let tree = root.appendingPathComponent("tree").path
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: tree + "/sub/up", withDestinationPath: "..")
        try manager.createSymbolicLink(atPath: tree + "/out", withDestinationPath: "../outside")
        try manager.createSymbolicLink(atPath: tree + "/root", withDestinationPath: "/")
        try manager.createSymbolicLink(atPath: tree + "/secret.txt", withDestinationPath: "../outside/secret.txt")
        try manager.createSymbolicLink(atPath: tree + "/alias.txt", withDestinationPath: "a.txt")
        try manager.createSymbolicLink(atPath: tree + "/loop", withDestinationPath: "loop")
        func paths(_ arguments: String) async throws -> [String] {
            guard case .list(let items) = try await runIn(root, "- find-files: \(arguments)") else { return [] }
            return items.map { String($0.textValue.dropFirst(tree.count + 1)) }
        }
        #expect(try await paths("{ in: tree, recursive: true }") == ["a.txt", "sub/b.txt"])
        #expect(try await paths("{ in: tree, recursive: true, follow-links: true }") == ["a.txt", "alias.txt", "sub/b.txt"])
        #expect(try await paths("{ in: tree, follow-links: true }") == ["a.txt", "alias.txt"])
    }

    @Test("byte counts: decimal and binary units")
    func byteCounts() {
        #expect(ByteCount.bytes(from: "2 MB") == 2_000_000)
        #expect(ByteCount.bytes(from: "2 MiB") == 2_097_152)
        #expect(ByteCount.bytes(from: "1.5GB") == 1_500_000_000)
        #expect(ByteCount.bytes(from: "12") == nil)
        #expect(ByteCount.bytes(from: "2 parsecs") == nil)
    }

    @Test("files print as their absolute path")
    func output() throws {
        let root = try folder(["a.txt": "x"])
        let file = Value.file(FileReference(path: "a.txt", relativeTo: root))
        #expect(OutputFormatter.render(file, json: false) == root.standardizedFileURL.path + "/a.txt\n")
    }

    @Test("a streamed copy keeps every byte, counts them, keeps a new file's permissions, and a stopped one leaves the target as it was")
    func streamedCopy() throws {
        let root = try folder(["old.bin": "old"])
        let source = root.appendingPathComponent("source.bin").path
        let bytes = Data((0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: URL(fileURLWithPath: source))
        chmod(source, 0o750)
        let progress = ByteProgress()
        try AtomicFile.copy(source, to: root.appendingPathComponent("copy.bin").path, progress: progress)
        #expect(FileManager.default.contents(atPath: root.appendingPathComponent("copy.bin").path) == bytes)
        #expect(progress.state == (Int64(bytes.count), Int64(bytes.count)))
        #expect(progress.display.label == "3.1 MB of 3.1 MB")
        let mode = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("copy.bin").path)[.posixPermissions] as? Int
        #expect(mode == 0o750)

        let stop = StopFlag()
        stop.raise()
        let target = root.appendingPathComponent("old.bin").path
        #expect(throws: FileOperationError.self) { try AtomicFile.copy(source, to: target, stop: stop) }
        #expect(FileManager.default.contents(atPath: target) == Data("old".utf8))
        let left = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        #expect(left == ["copy.bin", "old.bin", "source.bin"])
        #expect(throws: FileOperationError.self) { try AtomicFile.copy(root.path, to: target) }
        // A file that says it is empty but is not (the kernel makes it up as it is read).
        let status = root.appendingPathComponent("status").path
        try AtomicFile.copy("/proc/self/status", to: status)
        #expect(String(decoding: FileManager.default.contents(atPath: status) ?? Data(), as: UTF8.self).contains("Pid:"))
    }
}
