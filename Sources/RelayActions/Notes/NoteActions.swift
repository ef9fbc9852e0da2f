import Foundation
import RelayKit
import RelayEngine

/// `create-note`: a new Markdown note in the notes folder.
struct CreateNote: Intent {
    static let summary = "Makes a note (a Markdown file in the notes folder) with a title and a body; outputs the note."
    static let examples = [
        IntentExample("- create-note: Groceries\n  body: \"- bread\\n- milk\""),
        IntentExample("- read-file: agenda.md\n- get-text\n- create-note: Agenda"),
    ]
    static let output = OutputType.entity("note")
    /// The notes folder, which no parameter names.
    static let capabilities: [Capability] = [.write]

    @Parameter(primary: true, summary: "The title, which names the file.") var title: String
    @Parameter(input: true, summary: "The body: text (Markdown) or rich text; the step's input unless given.") var body: Value?
    @Parameter(summary: "A folder below the notes folder.") var folder: String?
    @Parameter(summary: "When a note of that title is there: false refuses, true replaces it, rename makes 'title 2' beside it.")
    var overwrite: Overwrite = .refuse

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw IntentError("a note needs a title") }
        let fileName = String(trimmed.map { "/\\:\0".contains($0) ? "-" : $0 }.prefix(200)) + ".md"
        let relativePath = folder.map { NoteText.cleanFolder($0) }.flatMap { $0.isEmpty ? nil : $0 + "/" + fileName } ?? fileName
        let root = NoteLibrary.folder
        let path = root + "/" + relativePath
        guard overwrite != .refuse || !AtomicFile.entryExists(path) else {
            throw IntentError("a note titled '\(trimmed)' already exists at '\(path)'; use append-to-note to add to it, or set overwrite: true or rename")
        }
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        } catch {
            throw IntentError("cannot make the notes folder '\(root)': \(error.localizedDescription)")
        }
        var text = "# \(trimmed)\n"
        if let body, !body.isNothing { text += "\n" + NoteText.markdown(for: body).trimmingCharacters(in: .newlines) + "\n" }
        let written = try await changing { () throws(FileOperationError) in
            try await context.fileChanges.write(Data(text.utf8), to: path, overwrite: overwrite)
        }
        let writtenRelative = (relativePath as NSString).deletingLastPathComponent.isEmpty
            ? (written as NSString).lastPathComponent
            : (relativePath as NSString).deletingLastPathComponent + "/" + (written as NSString).lastPathComponent
        guard let file = FolderScan.file(writtenRelative, in: root) else { throw IntentError("the note '\(written)' vanished after it was written") }
        return .value(.entity(EntityValue(Note(file: file))))
    }
}

/// `append-to-note`: adds content to the end of a note.
struct AppendToNote: Intent {
    static let summary = "Adds the input to the end of a note: text, rich text (as Markdown), or images (copied beside the note and linked); entities are handed over as one of those."
    static let examples = [
        IntentExample("- text: \"- eggs\"\n- append-to-note: Groceries"),
    ]
    static let output = OutputType.entity("note")
    /// The note's file, in the notes folder.
    static let capabilities: [Capability] = [.write]

    @Parameter(primary: true, summary: "The note, or its title.") var note: Note
    @Parameter(input: true, summary: "What to add: rich text, text or images.", accepts: [.rtf, .plainText, .image], access: .read)
    var content: Value

    /// The note is locked from reading to writing, so runs at the same time do not lose additions.
    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let path = note.file.path
        var chunks: [String] = []
        for item in content.asList {
            chunks.append(try await NoteText.chunk(for: item, besides: path, context: context))
        }
        try await FileLock.exclusive(path) {
            guard let existing = FileManager.default.contents(atPath: path) else {
                throw IntentError("the note '\(note.title)' no longer exists at '\(path)'")
            }
            var text = String(decoding: existing, as: UTF8.self)
            if !text.isEmpty && !text.endsInLineFeed { text += "\n" }
            for chunk in chunks where !chunk.isEmpty { text += "\n" + chunk.trimmingCharacters(in: .newlines) + "\n" }
            try await context.fileChanges.write(Data(text.utf8), to: path)
        }
        let root = NoteLibrary.folder
        let updated = FolderScan.file(note.file.relativePath, in: root) ?? note.file
        return .value(.entity(EntityValue(Note(file: updated))))
    }
}

/// Turns values into the Markdown a note holds.
enum NoteText {
    /// Markdown for text (as is) or rich text (written as Markdown).
    static func markdown(for value: Value) -> String {
        if case .richText(let richText) = value { return MarkdownWriter.markdown(for: richText) }
        return value.textValue
    }

    /// `a/b/`, `/a//b` → `a/b`; `..` parts are dropped so the folder stays inside the notes folder.
    static func cleanFolder(_ folder: String) -> String {
        folder.split(separator: "/").filter { $0 != "." && $0 != ".." }.joined(separator: "/")
    }

    /// The Markdown for one item of `append-to-note`'s content. An image is copied into an
    /// `attachments` folder beside the note and linked.
    static func chunk(for item: Value, besides notePath: String, context: any IntentContext) async throws -> String {
        guard case .file(let file) = item else { return markdown(for: item) }
        let type = file.contentType
        if type.conforms(to: .image) {
            let folder = (notePath as NSString).deletingLastPathComponent + "/attachments"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let written = try await context.fileChanges.copy(file.path, to: folder + "/" + file.name, overwrite: .rename)
            let name = (written as NSString).lastPathComponent
            let link = "attachments/" + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name)
            return "![\((name as NSString).deletingPathExtension)](\(link))"
        }
        // Plain text and Markdown are added as they are written; other documents as the Markdown
        // of the rich text they hold.
        if type.conforms(to: .plainText) { return try item.coerced(to: .text).textValue }
        return MarkdownWriter.markdown(for: try await context.convert(item, to: .value(.richText)).richTextValue())
    }
}
