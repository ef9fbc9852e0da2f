import Foundation
import RelayKit
import Testing

@testable import RelayRuntime

/// Stands in for a process that swaps a file for a symbolic link between the gate's check and the
/// read (a package host racing the run, Docs/Security.md, "Opening what was checked"): it makes the
/// swap after the gate allowed the file, then reads the file, or copies it, or sends it.
struct SwapThenRead: Intent {
    static let name = "swap-then-read"
    static let summary = "Replaces its input file by a link to 'target', then reads it."
    static let output = OutputType.text

    @Parameter(input: true, summary: "The file.", access: .read) var file: FileReference
    @Parameter(primary: true, summary: "Where the link points.") var target: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        try FileManager.default.removeItem(atPath: file.path)
        try FileManager.default.createSymbolicLink(atPath: file.originalPath, withDestinationPath: target)
        return .value(.text(String(decoding: try file.contents(), as: UTF8.self)))
    }
}

/// Swaps the folder of its destination for a link to another folder after the gate allowed the
/// write, then writes.
struct SwapThenWrite: Intent {
    static let name = "swap-then-write"
    static let summary = "Replaces the folder of 'to' by a link to 'target', then writes 'to'."
    static let output = OutputType.text

    @Parameter(primary: true, summary: "The file to write.", access: .write) var to: FileReference
    @Parameter(summary: "Where the link points.") var target: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let folder = (to.originalPath as NSString).deletingLastPathComponent
        try FileManager.default.moveItem(atPath: folder, toPath: folder + ".moved")
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: target)
        try await context.fileChanges.write(Data("overwritten".utf8), to: to.originalPath)
        return .value(.text("wrote"))
    }
}

enum Racers: IntentPackage {
    static let name = "racers"
    static let intents: [any Intent.Type] = [SwapThenRead.self, SwapThenWrite.self]
}

@Suite("Opening what the gate checked")
struct OpenWhatWasCheckedTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-race-\(UUID().uuidString)")

    @Test("a file swapped for a link to a secret after the gate allowed it is not read: the read opens the allowed path, following no link")
    func swappedForLink() async throws {
        let shared = folder.appendingPathComponent("shared")
        let secret = folder.appendingPathComponent("private/id_rsa")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: secret.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "PRIVATE KEY".write(to: secret, atomically: true, encoding: .utf8)
        let data = shared.appendingPathComponent("data.txt")
        try "harmless".write(to: data, atomically: true, encoding: .utf8)
        do {
            let value = try await run(
                steps: "- text: \"\(data.path)\"\n- convert: file\n- swap-then-read: \"\(secret.path)\"",
                registry: registry(with: [Racers.self]), granted: [.read: .only([shared.path])])
            Issue.record("the swapped file was read: \(value)")
        } catch let error as RuntimeError {
            #expect(error.message.contains("changed after it was allowed"), "\(error.message)")
        }
        // Without the swap, a link inside an allowed folder to a file inside it is read as usual.
        try FileManager.default.removeItem(at: data)
        try "harmless".write(to: data, atomically: true, encoding: .utf8)
        let link = shared.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: data.path)
        let read = try await run(
            steps: "- read-file: \"\(link.path)\"\n- get-text", registry: registry(with: [Racers.self]), granted: [.read: .only([shared.path])])
        #expect(read.textValue == "harmless")
    }

    @Test("a folder swapped for a link before a write is asked about again; one swapped after the check does not lead the write elsewhere")
    func folderSwappedForLink() async throws {
        let out = folder.appendingPathComponent("out")
        let victim = folder.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        try "keep me".write(to: victim.appendingPathComponent("data.txt"), atomically: true, encoding: .utf8)
        do {
            let value = try await run(
                steps: "- swap-then-write:\n    to: \"\(out.path)/data.txt\"\n    target: \"\(victim.path)\"",
                registry: registry(with: [Racers.self]), granted: [.write: .only([out.path])])
            Issue.record("the write went through: \(value)")
        } catch let error as RuntimeError {
            // The change asks the gate again for the file it resolves to now: the victim's, not granted.
            #expect(error.denial != nil, "\(error.message)")
        }
        #expect(try String(contentsOf: victim.appendingPathComponent("data.txt"), encoding: .utf8) == "keep me")

        // Between that check and the write: the write goes into the folder as checked, opened
        // with no link followed, or nowhere.
        let checked = folder.appendingPathComponent("checked")
        try FileManager.default.createDirectory(at: checked, withIntermediateDirectories: true)
        let allowed = ResolvedPath.resolve(checked.appendingPathComponent("data.txt").path)
        try FileManager.default.moveItem(at: checked, to: folder.appendingPathComponent("checked.moved"))
        try FileManager.default.createSymbolicLink(atPath: checked.path, withDestinationPath: victim.path)
        #expect(throws: FileOperationError.self) { try AtomicFile.write(Data("overwritten".utf8), to: allowed, withoutLinks: true) }
        #expect(try String(contentsOf: victim.appendingPathComponent("data.txt"), encoding: .utf8) == "keep me")
        // A link at the name itself is replaced, not followed.
        try FileManager.default.removeItem(at: checked)
        try FileManager.default.moveItem(at: folder.appendingPathComponent("checked.moved"), to: checked)
        try FileManager.default.createSymbolicLink(atPath: allowed, withDestinationPath: victim.appendingPathComponent("data.txt").path)
        try AtomicFile.write(Data("written".utf8), to: allowed, withoutLinks: true)
        #expect(try String(contentsOf: victim.appendingPathComponent("data.txt"), encoding: .utf8) == "keep me")
        #expect(try String(contentsOfFile: allowed, encoding: .utf8) == "written")
    }

    @Test("a move or a delete after the check goes through the folders as checked: a folder swapped for a link is an error, nothing moved or removed")
    func movesAndDeletes() throws {
        let checked = folder.appendingPathComponent("checked")
        let victim = folder.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: checked, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        try "keep me".write(to: victim.appendingPathComponent("data.txt"), atomically: true, encoding: .utf8)
        try "mine".write(to: checked.appendingPathComponent("data.txt"), atomically: true, encoding: .utf8)
        let allowed = ResolvedPath.resolve(checked.appendingPathComponent("data.txt").path)
        let elsewhere = ResolvedPath.resolve(folder.path) + "/moved.txt"
        // As checked, both work.
        #expect(try AtomicFile.renameWithoutLinks(allowed, to: elsewhere))
        #expect(try AtomicFile.renameWithoutLinks(elsewhere, to: allowed))
        // The checked folder swapped for a link to the victim's.
        try FileManager.default.moveItem(at: checked, to: folder.appendingPathComponent("checked.moved"))
        try FileManager.default.createSymbolicLink(atPath: checked.path, withDestinationPath: victim.path)
        #expect(throws: FileOperationError.self) { try AtomicFile.renameWithoutLinks(allowed, to: elsewhere) }
        #expect(throws: FileOperationError.self) { try AtomicFile.removeWithoutLinks(allowed) }
        #expect(try String(contentsOf: victim.appendingPathComponent("data.txt"), encoding: .utf8) == "keep me")
        #expect(!FileManager.default.fileExists(atPath: elsewhere))
    }
}
