import Foundation
import RelayKit
import RelayEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `make-archive`: files and folders into a zip or tar.gz.
struct MakeArchive: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.makezip", title: "Make Archive", parameters: ["WFInput": "input"], defaults: ["WFZIPName": "Archive"],
            templates: ["to": "{WFZIPName}.zip"], when: ["WFArchiveFormat": ["zip", ""]]),
    ]
    static let summary =
        "Puts the input files, and a folder with everything in it, into a zip or tar.gz archive at 'to', whose extension names the format; outputs the archive."
    static let examples = [
        IntentExample("- find-files: ~/Documents/reports\n- make-archive: ~/Backups/reports.zip"),
        IntentExample("- make-archive: { folder: ~/Documents/reports, to: ~/Backups/reports.tar.gz }"),
    ]
    static let output = OutputType.file

    @Parameter(input: true, summary: "The files.", access: .read) var items: [Value]
    @Parameter(summary: "A folder to put in with everything in it, under its own name.", access: .read) var folder: FileReference?
    @Parameter(primary: true, summary: "The archive's path: .zip, .tar.gz or .tgz.", access: .write) var to: FileReference
    @Parameter(summary: Overwrite.summary) var overwrite: Overwrite = .refuse

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard let format = Archive.Format(fileName: to.name) else {
            throw IntentError("'\(to.name)' names no archive format; end it in .zip, .tar.gz or .tgz")
        }
        let inputs = items.filter { !$0.isNothing } + (folder.map { [.file($0)] } ?? [])
        guard !inputs.isEmpty else { throw IntentError("there is nothing to put in the archive: give files as the input, or a folder") }
        // Refused before the archive is made, not after.
        guard overwrite != .refuse || !AtomicFile.entryExists(to.path) else { throw IntentError(Overwrite.refusal(to.path)) }
        // Each item by its name; a folder's files by their path inside it, under the folder's name.
        var entries: [(name: String, source: FileReference?)] = []
        var names = Set<String>()
        for value in inputs {
            guard case .file(let item) = value else { throw IntentError("make-archive takes files and folders, not \(value.type.withArticle)") }
            guard item.exists else { throw IntentError("no such file: '\(item.shownPath)'") }
            if item.isFolder {
                entries.append((item.name + "/", nil))
                for found in try FolderScan.files(in: item.path, recursive: true, links: .skip) {
                    entries.append((item.name + "/" + found.relativePath, found.reference))
                }
            } else {
                entries.append((item.name, item))
            }
        }
        for entry in entries where !names.insert(entry.name).inserted {
            throw IntentError("two inputs would both be '\(entry.name)' in the archive; rename one")
        }
        // Made whole in the scratch folder, then copied into place as one undoable change.
        let made: String
        // A name of its own: the archive may be asked for in the scratch folder itself.
        do { made = try context.scratchFolder.path(forNewFile: "making \(UUID().uuidString) \(to.name)") } catch { throw IntentError(error.message) }
        let list = entries
        try await BlockingWork.run { stop in try Archive.write(list, format: format, to: made, stop: stop) }
        let path = try FileDestination.path(for: to, named: to.name, asFolder: false)
        defer { unlink(made) }
        let written = try await changing { () throws(FileOperationError) in
            try await context.fileChanges.copy(made, to: path, overwrite: overwrite)
        }
        return .value(.file(FileReference(path: written)))
    }
}

/// `extract-archive`: a zip or tar archive into a new folder.
struct ExtractArchive: Intent {
    static let summary =
        "Extracts a zip, tar or tar.gz archive into a new folder (by default beside it, named after it); refuses entries that would leave the folder, links, and archives that grow past the size limit."
    static let examples = [
        IntentExample("- read-file: ~/Downloads/photos.zip\n- extract-archive: ~/Pictures/imported"),
    ]
    static let output = OutputType.file

    @Parameter(input: true, summary: "The archive file.", access: .read) var archive: FileReference
    @Parameter(primary: true, summary: "The folder to make and extract into.", access: .write) var to: FileReference?
    @Parameter(summary: "When the folder is already there: false refuses, rename makes 'name 2' beside it; a folder is never replaced.")
    var overwrite: Overwrite = .refuse
    @Parameter(summary: "The most the extracted files may hold together, such as 2 GB.") var maxSize: String = "4 GB"

