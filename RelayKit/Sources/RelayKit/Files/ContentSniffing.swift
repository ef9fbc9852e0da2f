/// Detects a file's content type from its first bytes, for files whose extension lies or is missing.
public enum ContentSniffing {
    /// How many leading bytes `type(ofContent:)` looks at.
    public static let prefixLength = 512

    /// The type the bytes announce, or nil when they announce nothing known. Binary formats are
    /// told by their signatures; text formats by their opening (`{\rtf`, `<!DOCTYPE html`, `{`/`[`).
    public static func type(ofContent bytes: some Collection<UInt8>) -> ContentType? {
        let prefix = Array(bytes.prefix(prefixLength))
        func starts(with signature: [UInt8]) -> Bool { prefix.starts(with: signature) }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) { return .gif }
        if starts(with: Array("%PDF-".utf8)) { return .pdf }
        if starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .zip }
        if starts(with: Array("{\\rtf".utf8)) { return .rtf }
        var text = prefix[...]
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        guard looksLikeText(Array(text), truncated: prefix.count == prefixLength) else { return nil }
        let opening = String(decoding: text.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }.prefix(64), as: UTF8.self)
            .lowercased()
        if opening.hasPrefix("<!doctype html") || opening.hasPrefix("<html") { return .html }
        if opening.hasPrefix("{") || opening.hasPrefix("[") { return .json }
        return nil
    }

    /// The types whose files start with a signature `type(ofContent:)` knows.
    private static let signed: [ContentType] = [.png, .jpeg, .gif, .pdf, .zip]

    /// The type of a file: its extension's type, unless the content announces a type the extension
    /// does not fit (a PNG named `.jpg`); the content's type when the extension is missing or unknown;
    /// plain text for valid UTF-8 with no other sign; data otherwise.
    public static func type(fileExtension: String, content: some Collection<UInt8>) -> ContentType {
        let byExtension = ContentType(fileExtension: fileExtension)
        let byContent = type(ofContent: content)
        switch (byExtension, byContent) {
        case (let declared?, let sniffed?):
            // Text formats are weak signals: a `.md` file that starts with `{` is still Markdown,
            // and a package's own format (its codable form, often JSON) is what its extension says.
            // Only a type with a signature of its own (a PNG) is belied by text.
            if sniffed.conforms(to: .text) && (declared.conforms(to: .text) || !signed.contains(where: { declared.conforms(to: $0) })) {
                return declared
            }
            return declared.conforms(to: sniffed) ? declared : sniffed
        case (let declared?, nil): return declared
        case (nil, let sniffed?): return sniffed
        case (nil, nil):
            let prefix = Array(content.prefix(prefixLength))
            return looksLikeText(prefix, truncated: prefix.count == prefixLength) ? .plainText : .data
        }
    }

    /// Whether `bytes` are UTF-8 text with no NUL; when they were cut from a longer file, a
    /// character split at the end (up to 3 bytes) is allowed.
    static func looksLikeText(_ bytes: [UInt8], truncated: Bool) -> Bool {
        guard !bytes.contains(0) else { return false }
        let trims = truncated ? 0...min(3, bytes.count) : 0...0
        return trims.contains { String(validating: bytes.dropLast($0), as: UTF8.self) != nil }
    }
}
