/// Where a line ends, in a workflow file and in a text a workflow splits into lines: at LF, CR,
/// CR LF (one break), NEL, U+2028 or U+2029 — the breaks libyaml knows (Docs/Language.md,
/// "Variables and expressions").
public enum LineBreak {
    /// The scalars that end a line; a CR directly followed by LF ends it once.
    public static let scalars: Set<Unicode.Scalar> = ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"]

    /// Whether `character` ends a line. Swift takes CR LF for one character.
    public static func ends(_ character: Character) -> Bool {
        character == "\r\n" || (character.unicodeScalars.count == 1 && character.unicodeScalars.first.map(scalars.contains) == true)
    }
}

extension StringProtocol {
    /// Whether the text's last Unicode scalar is a line feed. Swift takes CR LF for one character,
    /// so `hasSuffix("\n")` is false for a text that ends in CR LF.
    public var endsInLineFeed: Bool { unicodeScalars.last == "\n" }

    /// The text between line feeds, found among Unicode scalars. Swift takes CR LF for one
    /// character, so splitting characters at "\n" — and, on Linux, Foundation's
    /// `components(separatedBy: "\n")` — leaves text with CR LF line ends in one piece. A CR before
    /// a line feed stays at the end of its line.
    ///
    /// Split among UTF-8 bytes, which is the same (a line feed's byte is never part of another
    /// character's) and many times quicker than among scalars.
    public func splitAtLineFeeds(omittingEmpty: Bool = false) -> [String] {
        utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: omittingEmpty).map { String(decoding: $0, as: UTF8.self) }
    }
}
