import RelayKit

/// The lines of an undo journal (`changes.jsonl`), as a killed run may leave them: each change
/// read is written so that it reads back the same.
enum JournalHarness {
    static func check(_ bytes: [UInt8]) -> String? {
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let value = try? JSONReader.value(from: Array(line)), let change = UndoJournal.Change(value) else { continue }
            let written = JSONWriter.string(for: change.value, pretty: false)
            guard let again = (try? JSONReader.value(from: written)).flatMap(UndoJournal.Change.init), again == change else {
                return "the change \(written) does not read back the same"
            }
        }
        return nil
    }
}
