/// Derives the names and titles Relay shows from Swift identifiers.
public enum Naming {
    /// `caseSensitive` → `case-sensitive`, `RotateImage` → `rotate-image`.
    public static func kebabCase(_ identifier: String) -> String {
        var result = ""
        var previousWasLower = false
        for character in identifier {
            if character.isUppercase {
                if previousWasLower { result.append("-") }
                result.append(contentsOf: character.lowercased())
                previousWasLower = false
            } else {
                result.append(character == "_" ? "-" : character)
                previousWasLower = character.isLowercase || character.isNumber
            }
        }
        return result
    }

    /// `featured-collection` → `Featured Collection`.
    public static func title(fromName name: String) -> String {
        let words = kebabCase(name).split(separator: "-")
        return words.enumerated().map { index, word in
            // Title case as App Intents' titles are written: "Mark as Read", "Get Text from PDF".
            if index > 0, index < words.count - 1, minorWords.contains(String(word)) { return String(word) }
            if acronyms.contains(String(word)) { return word.uppercased() }
            return word.prefix(1).uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }

    /// Words a title writes in capitals: "Get Contents of URL".
    private static let acronyms: Set<String> = ["csv", "gif", "html", "id", "jpeg", "json", "pdf", "png", "rtf", "url", "yaml"]

    /// Words a title keeps in lower case between its first and last words.
    private static let minorWords: Set<String> = ["a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to", "with"]

    /// `a` or `an` before `word`, by its first letter (`an image`, `a url`, `a photo`).
    public static func indefiniteArticle(for word: String) -> String {
        guard let first = word.lowercased().first else { return "a" }
        return "aeio".contains(first) ? "an" : "a"
    }
}
