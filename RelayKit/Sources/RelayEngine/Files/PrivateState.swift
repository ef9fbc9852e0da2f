import Foundation
import RelayKit

/// Relay's own state — kept grants, trusted packages, the run history, the undo journal, secrets —
/// is its owner's alone (Docs/Security.md, "How grants are kept"): its folders are made 0700 and
/// its files 0600, and what another user could have written is not believed.
public enum PrivateState {
    /// Makes `folder` and the folders above it that are missing, each 0700.
    public static func makeFolder(_ folder: String) throws(FileOperationError) {
        var missing: [String] = []
        var current = folder
        while !current.isEmpty, current != "/", access(current, F_OK) != 0 {
            missing.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        for path in missing.reversed() where mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw FileOperationError("cannot make the folder '\(path)': \(String(cString: strerror(errno)))")
        }
    }

    /// Why what is kept at `path`, under Relay's state folder `root`, cannot be believed — it, or
    /// a folder from `root` down to it, belongs to another user or may be changed by others —
    /// with the command that fixes it; nil when it is its owner's alone, or not there.
    public static func problem(with path: String, under root: String) -> String? {
        var chain = [path]
        var current = (path as NSString).deletingLastPathComponent
        let top = (root as NSString).standardizingPath
        while current.count >= top.count, current.hasPrefix(top) {
            chain.append(current)
            if current == top { break }
            current = (current as NSString).deletingLastPathComponent
        }
        for item in chain.reversed() {
            var info = stat()
            guard stat(item, &info) == 0 else { continue }
            let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
            guard info.st_uid == getuid() else {
                return "'\(item)' belongs to another user; Relay believes only its own state"
            }
            let mode = info.st_mode & 0o777
            if mode & 0o022 != 0 {
                let octal = String(mode, radix: 8)
                return "others may change '\(item)' (mode \(String(repeating: "0", count: max(0, 4 - octal.count)) + octal)), so what it holds is not believed: run chmod \(isFolder ? "700" : "600") \(ShellQuoting.quoted(item))"
            }
        }
        return nil
    }
}
