import Foundation
import Testing

@testable import RelayKit
@testable import RelayEngine

@Suite("The undo journal keeps what the gate allowed")
struct JournalSaveTests {
    @Test("a file swapped for a link to a secret after the gate's check is not kept for undo: the link is refused, the secret never copied")
    func swappedFileIsNotSaved() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("relay-journal-\(UUID().uuidString)")
        let secret = root.appendingPathComponent("private/id_rsa")
        let shared = root.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: secret.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        try "PRIVATE KEY".write(to: secret, atomically: true, encoding: .utf8)
        let data = shared.appendingPathComponent("data.txt")
        try FileManager.default.createSymbolicLink(atPath: data.path, withDestinationPath: secret.path)
        let journal = UndoJournal(root: root.appendingPathComponent("state"), workflow: "w.yaml")
        #expect(throws: FileOperationError.self) { _ = try journal.save(data.path, withoutLinks: true) }
        // Without a gate (Relay's own changes), a link is kept as it is.
        #expect(try journal.save(data.path).hasPrefix("saved/"))
    }
}
