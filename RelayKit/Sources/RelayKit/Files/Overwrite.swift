import Foundation

/// What an action that writes a file does when a file is already at its path: one meaning for
/// every such action (Docs/Actions.md, "When the file is already there"). `false`, the default,
/// refuses with an error; `true` replaces the file (undoably: `relay undo` puts the old bytes
/// back); `rename` writes beside it under the first free name, "report 2.pdf", "report 3.pdf" …
public enum Overwrite: String, AppEnum {
    case refuse = "false"
    case replace = "true"
    case rename

    /// The summary every writing action gives its `overwrite` parameter.
    public static let summary = "When the file is already there: false refuses, true replaces it, rename writes beside it as 'name 2.ext'."

    /// Why a write was refused, naming the two ways on.
    public static func refusal(_ path: String) -> String {
        "'\(Excerpt.start(of: path))' already exists; set overwrite: true to replace it, or overwrite: rename to write beside it"
    }

    /// Extensions kept whole when a number goes before them ("backup 2.tar.gz").
    private static let doubleExtensions = [".tar.gz", ".tar.bz2", ".tar.xz", ".tar.zst"]

    /// The most numbers tried before giving up on a free name.
    static let mostTries = 10_000

    /// `path` if nothing is there, else the first of "stem 2.ext", "stem 3.ext" … that is free.
    /// `exists` says whether an entry is at a path (a symbolic link counts, even a broken one).
    public static func freePath(for path: String, exists: (String) -> Bool) throws(FileOperationError) -> String {
        guard exists(path) else { return path }
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let lowered = name.lowercased()
        let suffix: String
        if let double = doubleExtensions.first(where: { lowered.hasSuffix($0) && lowered.count > $0.count }) {
            suffix = String(name.suffix(double.count))
        } else {
            let ext = (name as NSString).pathExtension
            suffix = ext.isEmpty || ext.count == name.count - 1 ? "" : "." + ext
        }
        let stem = String(name.dropLast(suffix.count))
        for number in 2...mostTries {
            let candidate = (folder as NSString).appendingPathComponent("\(stem) \(number)\(suffix)")
            if !exists(candidate) { return candidate }
        }
        throw FileOperationError("no free name beside '\(Excerpt.start(of: path))': \(mostTries) are taken")
    }
}
