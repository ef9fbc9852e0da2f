import Foundation
import RelayKit
import Testing

/// A run's scratch folder is its user's alone (Docs/Security.md, "What is free").
@Suite("The scratch folder")
struct ScratchFolderTests {
    @Test("the root and the run's folder are made 0700; a root open to others, or a link, is refused rather than used")
    func privateRoot() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("relay-scratch-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let mode = { (path: String) in ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int) ?? -1 }

        let own = ScratchFolder(root: base.appendingPathComponent("own"))
        try own.make()
        #expect(mode(own.root.path) == 0o700 && mode(own.folder.path) == 0o700)

        // Another user's root, open to all, in which a run's folder could be swapped for a link.
        let open = base.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        #expect(throws: FileOperationError.self) { try ScratchFolder(root: open).make() }

        // A root that is a link to a folder elsewhere (the home folder).
        let elsewhere = base.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let linked = base.appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(at: linked, withDestinationURL: elsewhere)
        do {
            try ScratchFolder(root: linked).make()
            Issue.record("a linked root was used")
        } catch {
            #expect(error.message.contains("is not this user's alone"), "\(error.message)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
    }

    @Test("the quota counts what the files take on the disk, every name however spelled, each folder, not what links point to; and how deep folders nest")
    func quota() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("relay-scratch-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let scratch = ScratchFolder(root: base, quota: .bounded(1 << 20), quotaEntries: 20)
        #expect(scratch.overQuota() == nil, "not made yet")
        try scratch.make()
        let folder = scratch.folder.path
        // A sparse file of 1 GB takes next to nothing.
        let sparse = open(folder + "/sparse", O_WRONLY | O_CREAT, 0o600)
        #expect(ftruncate(sparse, 1 << 30) == 0)
        close(sparse)
        // A link to a big file elsewhere takes nothing here.
        let big = base.appendingPathComponent("big").path
        #expect(FileManager.default.createFile(atPath: big, contents: Data(repeating: 1, count: 3 << 20)))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: big)
        #expect(scratch.overQuota() == nil)
        // 2 MB written under a name that is not UTF-8, in a folder.
        try FileManager.default.createDirectory(atPath: folder + "/inner", withIntermediateDirectories: true)
        let name = Array((folder + "/inner/").utf8CString.dropLast()) + [CChar(bitPattern: 0xFF), CChar(bitPattern: 0xFE), 0]
        let hidden = open(name, O_WRONLY | O_CREAT, 0o600)
        #expect(hidden >= 0)
        let bytes = [UInt8](repeating: 7, count: 2 << 20)
        #expect(write(hidden, bytes, bytes.count) == bytes.count)
        close(hidden)
        #expect(scratch.overQuota()?.contains("holds more than 1 MiB (a run may keep at most 1 MiB and 20 files there") == true, "\(scratch.overQuota() ?? "nil")")
        unlink(name)
        #expect(scratch.overQuota() == nil)
        // Many files, each empty.
        for number in 0..<25 { FileManager.default.createFile(atPath: folder + "/inner/\(number)", contents: nil) }
        #expect(scratch.overQuota()?.contains("holds more than 20 files and folders") == true)
        // Folders inside folders, deeper than any run needs.
        let deep = ScratchFolder(root: base.appendingPathComponent("deep"), quota: .unbounded, quotaEntries: 1000)
        try deep.make()
        try FileManager.default.createDirectory(
            atPath: deep.folder.path + String(repeating: "/d", count: Limits.scratchDepth + 2), withIntermediateDirectories: true)
        #expect(deep.overQuota()?.contains("nested more than 64 deep") == true)
    }
}
