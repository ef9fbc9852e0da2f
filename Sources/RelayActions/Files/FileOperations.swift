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
private func changing(_ body: () async throws(FileOperationError) -> Void) async throws {
    do {
        try await body()
    } catch {
        throw IntentError(error.message)
    }
}

/// Runs a file change that may copy a big file, with a progress bar on a terminal when it is long.
private func copying(in context: any IntentContext, _ body: @escaping @Sendable (ByteProgress) async throws(FileOperationError) -> Void)
    async throws
{
    let progress = ByteProgress()
    try await context.showingProgress({ progress.display }) {
        do throws(FileOperationError) {
            try await body(progress)
        } catch {
            throw IntentError(error.message)
        }
    }
}

/// An input file that must exist and not be a folder.
private func existingFile(_ file: FileReference) throws -> String {
    guard file.exists else { throw IntentError("no such file: '\(file.path)'") }
    guard !file.isFolder else { throw IntentError("'\(file.path)' is a folder") }
    return file.path
}

/// `save-file`: writes the input to a file.
struct SaveFile: Intent {
    static let summary = "Saves the input (a file's bytes, an entity in the format the path's extension names, or any value as text) to a path; refuses to replace a file unless 'overwrite'."
    static let examples = [
        IntentExample("- text: \"a line\"\n- save-file: out/notes.txt"),
    ]
    static let output = ValueType.file

    @Parameter(input: true, summary: "What to save.", access: .read) var value: Value
    @Parameter(primary: true, summary: "The path, or a folder to save the input file into.", access: .write) var to: FileReference
    @Parameter(summary: "Replace an existing file.") var overwrite: Bool = false

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let path: String
        var value = value.oneValue
        // An empty list or nothing (a `find` that found nothing) saves nothing, rather than an
        // empty file in place of one that had something in it.
        if value.isNothing || value == .list([]) {
            throw IntentError("there is nothing to save: the input is \(value.briefDescription)")
        }
        if case .entity = value {
            // An entity is saved in the form the destination's extension names (`ridge.pdf`: its
            // PDF), else in its first form that is data (Docs/Language.md, "Conversions between formats").
            let named = to.isFolder ? nil : ContentType(fileExtension: to.fileExtension)
            value = try await context.convert(value, to: named.map(Representation.file) ?? .value(.file))
        }
        if case .file(let file) = value {
            path = try FileDestination.path(for: to, named: file.name)
            let source = try existingFile(file)
            try await copying(in: context) { progress throws(FileOperationError) in
                try await context.fileChanges.copy(source, to: path, overwrite: overwrite, progress: progress)
            }
        } else {
            path = try FileDestination.path(for: to, named: "Saved.txt")
            try refuseReplacing(path)
            let data = Data(value.textValue.utf8)
            try await changing { () throws(FileOperationError) in try await context.fileChanges.write(data, to: path) }
        }
        return .value(.file(FileReference(path: path)))
    }

    private func refuseReplacing(_ path: String) throws {
        guard overwrite || !FileManager.default.fileExists(atPath: path) else {
            throw IntentError("'\(path)' already exists; set overwrite: true to replace it")
        }
    }
}

/// `rename-file`: a new name in the same folder.
struct RenameFile: Intent {
    static let summary = "Renames the input file within its folder."
    static let examples = [
        IntentExample("- read-file: report.txt\n- rename-file: report-final.txt"),
    ]
    static let output = ValueType.file

    @Parameter(input: true, summary: "The file.", access: .write) var file: FileReference
    @Parameter(primary: true, summary: "The new name, with its extension.") var name: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let source = try existingFile(file)
        guard !name.isEmpty, !name.contains("/") else { throw IntentError("'\(name)' is not a file name") }
        let target = ((source as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
        try await changing { () throws(FileOperationError) in try await context.fileChanges.move(source, to: target) }
        return .value(.file(FileReference(path: target)))
    }
}

/// `move-file`: into a folder, or to a new path.
struct MoveFile: Intent {
    static let summary = "Moves the input file into a folder, or to a new path."
    static let examples = [
        IntentExample("- read-file: report.txt\n- move-file: archive/"),
    ]
    static let output = ValueType.file

    @Parameter(input: true, summary: "The file.", access: .write) var file: FileReference
    @Parameter(primary: true, summary: "A folder, or the new path.", access: .write) var to: FileReference

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let source = try existingFile(file)
        let target = try FileDestination.path(for: to, named: file.name)
        try await copying(in: context) { progress throws(FileOperationError) in
            try await context.fileChanges.move(source, to: target, progress: progress)
        }
        return .value(.file(FileReference(path: target)))
    }
}

/// `copy-file`: a copy in a folder, or at a path.
struct CopyFile: Intent {
    static let summary = "Copies the input file into a folder, or to a path; refuses to replace a file unless 'overwrite'."
    static let examples = [
        IntentExample("- read-file: report.txt\n- copy-file: backup/"),
    ]
    static let output = ValueType.file

    @Parameter(input: true, summary: "The file.", access: .read) var file: FileReference
    @Parameter(primary: true, summary: "A folder, or the copy's path.", access: .write) var to: FileReference
    @Parameter(summary: "Replace an existing file.") var overwrite: Bool = false

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let source = try existingFile(file)
        let target = try FileDestination.path(for: to, named: file.name)
        try await copying(in: context) { progress throws(FileOperationError) in
            try await context.fileChanges.copy(source, to: target, overwrite: overwrite, progress: progress)
        }
        return .value(.file(FileReference(path: target)))
    }
}

/// `delete-file`: into Relay's trash.
struct DeleteFile: Intent {
    static let summary = "Deletes the input file into Relay's trash; 'relay undo' puts it back."
    static let examples = [
        IntentExample("- read-file: old.log\n- delete-file"),
    ]
    static let output = ValueType.nothing

    @Parameter(input: true, summary: "The file.", access: .write) var file: FileReference

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let path = try existingFile(file)
        try await changing { () throws(FileOperationError) in try await context.fileChanges.delete(path) }
        return .nothing
    }
}
