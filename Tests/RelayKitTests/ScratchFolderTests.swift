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
}
