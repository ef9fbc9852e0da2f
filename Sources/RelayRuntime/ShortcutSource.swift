import Foundation
import RelayKit
import RelayShortcuts

/// A shortcut file given where a workflow is (`relay run`, `relay check`, `run-workflow`):
/// imported in memory (Docs/Shortcuts.md).
public enum ShortcutSource {
    /// Whether `path` names a shortcut by its extension: `.shortcut`, `.plist`, `.wflow`.
    public static func isShortcut(_ path: String) -> Bool {
        ["shortcut", "plist", "wflow"].contains((path as NSString).pathExtension.lowercased())
    }

    /// The bytes of the file at `path`, refused as a workflow file is when it is not a regular
    /// file or is over the limit.
    public static func bytes(_ path: String) throws(ShortcutError) -> Data {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ShortcutError(errno == ENOENT || errno == ENOTDIR ? "no such file: '\(path)'" : "cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw ShortcutError("'\(path)' is not a regular file") }
        guard info.st_size <= Limits.shortcutBytes else {
            throw ShortcutError("'\(path)' is \(ByteCount.text(Int64(info.st_size))); a shortcut file may be at most \(ByteCount.text(Int64(Limits.shortcutBytes)))")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ShortcutError("cannot read '\(path)': \(String(cString: strerror(errno)))") }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: Limits.shortcutBytes + 1) ?? Data()
            guard data.count <= Limits.shortcutBytes else { throw ShortcutError("'\(path)' grew past \(ByteCount.text(Int64(Limits.shortcutBytes))) as it was read") }
            return data
        } catch let error as ShortcutError {
            throw error
        } catch {
            throw ShortcutError("cannot read '\(path)': \(error.localizedDescription)")
        }
    }

    /// The shortcut at `path` as a workflow, named after the file unless it names itself.
    public static func imported(_ path: String, actions: [ActionDefinition], partial: Bool = false) throws(ShortcutError) -> ShortcutImport {
        let shortcut = try Shortcut.read(try bytes(path))
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return try ShortcutImporter(actions: actions).convert(shortcut, name: name, partial: partial)
    }
}
