import Foundation

/// The user's home folder: `$HOME` when set (Foundation's `NSHomeDirectory()` ignores it on Linux),
/// else the account's home.
public enum HomeFolder {
    public static var path: String {
        if let home = ProcessInfo.processInfo.environment["HOME"], home.hasPrefix("/") { return home }
        return NSHomeDirectory()
    }

    /// `path` with a leading `~` or `~/` replaced by the home folder.
    public static func expandingTilde(in path: String) -> String {
        if path == "~" { return self.path }
        if path.hasPrefix("~/") { return self.path + path.dropFirst() }
        return path
    }
}
