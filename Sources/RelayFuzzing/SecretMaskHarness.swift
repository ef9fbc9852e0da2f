import RelayKit
import RelayEngine

/// A secret and a text around it, both from the bytes (the first line is the secret): once the
/// secret is added, no masked text — whole, or its start cut for a preview — shows it, nor the
/// forms JSON gives it.
enum SecretMaskHarness {
    static func check(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let newline = text.firstIndex(of: "\n") else { return nil }
        let secret = String(text[..<newline])
        let around = String(text[text.index(after: newline)...])
        guard !secret.isEmpty, !secret.contains("•") else { return nil }
        let secrets = RunSecrets()
        secrets.add("SECRET", value: secret)
        let shown = around + secret + around + JSONWriter.string(for: .text(secret), pretty: false)
        let masked = secrets.redact(shown)
        if holds(masked, secret) { return "masking left the secret in the text" }
        if secrets.names(in: shown) != ["SECRET"] { return "the secret was not found in a text that holds it" }
        let (start, _) = secrets.redactedStart(of: shown, limit: 80)
        if secret.count <= 80, holds(start, secret) { return "a preview showed the secret" }
        return nil
    }

    /// Whether `text`'s bytes hold `secret`'s, whatever characters they make.
    private static func holds(_ text: String, _ secret: String) -> Bool {
        let bytes = Array(text.utf8), wanted = Array(secret.utf8)
        guard wanted.count <= bytes.count else { return false }
        for start in 0...(bytes.count - wanted.count) where bytes[start] == wanted[0] {
            if bytes[start..<(start + wanted.count)].elementsEqual(wanted) { return true }
        }
        return false
    }
}
