import Foundation

/// The folder for files a run makes from no input file (a PDF made from text): under the system
/// temporary folder, made at first use, kept after the run so printed paths stay valid. Scratch
/// folders older than a day are cleared when a new one is made (Docs/Language.md, "Changing files, and undo").
public final class ScratchFolder: @unchecked Sendable {
    /// The folder the run folders are made in.
    public let root: URL
    private let lock = NSLock()
    private var folder: URL?

    public init(root: URL = FileManager.default.temporaryDirectory.appendingPathComponent("relay-scratch")) {
        self.root = root
    }

    /// A path in the scratch folder for a new file called `name` (made unique with a number).
    public func path(forNewFile name: String) throws(FileOperationError) -> String {
        lock.lock()
        defer { lock.unlock() }
        let folder = try existingFolder()
        let base = (name as NSString).deletingPathExtension
        let fileExtension = (name as NSString).pathExtension
        var candidate = folder.appendingPathComponent(name).path
        var number = 2
        while FileManager.default.fileExists(atPath: candidate) {
            let numbered = fileExtension.isEmpty ? "\(base) \(number)" : "\(base) \(number).\(fileExtension)"
            candidate = folder.appendingPathComponent(numbered).path
            number += 1
        }
        return candidate
    }

    private func existingFolder() throws(FileOperationError) -> URL {
        if let folder { return folder }
        clearOldFolders()
        let made = root.appendingPathComponent("run-\(Int(Date().timeIntervalSince1970))-\(getpid())-\(UUID().uuidString.prefix(6))")
        do {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        } catch {
            throw FileOperationError("cannot make the scratch folder '\(made.path)': \(error.localizedDescription)")
        }
        folder = made
        return made
    }

    private func clearOldFolders() {
        let dayAgo = Date().addingTimeInterval(-86_400)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for name in names where name.hasPrefix("run-") {
            let url = root.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? Date()
            if modified < dayAgo { try? FileManager.default.removeItem(at: url) }
        }
    }
}
