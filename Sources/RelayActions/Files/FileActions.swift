import Foundation
import RelayKit
import RelayEngine

/// Actions that find, read and change files.
public enum FileActions: IntentPackage {
    public static let name = "files"
    public static let intents: [any Intent.Type] = [
        ReadFile.self, FindFiles.self, SaveFile.self, RenameFile.self, MoveFile.self, CopyFile.self, DeleteFile.self,
        FormatFileSize.self, Hash.self, MakeArchive.self, ExtractArchive.self, CreateFolder.self, SetName.self,
    ]
}

/// `read-file`: a file from a path.
struct ReadFile: Intent {
    static let summary = "Outputs the file at a path (relative to the workflow's folder); it must exist."
    static let examples = [
        IntentExample("- read-file: ~/notes/todo.txt\n- get-text"),
    ]
    static let output = OutputType.file
    /// Get File: a file of the Shortcuts folder (kept in ~/Shortcuts, as Save File writes them),
    /// or, where Shortcuts shows a picker, a path asked before the step.
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.documentpicker.open", title: "Get File", defaults: ["WFShowFilePicker": "true"],
            templates: ["path": "~/Shortcuts/{WFGetFilePath}"], when: ["WFShowFilePicker": ["false"]]),
        ShortcutsMapping(
            "is.workflow.actions.documentpicker.open", title: "Get File", defaults: ["WFShowFilePicker": "true", "SelectMultiple": "false"],
            asks: ["path": "Get File: which file?"], when: ["WFShowFilePicker": ["true"], "SelectMultiple": ["false"]]),
    ]

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
    static let output = OutputType.list(of: .file)

    @Parameter(name: "in", primary: true, summary: "The folder to look in.", access: .read) var folder: FileReference
    @Parameter(summary: "Look in subfolders too.") var recursive: Bool = false
    @Parameter(summary: "Follow symbolic links that lead to files or folders inside the folder (never outside it; each folder is entered once).")
    var followLinks: Bool = false
    @Parameter(name: "where", summary: "Conditions on name, extension, size, created, modified, type (as in filter).")
    var conditions: ValueDictionary?
    @Parameter(summary: "Whether every condition must hold, or any one.", choices: ["all", "any"]) var match: String = "all"
    @Parameter(summary: "A property, or {by: PROPERTY, order: ascending|descending}, or a list of those; or random, a random order.") var sort: Value?
    @Parameter(summary: "At most this many files.") var limit: Int?

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard folder.isFolder else { throw IntentError("'\(folder.path)' is not a folder") }
        let query = try FilterQuery(where: conditions ?? [:], matchAll: match.lowercased() != "any", sort: sort, limit: limit)
        let path = folder.path, recursive = recursive, links: SymbolicLinks = followLinks ? .followInside : .skip
        let progress = WalkProgress()
        let (files, report) = try await context.showingProgress(progress.measure) {
            try await Self.select(in: path, recursive: recursive, links: links, query: query, progress: progress)
        }
        await context.trace("read \(report.folders) folder\(report.folders == 1 ? "" : "s") and \(report.files) file name\(report.files == 1 ? "" : "s"); \(files.count) kept")
        if let skipped = report.skippedSummary { await context.warn(skipped) }
        return .value(.list(files))
    }

    /// Walks `folder`, offering each file to `query` as it is met: a condition its name alone
    /// decides is judged before anything else about the file is read, and the walk ends once the
    /// answer cannot change (the first `limit` files of an unsorted query).
    static func select(
        in folder: String, recursive: Bool, links: SymbolicLinks, query: FilterQuery, progress: WalkProgress
    ) async throws -> ([Value], WalkReport) {
        // A name the conditions refuse is passed over while its folder is read (most are, by name).
        var walk = FolderWalk(folder, recursive: recursive, links: links) { name in
            (try? query.decide { FileReference.nameProperty($0, name: name) }) != false
        }
        var selection = FilterQuery.Selection(query)
        var nextLook = 0
        while var entry = walk.next() {
            if walk.report.files >= nextLook {
                nextLook = walk.report.files + 1024
                try Task.checkCancellation()
                progress.update(walk.report.files)
            }
            let decided = try query.decide { property in
                if let value = entry.pathProperty(property) { return value }
                guard ["size", "created", "modified"].contains(property) else { return nil }
                return walk.scan(&entry)?.property(property)
            }
            guard decided != false, let file = walk.scan(&entry) else { continue }
            guard try await selection.offer(.file(file.reference), passes: decided) else { break }
        }
        try Task.checkCancellation()  // the walk ends early when cancelled
        return (try await selection.finish(), walk.report)
    }
}

/// How many files a walk has met, for its progress line: "12,000 files, 40,000 a second".
final class WalkProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var files = 0
    private let started = DispatchTime.now().uptimeNanoseconds

    func update(_ files: Int) { lock.withLock { self.files = files } }

    var measure: @Sendable () -> (fraction: Double, label: String) {
        { [self] in
            let files = lock.withLock { self.files }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            let rate = seconds > 0 ? Int(Double(files) / seconds) : 0
            return (-1, "\(files.formatted()) files, \(rate.formatted()) a second")
        }
    }

}
