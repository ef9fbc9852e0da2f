import Foundation
import RelayKit
import RelayEngine

/// The `notes` package: `note` entities, the Markdown files under the notes folder, indexed for
/// `search`; `create-note` and `append-to-note` (Docs/Actions.md).
public enum NoteLibrary: IntentPackage {
    public static let name = "notes"
    public static let intents: [any Intent.Type] = [CreateNote.self, AppendToNote.self]
    public static let entities: [any Entity.Type] = [Note.self]

    static let extensions: Set<String> = ["md", "markdown"]

    /// The notes folder: `--notes DIR`, else `$RELAY_NOTES`, else `~/Notes` (`LibraryFolders`).
    static var folder: String { LibraryFolder.path(variable: "RELAY_NOTES", fallback: "~/Notes") }
}

/// A note: a Markdown file under the notes folder, titled by its file name.
struct Note: Entity {
    static var folder: String? { NoteLibrary.folder }
    static let typeName = EntityTypeName("note")
    static let properties: [EntityProperty<Note>] = [
        .stored("name", \.name),
        .stored("folder", \.folder),
        .stored("created", \.created),
        .stored("modified", \.modified),
        .stored("size", \.size),
        .deferred("body") { try $0.body() },
    ]
    static var defaultQuery: any EntityQuery<Note> { NoteQuery() }
    /// A Markdown file in the notes folder, or its path, is that note.
    static var valueQueries: [EntityValueQuery<Note>] { LibraryFolder.valueQueries(in: { NoteLibrary.folder }, type: .markdown, extensions: NoteLibrary.extensions, Note.init) }
    static var indexing: EntityIndexing<Note>? {
        EntityIndexing(
            priority: 0.6, keywords: { $0.folder.split(separator: "/").map(String.init) }, modified: { $0.file.modified },
            content: { try $0.body() })
    }

    let file: ScannedFile

    var id: String { file.relativePath }
    var name: String { file.name }
    var title: String { (file.name as NSString).deletingPathExtension }
    /// The folder below the notes folder, empty at the top.
    var folder: String { (file.relativePath as NSString).deletingLastPathComponent }
    var created: Date { file.created }
    var modified: Date { file.modified }
    var size: Int { Int(file.size) }

    var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: title, subtitle: folder.isEmpty ? nil : folder)
    }

    /// Its Markdown file, then its text.
    var transferRepresentations: [TransferRepresentation] {
        let reference = file.reference
        return [.proxy(.markdown) { .file(reference) }, .proxy(.plainText) { .text(try body()) }]
    }

    /// The Markdown text of the note.
    func body() throws -> String {
        // Read only inside the notes' folder, as opened: a link put in the note's place since it
        // was found leads nowhere else.
        guard let data = FolderScan.contents(of: file.path, inside: NoteLibrary.folder, limit: Limits.textBytes) else {
            throw IntentError("cannot read the note '\(file.relativePath)': it is not a file in the notes' folder now, or is over \(Limits.textBytes >> 20) MiB")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Reads the notes folder on every query: nothing is cached or watched.
struct NoteQuery: EntityQuery {
    func entities(for ids: [String]) async throws -> [Note] {
        let folder = NoteLibrary.folder
        // Only what a listing of the library would give: an identifier cannot lead out of its folder.
        return ids.compactMap { id in FolderScan.file(id, in: folder, extensions: NoteLibrary.extensions).map(Note.init) }
    }

    func allEntities() async throws -> [Note] {
        try FolderScan.files(in: NoteLibrary.folder, extensions: NoteLibrary.extensions, links: .followInside).map(Note.init)
    }
}
