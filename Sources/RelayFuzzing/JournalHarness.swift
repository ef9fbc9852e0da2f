import RelayKit
import RelayEngine

/// The lines of an undo journal (`changes.jsonl`), as a killed run may leave them: each change
/// read is written so that it reads back the same.
enum JournalHarness {
    static func check(_ bytes: [UInt8]) -> String? {
        for change in UndoHistory.changes(in: String(decoding: bytes, as: UTF8.self)) {
            let written = JSONWriter.string(for: change.value, pretty: false)
            guard let again = (try? JSONReader.value(from: written)).flatMap(UndoJournal.Change.init), again == change else {
                return "the change \(written) does not read back the same"
            }
        }
        return nil
    }
}
