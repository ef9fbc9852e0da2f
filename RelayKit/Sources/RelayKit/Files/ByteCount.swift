import Foundation

/// Reads sizes such as `2 MB` (10^6 bytes), `2 MiB` (2^20 bytes), `512 KB`, `1.5GB`, `100 B` (Docs/Language.md, "Changing files, and undo").
public enum ByteCount {
    private static let units: [String: Double] = [
        "b": 1, "byte": 1, "bytes": 1,
        "kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12, "pb": 1e15,
        "kib": 1024, "mib": 1_048_576, "gib": 1_073_741_824, "tib": 1_099_511_627_776, "pib": 1_125_899_906_842_624,
    ]

    /// The number of bytes `text` spells, or nil if it is not a size with a unit.
    public static func bytes(from text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let unitStart = trimmed.firstIndex(where: { $0.isLetter }) else { return nil }
        let unit = trimmed[unitStart...].lowercased()
        guard let scale = units[unit], let amount = NumberParsing.number(from: String(trimmed[..<unitStart])) else {
            return nil
        }
        return amount * scale
    }

    /// `count` bytes for people, in decimal units: `512 bytes`, `10 MB`, `2.1 GB`; or in binary
    /// ones: `1.5 KiB`, `10 MiB`.
    public static func text(_ count: Int64, binary: Bool = false) -> String {
        let units: [(Double, String)] =
            binary
            ? [(1_125_899_906_842_624, "PiB"), (1_099_511_627_776, "TiB"), (1_073_741_824, "GiB"), (1_048_576, "MiB"), (1024, "KiB")]
            : [(1e15, "PB"), (1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "KB")]
        for (size, unit) in units where Double(count) >= size {
            let value = (Double(count) / size * 10).rounded() / 10
            return NumberFormatting.text(value) + " " + unit
        }
        return "\(count) byte\(count == 1 ? "" : "s")"
    }

    /// What a size setting (`$RELAY_PACKAGE_MEMORY`, `$RELAY_SCRATCH_QUOTA`) says.
    public enum Setting: Sendable, Equatable {
        /// At most this many bytes.
        case bounded(UInt64)
        /// `0` or `none`: no bound.
        case unbounded
    }

    /// The setting `text` spells: bytes, or a whole number with `K`, `M` or `G` (binary: `512M` is
    /// 512 MiB), or `0`/`none`; nil when it is none of these (or too big to count).
    public static func setting(_ text: String) -> Setting? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text == "0" || text.lowercased() == "none" { return .unbounded }
        let units: [Character: UInt64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        if let unit = text.last.flatMap({ units[Character($0.uppercased())] }), let number = UInt64(text.dropLast()) {
            let (bytes, overflow) = number.multipliedReportingOverflow(by: unit)
            return overflow ? nil : .bounded(bytes)
        }
        return UInt64(text).map { .bounded($0) }
    }
}
