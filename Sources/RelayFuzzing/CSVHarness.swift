import RelayActions

/// CSV: whatever reads, written and read again, is the same records, with each separator.
enum CSVHarness {
    static func check(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        for separator: Unicode.Scalar in [",", ";", "\t"] {
            guard let records = try? CSV.records(in: text, separator: separator) else { continue }
            let written = CSV.text(of: records, separator: separator)
            do {
                let again = try CSV.records(in: written, separator: separator)
                if again != records {
                    return "with '\(separator.escaped(asASCII: true))', \(records.count) records read became \(again.count) after writing: \(records.prefix(3)) → \(again.prefix(3))"
                }
            } catch {
                return "with '\(separator.escaped(asASCII: true))', the CSV written does not read back: \(error)"
            }
        }
        return nil
    }
}
