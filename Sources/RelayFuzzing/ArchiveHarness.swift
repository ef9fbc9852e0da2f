import RelayActions
import RelayKit

/// Archives: whatever libarchive reads, every entry name Relay would extract stays inside the
/// folder, and reading the entries' bytes ends (bounded here at 64 MiB in all).
enum ArchiveHarness {
    static func check(_ bytes: [UInt8]) -> String? {
        var finding: String?
        var total = 0
        struct Enough: Error {}
        do {
            try Archive.read(bytes: bytes, name: "fuzz") { entry, readBody in
                if case .success(let parts) = ArchiveEntryName.parts(entry.name) {
                    if parts.isEmpty || parts.contains("..") || parts.contains("") || parts.contains(".")
                        || parts.contains(where: { $0.contains("/") || $0.contains("\\") })
                    {
                        finding = "the entry '\(entry.name)' would be extracted as \(parts)"
                    }
                }
                guard entry.kind == .file else { return }
                try readBody { piece in
                    total += piece.count
                    if total > 64 << 20 { throw Enough() }
                }
            }
        } catch {
            // An archive that cannot be read is an error, as it should be.
        }
        return finding
    }
}
