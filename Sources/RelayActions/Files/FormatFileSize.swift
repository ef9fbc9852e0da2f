import RelayKit

/// `format-file-size`: a number of bytes, or a file's size, for people.
struct FormatFileSize: Intent {
    static let summary = "Writes a number of bytes, or the input file's size, for people: 1.4 MB (or 1.3 MiB with binary units)."
    static let examples = [
        IntentExample("- number: 1400000\n- format-file-size", output: "1.4 MB"),
        IntentExample("- number: 1536\n- format-file-size: { units: binary }", output: "1.5 KiB"),
        IntentExample("- read-file: report.pdf\n  as: report\n- format-file-size: ${report.size}"),
        IntentExample("- find-files: ~/Downloads\n  sort: { by: size, order: descending }\n  limit: 1\n- format-file-size"),
    ]
    static let output = OutputType.text

    @Parameter(primary: true, input: true, summary: "A number of bytes, a size such as 2 MB, or a file.") var size: Value
    @Parameter(summary: "Decimal units (1 KB is 1,000 bytes) or binary ones (1 KiB is 1,024 bytes).",
        choices: ["decimal", "binary"])
    var units: String = "decimal"

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let bytes: Double
        switch size {
        case .file:
            bytes = try await size.resolvedProperty("size").numberValue()
        case .text(let text):
            guard let read = ByteCount.bytes(from: text) ?? NumberParsing.number(from: text) else {
                throw IntentError("'\(text)' is not a number of bytes or a size such as 2 MB")
            }
            bytes = read
        default:
            bytes = try size.numberValue()
        }
        // Int64's largest value is not a Double: below 2^63 (`0x1p63`, exact), the largest is 2^63 - 1024.
        guard bytes.isFinite, bytes >= 0, bytes < 0x1p63, let count = Int64(exactly: bytes.rounded()) else {
            throw IntentError("a file size is a whole number of bytes from 0 to about 9.2 EB, not \(NumberFormatting.text(bytes))")
        }
        return .value(.text(ByteCount.text(count, binary: units.lowercased() == "binary")))
    }
}
