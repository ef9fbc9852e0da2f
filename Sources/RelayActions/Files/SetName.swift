import Foundation
import RelayKit

/// `set-name`: the input as a file of another name, without saving anything where the user
/// keeps files (Shortcuts' Set Name).
struct SetName: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.setitemname", title: "Set Name", parameters: ["WFInput": "input", "WFName": "name"]),
    ]
    static let summary =
        "Outputs the input as a file named 'name' in the run's scratch folder: a copy of a file (keeping its extension when the name has none), or a text written as one. Nothing where your files are changes."
    static let examples = [
        IntentExample("- text: \"id,total\\n1,9.50\"\n- set-name: orders.csv\n- get-details: name", output: "orders.csv"),
    ]
    static let output = OutputType.file

    @Parameter(input: true, summary: "A file, or a value written as text.", access: .read) var value: Value
    @Parameter(primary: true, summary: "The file's new name (one name, not a path).", check: SetName.problem) var name: String

    /// What is wrong with `name` as one file's name, or nil.
    @Sendable static func problem(_ name: String) -> String? {
        guard !name.isEmpty, name != ".", name != "..", !name.unicodeScalars.contains(where: { $0 == "/" || $0 == "\0" }) else {
            return "'\(name)' is not a file's name: give one name, without '/'"
        }
        return nil
    }

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        if let problem = Self.problem(name) { throw IntentError(problem) }
        // A folder of its own in the scratch folder, so that the file has exactly the name.
        let folder: String
        do {
            folder = try context.scratchFolder.path(forNewFile: "named \(UUID().uuidString)")
        } catch {
            throw IntentError(error.message)
        }
        guard mkdir(folder, 0o700) == 0 else { throw IntentError("cannot make a folder in the scratch folder: \(String(cString: strerror(errno)))") }
        switch value {
        case .file(let file):
            var named = name
            if (name as NSString).pathExtension.isEmpty, !(file.name as NSString).pathExtension.isEmpty {
                named += "." + (file.name as NSString).pathExtension
            }
            let path = (folder as NSString).appendingPathComponent(named)
            do {
                try AtomicFile.copy(file.path, to: path)
            } catch {
                throw IntentError(error.message)
            }
            return .value(.file(FileReference(path: path)))
        case .list, .dictionary, .entity:
            throw IntentError("set-name takes a file or a text, not \(value.type.withArticle)")
        default:
            let path = (folder as NSString).appendingPathComponent(name)
            do {
                try AtomicFile.write(Data(value.textValue.utf8), to: path)
            } catch {
                throw IntentError(error.message)
            }
            return .value(.file(FileReference(path: path)))
        }
    }
}
