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
        kebabCase(name).split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    /// `a` or `an` before `word`, by its first letter (`an image`, `a url`, `a photo`).
    public static func indefiniteArticle(for word: String) -> String {
        guard let first = word.lowercased().first else { return "a" }
        return "aeio".contains(first) ? "an" : "a"
    }
}
