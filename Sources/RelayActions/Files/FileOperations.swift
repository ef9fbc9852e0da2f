import Foundation
import RelayKit

/// Where a `to` parameter sends a file.
enum FileDestination {
    /// Inside `to` if it is an existing folder (or was written ending with `/`, or `asFolder`
    /// says so), else `to` itself. Missing folders are made.
    static func path(for to: FileReference, named name: String, asFolder: Bool? = nil) throws -> String {
        let folder = asFolder ?? (to.isFolder || to.namesFolder)
        let path = folder ? (to.path as NSString).appendingPathComponent(name) : to.path
        let parent = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw IntentError("cannot make the folder '\(parent)'")
        }
        return path
    }
}

/// Runs a file change, turning its error into the step's.
func changing<T>(_ body: () async throws(FileOperationError) -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        throw IntentError(error.message)
    }
}

/// Runs a file change that may copy a big file, with a progress bar on a terminal when it is long.
private func copying<T: Sendable>(
    in context: any IntentContext, _ body: @escaping @Sendable (ByteProgress) async throws(FileOperationError) -> T
) async throws -> T {
    let progress = ByteProgress()
    return try await context.showingProgress({ progress.display }) {
        do throws(FileOperationError) {
            return try await body(progress)
        } catch {
            throw IntentError(error.message)
        }
    }
}

/// An input file that must exist and not be a folder.
private func existingFile(_ file: FileReference) throws -> String {
    // The step's own look for the file, when it found it where it was, says as much.
    if let found = file.foundThisStep {
        guard !found.isFolder else { throw IntentError("'\(found.path)' is a folder") }
        return found.path
    }
    let path = file.path
    var info = stat()
    guard stat(path, &info) == 0 else { throw IntentError("no such file: '\(file.shownPath)'") }
    guard (info.st_mode & S_IFMT) != S_IFDIR else { throw IntentError("'\(path)' is a folder") }
    return path
}

