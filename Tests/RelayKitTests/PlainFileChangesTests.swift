import Foundation
import RelayKit
import Testing

/// The file changes a package's host makes (`PlainFileChanges`): atomic, with no gate and no
/// journal, and the same `overwrite` rules as a run's.
@Suite("Plain file changes (a package host's)")
struct PlainFileChangesTests {
    let folder: String
    let changes: any FileChanges = PlainFileChanges()

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-plain-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
    private func text(_ name: String) -> String? { FileManager.default.contents(atPath: path(name)).map { String(decoding: $0, as: UTF8.self) } }

    @Test("write: a new file; replace by default; refuse and rename as asked, naming the two ways on")
    func write() async throws {
        #expect(try await changes.write(Data("one".utf8), to: path("a.txt")) == path("a.txt"))
        try await changes.write(Data("two".utf8), to: path("a.txt"))
        #expect(text("a.txt") == "two")
        let refused = await #expect(throws: FileOperationError.self) {
            try await changes.write(Data("three".utf8), to: path("a.txt"), overwrite: .refuse)
        }
        #expect(refused?.message.contains("already exists; set overwrite: true to replace it") == true)
        #expect(text("a.txt") == "two")
        #expect(try await changes.write(Data("four".utf8), to: path("a.txt"), overwrite: .rename) == path("a 2.txt"))
        #expect(text("a 2.txt") == "four" && text("a.txt") == "two")
    }

    @Test("a link is written through: its target changes, the link stays a link")
    func writeThroughLink() async throws {
        try Data("target".utf8).write(to: URL(fileURLWithPath: path("target.txt")))
        try FileManager.default.createSymbolicLink(atPath: path("link.txt"), withDestinationPath: path("target.txt"))
        try await changes.write(Data("changed".utf8), to: path("link.txt"))
        #expect(text("target.txt") == "changed")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path("link.txt"))) == path("target.txt"))
    }

    @Test("copy and move keep the bytes; a move onto a file replaces it only when asked, never a folder")
    func copyAndMove() async throws {
        try Data("bytes".utf8).write(to: URL(fileURLWithPath: path("source.txt")))
        try await changes.copy(path("source.txt"), to: path("copy.txt"))
        #expect(text("copy.txt") == "bytes" && text("source.txt") == "bytes")
        await #expect(throws: FileOperationError.self) { try await changes.copy(path("source.txt"), to: path("copy.txt")) }
        let moved = try await changes.move(path("copy.txt"), to: path("moved.txt"))
        #expect(moved.path == path("moved.txt") && text("moved.txt") == "bytes" && text("copy.txt") == nil)
        await #expect(throws: FileOperationError.self) { try await changes.move(path("source.txt"), to: path("moved.txt")) }
        try await changes.move(path("source.txt"), to: path("moved.txt"), overwrite: .replace)
        #expect(text("moved.txt") == "bytes" && text("source.txt") == nil)
        try FileManager.default.createDirectory(atPath: path("folder"), withIntermediateDirectories: false)
        let folderRefused = await #expect(throws: FileOperationError.self) {
            try await changes.move(path("moved.txt"), to: path("folder"), overwrite: .replace)
        }
        #expect(folderRefused?.message.contains("is a folder; it is not replaced") == true)
        let missing = await #expect(throws: FileOperationError.self) { try await changes.move(path("nowhere.txt"), to: path("x.txt")) }
        #expect(missing?.message.hasPrefix("no such file") == true)
    }

    @Test("a folder is made with its parents, once; delete removes a file and says when there is none")
    func foldersAndDelete() async throws {
        #expect(try await changes.makeFolder(path("a/b/c")) == path("a/b/c"))
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: path("a/b/c"), isDirectory: &isFolder) && isFolder.boolValue)
        await #expect(throws: FileOperationError.self) { try await changes.makeFolder(path("a/b/c")) }
        try Data("x".utf8).write(to: URL(fileURLWithPath: path("gone.txt")))
        try await changes.delete(path("gone.txt"))
        #expect(text("gone.txt") == nil)
        let again = await #expect(throws: FileOperationError.self) { try await changes.delete(path("gone.txt")) }
        #expect(again?.message.hasPrefix("no such file") == true)
    }
}