    /// An archive that grows more than this many times its own size is taken for a bomb.
    static let largestRatio = 1_000.0
    static let mostEntries = 100_000

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard let limit = ByteCount.bytes(from: maxSize), limit > 0, limit.isFinite else {
            throw IntentError("'max-size' is a size such as 500 MB or 2 GB, not '\(maxSize)'")
        }
        guard archive.exists, !archive.isFolder else { throw IntentError("no such archive: '\(archive.path)'") }
        let archiveSize = Double((try? archive.attributes()[.size] as? NSNumber)?.int64Value ?? 0)
        let stem = archive.name.lowercased().hasSuffix(".tar.gz") ? String(archive.name.dropLast(7)) : (archive.name as NSString).deletingPathExtension
        var destination = to?.path ?? ((archive.path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(stem.isEmpty ? "archive" : stem)
        switch overwrite {
        case .rename:
            do { destination = try Overwrite.freePath(for: destination, exists: AtomicFile.entryExists) } catch { throw IntentError(error.message) }
        case .replace, .refuse:
            guard !AtomicFile.entryExists(destination) else {
                throw IntentError("'\(Excerpt.start(of: destination))' already exists; extract into a new folder, or set overwrite: rename to make one beside it")
            }
        }
        let folder: String
        do { folder = try await context.fileChanges.makeFolder(destination) } catch { throw IntentError(error.message) }
        let descriptor: Int32
        do { descriptor = try archive.openForReading() } catch { throw IntentError(error.message) }
        let source = archive
        do {
            try await BlockingWork.run { stop in
                defer { close(descriptor) }
                try Self.extract(descriptor: descriptor, name: source.name, into: folder, limit: limit, archiveSize: archiveSize, stop: stop)
            }
        } catch {
            // The folder is new and Relay's: nothing is left half made.
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        return .value(.file(FileReference(path: folder)))
    }

    /// Writes each entry of the archive under `folder`: folders made, files created new (never
    /// through a link, never over a file already there), anything else refused.
    static func extract(descriptor: Int32, name: String, into folder: String, limit: Double, archiveSize: Double, stop: StopFlag) throws {
        var total = 0.0, count = 0
        try Archive.read(descriptor: descriptor, name: name, stop: stop) { entry, readBody in
            count += 1
            guard count <= mostEntries else { throw IntentError("'\(name)' has more than \(mostEntries) entries; Relay extracts at most that many") }
            let parts: [String]
            switch ArchiveEntryName.parts(entry.name) {
            case .success(let found): parts = found
            case .failure(let problem): throw IntentError("'\(name)' cannot be extracted: \(problem.message)")
            }
            switch entry.kind {
            case .link: throw IntentError("'\(name)' holds a link, '\(ArchiveEntryName.shown(entry.name))'; Relay extracts files and folders only")
            case .other: throw IntentError("'\(name)' holds '\(ArchiveEntryName.shown(entry.name))', which is neither a file nor a folder")
            case .folder:
                try makeFolders(parts, in: folder)
            case .file:
                try makeFolders(Array(parts.dropLast()), in: folder)
                let path = ([folder] + parts).joined(separator: "/")
                let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
                guard file >= 0 else {
                    let reason = errno == EEXIST ? "the archive holds it twice" : String(cString: strerror(errno))
                    throw IntentError("cannot extract '\(ArchiveEntryName.shown(entry.name))': \(reason)")
                }
                defer { close(file) }
                try readBody { piece in
                    total += Double(piece.count)
                    guard total <= limit else {
                        throw IntentError("'\(name)' holds more than \(ByteCount.text(Int64(limit))) (max-size); it was not extracted")
                    }
                    guard total <= max(archiveSize, 1_048_576) * largestRatio else {
                        throw IntentError("'\(name)' grows more than \(Int(largestRatio)) times its size, as archive bombs do; it was not extracted")
                    }
                    var offset = 0
                    while offset < piece.count {
                        let written = write(file, piece.baseAddress?.advanced(by: offset), piece.count - offset)
                        if written < 0, errno == EINTR { continue }
                        guard written > 0 else { throw IntentError("cannot write '\(path)': \(String(cString: strerror(errno)))") }
                        offset += written
                    }
                }
            }
        }
    }

    /// Makes each folder of `parts` under `root` that is not there; one that is a link or a file is refused.
    private static func makeFolders(_ parts: [String], in root: String) throws {
        var path = root
        for part in parts {
            path += "/" + part
            if mkdir(path, 0o755) == 0 { continue }
            var info = stat()
            guard errno == EEXIST, lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                throw IntentError("cannot make the folder '\(ArchiveEntryName.shown(parts.joined(separator: "/")))': it is a file, a link, or cannot be made")
            }
        }
    }
}