/// `save-file`: writes the input to a file.
struct SaveFile: Intent {
    /// Save File without asking where: into the Shortcuts folder, which is `~/Shortcuts` here
    /// (Docs/Shortcuts.md, "Files"); a file already there is kept and the new one written beside it,
    /// unless the action overwrites.
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.documentpicker.save", title: "Save File", parameters: ["WFInput": "input", "WFSaveFileOverwrite": "overwrite"],
            values: ["WFSaveFileOverwrite": ["true": "true", "false": "rename"]],
            defaults: ["WFAskWhereToSave": "true", "WFSaveFileOverwrite": "false"], templates: ["to": "~/Shortcuts/{WFFileDestinationPath}"],
            when: ["WFAskWhereToSave": ["false"]]),
        // Asking where: the path is asked before the step (a terminal, or --answer).
        ShortcutsMapping(
            "is.workflow.actions.documentpicker.save", title: "Save File", parameters: ["WFInput": "input", "WFSaveFileOverwrite": "overwrite"],
            values: ["WFSaveFileOverwrite": ["true": "true", "false": "rename"]],
            defaults: ["WFAskWhereToSave": "true", "WFSaveFileOverwrite": "false"], asks: ["to": "Save File: where should the file be saved?"],
            when: ["WFAskWhereToSave": ["true"]]),
    ]
    static let summary = "Saves the input (a file's bytes, an entity or a list in the format the path's extension names, or any value as text) to a path; a file already there is replaced, kept beside or refused as 'overwrite' says, or added to with 'append'."
    static let examples = [
        IntentExample("- text: \"a line\"\n- save-file: out/notes.txt"),
        IntentExample("- current-date\n- format-date: \"yyyy-MM-dd HH:mm\"\n- save-file: { to: log.txt, append: true }"),
        IntentExample("- list: [{ name: Ada }, { name: Alan }]\n- save-file: people.json"),
    ]
    static let output = OutputType.file

    @Parameter(input: true, summary: "What to save.", access: .read) var value: Value
    @Parameter(primary: true, summary: "The path, or a folder to save the input file into.", access: .write) var to: FileReference
    @Parameter(summary: Overwrite.summary) var overwrite: Overwrite = .refuse
    @Parameter(summary: "Add to the end of the file (made if missing) instead of replacing it; text starts on a line of its own.")
    var append: Bool = false

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let named = to.isFolder ? nil : ContentType(fileExtension: to.fileExtension)
        // A list saved as JSON or CSV is one document of the whole list, even of one item.
        let wholeList: Bool
        if case .list = self.value, let named { wholeList = named.holdsLists } else { wholeList = false }
        var value = wholeList ? self.value : self.value.oneValue
        // An empty list or nothing (a `find` that found nothing) saves nothing, rather than an
        // empty file in place of one that had something in it.
        if value.isNothing || value == .list([]) {
            throw IntentError("there is nothing to save: the input is \(value.briefDescription)")
        }
        switch value {
        case .entity:
            // An entity is saved in the form the destination's extension names (`ridge.pdf`: its
            // PDF), else in its first form that is data (Docs/Language.md, "Conversions between formats").
            value = try await context.convert(value, to: named.map(Representation.file) ?? .value(.file))
        case .list, .dictionary:
            // A list or dictionary saved as JSON or CSV is one document of the whole.
            if let named, named.holdsLists { value = try await context.convert(value, to: .file(named)) }
        default: break
        }
        if case .file(let file) = value {
            let path = try FileDestination.path(for: to, named: file.name)
            let source = try existingFile(file)
            if append {
                let bytes: Data
                do { bytes = try file.contents() } catch { throw IntentError(error.message) }
                return .value(.file(FileReference(path: try await write(bytes, to: path, context, asText: false))))
            }
            let overwrite = overwrite
            let written = try await copying(in: context) { progress throws(FileOperationError) in
                try await context.fileChanges.copy(source, to: path, overwrite: overwrite, progress: progress)
            }
            return .value(.file(FileReference(path: written)))
        }
        let path = try FileDestination.path(for: to, named: "Saved.txt")
        let written = try await write(Data(Self.lineEnded(value.textValue).utf8), to: path, context, asText: true)
        return .value(.file(FileReference(path: written)))
    }

    /// Writes `data` at `path` as one atomic, undoable change: after what is there when `append`
    /// (a text on a line of its own), else as `overwrite` says. Returns the path written.
    private func write(_ data: Data, to path: String, _ context: any IntentContext, asText: Bool) async throws -> String {
        var data = data
        if append, FileManager.default.fileExists(atPath: path) {
            var existing: Data
            do { existing = try FileReference(path: path).contents() } catch { throw IntentError(error.message) }
            if asText, let last = existing.last, last != 0x0A, last != 0x0D { existing.append(0x0A) }
            data = existing + data
        }
        let bytes = data, policy = append ? Overwrite.replace : overwrite
        return try await changing { () throws(FileOperationError) in
            try await context.fileChanges.write(bytes, to: path, overwrite: policy)
        }
    }

    /// `text` ending with a line feed, as text files do; an empty text stays empty.
    static func lineEnded(_ text: String) -> String {
        guard let last = text.unicodeScalars.last, last != "\n", last != "\r" else { return text }
        return text + "\n"
    }
}

/// `rename-file`: a new name in the same folder.
struct RenameFile: Intent {
    static let summary = "Renames the input file within its folder."
    static let examples = [
        IntentExample("- read-file: report.txt\n- rename-file: report-final.txt"),
    ]
    static let output = OutputType.file

    @Parameter(input: true, summary: "The file.", access: .write, existing: true) var file: FileReference
    @Parameter(primary: true, summary: "The new name, with its extension.") var name: String
    @Parameter(summary: Overwrite.summary) var overwrite: Overwrite = .refuse

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let source = try existingFile(file)
        guard !name.isEmpty, !name.utf8.contains(UInt8(ascii: "/")), !name.utf8.contains(0), name != ".", name != ".." else {
            throw IntentError("'\(name)' is not a file name")
        }
        let target = FileReference.joining(FileReference.folderPart(of: source), name)
        let moved = try await changing { () throws(FileOperationError) in
            try await context.fileChanges.move(source, to: target, overwrite: overwrite)
        }
        return .value(.file(moved))
    }
}

