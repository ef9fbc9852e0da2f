import Foundation
import RelayKit
import Testing

@testable import RelayRuntime

/// One meaning of `overwrite:` on every action that writes a file (Docs/Actions.md, "When the
/// file is already there"): false refuses, true replaces, rename writes beside.
@Suite("Overwrite")
struct OverwriteTests {
    private static let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAADwAAAAoCAIAAAAt2Q6oAAAAPUlEQVR4nO3OQREAMBCEsPWvok57KviFQUD2t+i9bGhoaGhoaGhoaGhoaOjkjt0FDQ0NDQ0NDQ0NDQ0NnXQbJSQMVclR2wAAAABJRU5ErkJggg==") ?? Data()

    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-overwrite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
        try "source\n".write(to: folder.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        try Self.png.write(to: folder.appendingPathComponent("q.png"))
        return folder
    }

    private func run(_ steps: String, in folder: URL) async throws -> Value {
        try await RelayRuntimeTests.run(steps, path: folder.appendingPathComponent("w.yaml").path, granted: writing(folder))
    }

    /// Each writing action, with the path it writes when nothing is there, and the steps that make it.
    static let writers: [(name: String, target: String, steps: String)] = [
        ("save-file", "out/x.txt", "- text: hi\n- save-file: { to: out/x.txt"),
        ("copy-file", "out/x.txt", "- read-file: a.txt\n- copy-file: { to: out/x.txt"),
        ("make-pdf", "out/x.pdf", "- text: hi\n- make-pdf: { to: out/x.pdf"),
        ("make-archive", "out/x.zip", "- read-file: a.txt\n- make-archive: { to: out/x.zip"),
        ("rotate-image", "out/x.png", "- read-file: q.png\n- rotate-image: { degrees: 90, to: out/x.png"),
        ("resize-image", "out/x.png", "- read-file: q.png\n- resize-image: { width: 10, to: out/x.png"),
        ("crop-image", "out/x.png", "- read-file: q.png\n- crop-image: { width: 10, to: out/x.png"),
        ("convert-image", "out/x.png", "- read-file: q.png\n- convert-image: { to: png, save-to: out/x.png"),
        ("combine-images", "out/x.png", "- read-file: q.png\n- combine-images: { to: out/x.png"),
    ]

    @Test("false refuses and leaves the file, true replaces it, rename writes 'x 2' beside it", arguments: writers.map(\.name))
    func everyWriter(name: String) async throws {
        let writer = try #require(Self.writers.first { $0.name == name })
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let target = root.appendingPathComponent(writer.target)
        let ext = target.pathExtension
        try Data("there before".utf8).write(to: target)
        for steps in [writer.steps + " }", writer.steps + ", overwrite: false }"] {
            do {
                let value = try await run(steps, in: root)
                Issue.record("\(name) replaced a file unasked: \(value)")
            } catch let error as RuntimeError {
                #expect(error.message.contains("already exists; set overwrite: true to replace it, or overwrite: rename"), "\(error.message)")
            }
            #expect(FileManager.default.contents(atPath: target.path) == Data("there before".utf8))
        }
        let renamed = try await run(writer.steps + ", overwrite: rename }", in: root)
        let second = root.appendingPathComponent("out/x 2.\(ext)").path
        #expect(try renamed.fileValue().path.hasSuffix("/out/x 2.\(ext)"))
        #expect(FileManager.default.fileExists(atPath: second))
        #expect(FileManager.default.contents(atPath: target.path) == Data("there before".utf8))
        _ = try await run(writer.steps + ", overwrite: rename }", in: root)
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("out/x 3.\(ext)").path))
        let replaced = try await run(writer.steps + ", overwrite: true }", in: root)
        #expect(try replaced.fileValue().path.hasSuffix("/" + writer.target))
        #expect(FileManager.default.contents(atPath: target.path) != Data("there before".utf8))
    }

    @Test("move-file and rename-file refuse, replace or pick a free name")
    func moves() async throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        try "other\n".write(to: root.appendingPathComponent("b.txt"), atomically: true, encoding: .utf8)
        do {
            _ = try await run("- read-file: a.txt\n- rename-file: b.txt", in: root)
            Issue.record("renamed over a file unasked")
        } catch let error as RuntimeError {
            #expect(error.message.contains("already exists; set overwrite: true"), "\(error.message)")
        }
        let renamed = try await run("- read-file: a.txt\n- rename-file: { name: b.txt, overwrite: rename }", in: root)
        #expect(try renamed.fileValue().name == "b 2.txt")
        #expect(try String(contentsOf: root.appendingPathComponent("b 2.txt"), encoding: .utf8) == "source\n")
        _ = try await run("- read-file: b 2.txt\n- move-file: { to: b.txt, overwrite: true }", in: root)
        #expect(try String(contentsOf: root.appendingPathComponent("b.txt"), encoding: .utf8) == "source\n")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("b 2.txt").path))
        // A folder is never replaced by a file.
        do {
            _ = try await run("- read-file: b.txt\n- rename-file: { name: out, overwrite: true }", in: root)
            Issue.record("replaced a folder")
        } catch let error as RuntimeError {
            #expect(error.message.contains("is a folder"), "\(error.message)")
        }
    }

    @Test("free names keep double extensions, dot files and names without one")
    func freeNames() throws {
        let taken: Set<String> = ["/f/backup.tar.gz", "/f/.bashrc", "/f/README", "/f/a.txt", "/f/a 2.txt"]
        let exists = { (path: String) in taken.contains(path) }
        #expect(try Overwrite.freePath(for: "/f/backup.tar.gz", exists: exists) == "/f/backup 2.tar.gz")
        #expect(try Overwrite.freePath(for: "/f/.bashrc", exists: exists) == "/f/.bashrc 2")
        #expect(try Overwrite.freePath(for: "/f/README", exists: exists) == "/f/README 2")
        #expect(try Overwrite.freePath(for: "/f/a.txt", exists: exists) == "/f/a 3.txt")
        #expect(try Overwrite.freePath(for: "/f/new.txt", exists: exists) == "/f/new.txt")
        #expect(throws: FileOperationError.self) { try Overwrite.freePath(for: "/f/a.txt", exists: { _ in true }) }
    }
}
