import Foundation
import RelayKit

/// Actions that find, read and change files.
public enum FileActions: IntentPackage {
    public static let name = "files"
    public static let intents: [any Intent.Type] = [
        ReadFile.self, FindFiles.self, SaveFile.self, RenameFile.self, MoveFile.self, CopyFile.self, DeleteFile.self,
        FormatFileSize.self, Hash.self, MakeArchive.self, ExtractArchive.self, CreateFolder.self,
    ]
}

/// `read-file`: a file from a path.
struct ReadFile: Intent {
    static let summary = "Outputs the file at a path (relative to the workflow's folder); it must exist."
    static let examples = [
        IntentExample("- read-file: ~/notes/todo.txt\n- get-text"),
    ]
    static let output = ValueType.file

    @Parameter(primary: true, summary: "The file's path; ~ is the home folder.", access: .read) var path: FileReference

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard path.exists else { throw IntentError("no such file: '\(path.shownPath)'") }
        guard !path.isFolder else { throw IntentError("'\(path.path)' is a folder; use find-files to list it") }
        return .value(.file(path))
    }
}

/// `find-files`: the files of a folder that match conditions.
struct FindFiles: Intent {
    static let summary = "Lists the files in a folder (and its subfolders with 'recursive') that match 'where', sorted and limited."
    static let examples = [
        IntentExample("- find-files: ~/Downloads\n  where: { extension: pdf, size: { greater-than: 1 MB } }\n  sort: { by: size, order: descending }\n  limit: 5"),
    ]
    static let output = ValueType.list

    @Parameter(name: "in", primary: true, summary: "The folder to look in.", access: .read) var folder: FileReference
    @Parameter(summary: "Look in subfolders too.") var recursive: Bool = false
    @Parameter(summary: "Follow symbolic links that lead to files or folders inside the folder (never outside it; each folder is entered once).")
    var followLinks: Bool = false
    @Parameter(name: "where", summary: "Conditions on name, extension, size, created, modified, type (as in filter).")
    var conditions: ValueDictionary?
    @Parameter(summary: "Whether every condition must hold, or any one.", choices: ["all", "any"]) var match: String = "all"
    @Parameter(summary: "A property, or {by: PROPERTY, order: ascending|descending}, or a list of those.") var sort: Value?
    @Parameter(summary: "At most this many files.") var limit: Int?

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard folder.isFolder else { throw IntentError("'\(folder.path)' is not a folder") }
        let query = try FilterQuery(where: conditions ?? [:], matchAll: match.lowercased() != "any", sort: sort, limit: limit)
        let files = FolderScan.files(in: folder.path, recursive: recursive, links: followLinks ? .followInside : .skip)
        return .value(.list(try await query.apply(to: files.map { .file($0.reference) })))
    }

}
