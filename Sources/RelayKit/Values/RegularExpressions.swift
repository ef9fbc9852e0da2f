import Foundation

/// Builds regular expressions with errors fit for users.
public enum RegularExpressions {
    /// `pattern` compiled, or an error naming it.
    public static func make(_ pattern: String, caseSensitive: Bool = true) throws(IntentError) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern, options: caseSensitive ? [] : [.caseInsensitive])
        } catch {
            throw IntentError("'\(pattern)' is not a valid regular expression")
        }
    }
}
