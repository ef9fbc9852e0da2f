import Foundation
import RelayKit
import Testing

/// `relay lsp` with a workflow's `packages:` (Docs/Editors.md, "Packages"): a package that is
/// trusted and built is loaded, one that is not gets a note saying what to do; nothing is built.
extension PackageTests {
    /// A language server in this test's folders, initialized.
    private func editor() throws -> EditorSession {
        let session = try EditorSession(
            home: folder,
            environment: ["XDG_CACHE_HOME": Self.cache.path, "XDG_DATA_HOME": data.path, "XDG_STATE_HOME": folder.appendingPathComponent("state").path])
        try session.request(1, "initialize", ["processId": NSNull(), "rootUri": NSNull(), "capabilities": [:] as [String: Any]])
        _ = try session.response(1)
        try session.notify("initialized")
        return session
    }

    /// The diagnostics of `text` opened as the file at `path`, each as `LINE SEVERITY MESSAGE`.
    private func diagnosed(_ session: EditorSession, _ path: String, _ text: String) throws -> [String] {
        try session.notify("textDocument/didOpen", ["textDocument": ["uri": URL(fileURLWithPath: path).absoluteString, "languageId": "yaml", "version": 1, "text": text]])
        return try #require(try session.diagnostics(version: 1)).map { diagnostic in
            let line = (diagnostic["range"] as? [String: [String: Int]])?["start"]?["line"] ?? -1
            return "\(line) \(diagnostic["severity"] ?? "?") \(diagnostic["message"] ?? "")"
        }
    }

    @Test("relay lsp: a trusted, built package's actions are checked and completed; an untrusted one gets a note on how to trust it, an unbuilt one on how to build it")
    func languageServerPackages() async throws {
        let text = "packages: [\(Self.trailKit)]\nsteps:\n  - suggest-trails: summit\n  - sugg\n  - find: trails\n"
        let path = try workflow("editor.yaml", text)
        let builds = Self.cache.appendingPathComponent("relay/builds")
        let buildsBefore = (try? FileManager.default.contentsOfDirectory(atPath: builds.path)) ?? []

        // Not trusted: one note saying how to trust it, and the package's action and entity type not called unknown.
        try await BlockingWork.run { _ in
            let session = try editor()
            let found = try diagnosed(session, path, text)
            #expect(found.count == 1, "\(found)")
            #expect(found.first?.hasPrefix("0 3 the package '\(Self.trailKit)' is not trusted") == true, "\(found)")
            #expect(found.first?.contains("relay package trust \(Self.trailKit)") == true, "\(found)")
            _ = session.finish()
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: builds.path)) ?? []) == buildsBefore, "the server built nothing")

        // Trusted and built (by relay check): its action is checked as relay check checks it, and completed.
        #expect(try await relay(["package", "trust", Self.trailKit], package: nil).status == 0)
        let checked = try await relay(["check", path], package: nil)
        #expect(checked.standardError.contains("editor.yaml:3:21: error:") && checked.standardError.contains("'summit'"), "\(checked.standardError)")
        try await BlockingWork.run { _ in
            let session = try editor()
            let found = try diagnosed(session, path, text)
            // The half-written step is unknown now: the package is there to say so (and that the
            // suggestions are not used).
            #expect(found.count == 3, "\(found)")
            #expect(found.first?.hasPrefix("2 1 ") == true && found.first?.contains("'summit'") == true, "\(found)")
            #expect(found.contains { $0.hasPrefix("3 1 unknown action 'sugg'") }, "\(found)")
            #expect(found.contains { $0.hasPrefix("2 2 the output of 'suggest-trails' is not used") }, "\(found)")
            try session.request(2, "textDocument/completion", ["textDocument": ["uri": URL(fileURLWithPath: path).absoluteString], "position": ["line": 3, "character": 8]])
            let items = ((try session.response(2)?["result"] as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
            #expect(items.contains("trails.suggest-trails"), "\(items.count) items")
            _ = session.finish()
        }

        // A package's enum property: its cases, as a value in a `where:`.
        #expect(try await relay(["package", "trust", Self.libraryKit], package: nil).status == 0)
        let booksText = "packages: [\(Self.libraryKit)]\nsteps:\n  - find: books\n    where: { genre: M, rating: { is: 4 } }\n"
        let books = try workflow("books.yaml", booksText)
        #expect(try await relay(["check", books], package: nil).status == 2)
        try await BlockingWork.run { _ in
            let session = try editor()
            _ = try diagnosed(session, books, booksText)
            try session.request(2, "textDocument/completion", ["textDocument": ["uri": URL(fileURLWithPath: books).absoluteString], "position": ["line": 3, "character": 21]])
            let items = ((try session.response(2)?["result"] as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
            #expect(items == ["Fantasy", "Science Fiction", "Mystery"], "\(items)")
            _ = session.finish()
        }

        // Trusted but not built for its sources: a note saying how to build it, and nothing built.
        let copy = folder.appendingPathComponent("kits/TrailKit")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.trailKit, toPath: copy.path)
        #expect(try await relay(["package", "trust", copy.path], package: nil).status == 0)
        let copied = try workflow("copied.yaml", "packages: [./kits/TrailKit]\nsteps:\n  - suggest-trails: easy\n")
        let before = (try? FileManager.default.contentsOfDirectory(atPath: builds.path)) ?? []
        try await BlockingWork.run { _ in
            let session = try editor()
            let found = try diagnosed(session, copied, "packages: [./kits/TrailKit]\nsteps:\n  - suggest-trails: easy\n")
            #expect(found.count == 1, "\(found)")
            #expect(found.first?.hasPrefix("0 3 the package './kits/TrailKit' is not built for its sources as they are now") == true, "\(found)")
            _ = session.finish()
        }
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: builds.path)) ?? []) == before, "the server built nothing")
    }
}