/// `move-file`: into a folder, or to a new path.
struct MoveFile: Intent {
    static let summary = "Moves the input file into a folder (one that exists, or a path ending in /), or to a new path."
    static let examples = [
        IntentExample("- read-file: report.txt\n- move-file: archive/"),
    ]
    static let output = OutputType.file

    @Parameter(input: true, summary: "The file.", access: .write, existing: true) var file: FileReference
    @Parameter(primary: true, summary: "A folder, or the new path.", access: .write) var to: FileReference
    @Parameter(summary: Overwrite.summary) var overwrite: Overwrite = .refuse

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let source = try existingFile(file)
        let target = try FileDestination.path(for: to, named: file.name)
        // The scratch folder is cleared: a file moved into it from outside would be lost, and its
        // undo with it (Docs/Language.md, "Files acted on").
        let scratch = ResolvedPath.resolve(context.scratchFolder.folder.path) + "/"
        if ResolvedPath.resolve(target).hasPrefix(scratch), !ResolvedPath.resolve(source).hasPrefix(scratch) {
            throw IntentError("'\(file.name)' would be moved into the run's scratch folder, which is cleared; copy it there (copy-file), or move it somewhere lasting")
        }
        let overwrite = overwrite
        let moved = try await copying(in: context) { progress throws(FileOperationError) in
            try await context.fileChanges.move(source, to: target, overwrite: overwrite, progress: progress)
        }
        return .value(.file(moved))
    }
}

/// `copy-file`: a copy in a folder, or at a path.
struct CopyFile: Intent {
    static let summary = "Copies the input file into a folder (one that exists, or a path ending in /), or to a path; a file already there is replaced, kept beside or refused as 'overwrite' says."
    static let examples = [
        IntentExample("- read-file: report.txt\n- copy-file: backup/"),
    ]
    static let output = OutputType.file

    @Parameter(input: true, summary: "The file.", access: .read, existing: true) var file: FileReference
    @Parameter(primary: true, summary: "A folder, or the copy's path.", access: .write) var to: FileReference
    @Parameter(summary: Overwrite.summary) var overwrite: Overwrite = .refuse

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let source = try existingFile(file)
        let target = try FileDestination.path(for: to, named: file.name)
        let overwrite = overwrite
        let written = try await copying(in: context) { progress throws(FileOperationError) in
            try await context.fileChanges.copy(source, to: target, overwrite: overwrite, progress: progress)
        }
        return .value(.file(FileReference(path: written)))
    }
}

/// `delete-file`: into Relay's trash.
struct DeleteFile: Intent {
    static let summary = "Deletes the input file, or folder with all it holds, into Relay's trash; 'relay undo' puts it back."
    static let examples = [
        IntentExample("- read-file: old.log\n- delete-file"),
        IntentExample("- delete-file: build/"),
    ]
    static let output = OutputType.nothing

    @Parameter(primary: true, input: true, summary: "The file.", access: .write, existing: true) var file: FileReference

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        // A folder goes whole, as a file does: into the journal, undone whole.
        let path = file.foundThisStep.map(\.path) ?? file.path
        guard file.exists else { throw IntentError("no such file or folder: '\(file.shownPath)'") }
        try await changing { () throws(FileOperationError) in try await context.fileChanges.delete(path) }
        return .nothing
    }
}

/// `create-folder`: a new folder.
struct CreateFolder: Intent {
    static let summary = "Makes a folder (and any missing folders above it); a folder already there is the output as it is. Outputs the folder."
    static let examples = [
        IntentExample("- current-date\n- format-date: yyyy-MM-dd\n  as: today\n- create-folder: \"~/Backups/${today}\""),
    ]
    static let output = OutputType.file

    @Parameter(primary: true, summary: "The folder's path.", access: .write) var path: FileReference

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        if path.isFolder { return .value(.file(path)) }
        guard !path.exists else { throw IntentError("'\(path.path)' is a file, not a folder") }
        do {
            return .value(.file(FileReference(path: try await context.fileChanges.makeFolder(path.path))))
        } catch {
            throw IntentError(error.message)
        }
    }
}
