import Foundation
import RelayKit
import RelayLanguage
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
        let handle: FileHandle
        do throws(FileReadError) {
            handle = try WorkflowLoader.openRegularFile(path, limit: Limits.shortcutBytes, what: "a shortcut file")
        } catch {
            throw ShortcutError(error.message)
        }
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

extension ShortcutImport {
    /// `diagnostic` with a note naming the shortcut's action its line is in, when it is in this
    /// import's workflow (a sub-workflow's diagnostic is left as it is).
    public func locating(_ diagnostic: Diagnostic, in path: String) -> Diagnostic {
        guard let range = diagnostic.range, range.file.path == path, let action = action(atLine: range.start.line) else { return diagnostic }
        var located = diagnostic
        located.notes.insert("note: in action \(action) of the shortcut (\(titles[action] ?? "?")); 'relay import' shows the workflow", at: 0)
        return located
    }
}

extension ShortcutSource {
    /// A run's error with the shortcut's action it is in, when `path` is a shortcut.
    public static func locating(_ diagnostic: Diagnostic, in path: String, actions: [ActionDefinition]) -> Diagnostic {
        guard isShortcut(path), let imported = try? imported(path, actions: actions) else { return diagnostic }
        return imported.locating(diagnostic, in: path)
    }
}
