import Foundation
import RelayKit
import Testing

/// LibraryKit (Tests/Packages/LibraryKit), written as someone who knows App Intents would write a
/// package, end to end: every workflow names it in `packages:` relative to its own folder and is
/// run from another folder (Docs/Packages.md).
extension PackageTests {
    static let libraryKit = RelayProcess.root.appendingPathComponent("Tests/Packages/LibraryKit").path

    /// A workflow in a folder of its own that loads LibraryKit by a path relative to that folder.
    private func libraryWorkflow(_ name: String, _ steps: String) throws -> String {
        let flows = folder.appendingPathComponent("flows")
        try FileManager.default.createDirectory(at: flows, withIntermediateDirectories: true)
        let up = String(repeating: "../", count: flows.standardizedFileURL.pathComponents.count - 1)
        return try workflow("flows/\(name)", "packages: [\(up)\(Self.libraryKit.dropFirst())]\nsteps:\n\(steps)")
    }

    /// Runs relay from `/`, with LibraryKit allowed to build and run.
    private func library(_ arguments: [String], environment: [String: String] = [:]) async throws -> RelayProcess.Result {
        let command = arguments.first.map { ["run"].contains($0) } == true ? arguments + ["--allow-packages"] : arguments
        return try await relay(command, package: nil, environment: environment, in: URL(fileURLWithPath: "/"))
    }

    @Test("LibraryKit: enums matched exactly, with did-you-mean; deferred ratings fetched only when used, shown with RELAY_LOG=packages")
    func libraryEnumsAndDeferred() async throws {
        let genre = try libraryWorkflow("genre.yaml", "  - library.books-in-genre: Science Fiction\n")
        let found = try await library(["run", genre])
        #expect(found.status == 0, "\(found.standardError)")
        #expect(found.standardOutput == "Dune\nDune Messiah\n")
        #expect(try await relay(["package", "trust", Self.libraryKit], package: nil).status == 0)

        let wrongCase = try await library(["check", try libraryWorkflow("case.yaml", "  - find: books\n    where: { genre: { is: mystery } }\n")])
        #expect(wrongCase.status == 2)
        #expect(wrongCase.standardError.contains("'mystery' is none of them; did you mean 'Mystery'?"), "\(wrongCase.standardError)")
        let unknown = try await library(["check", try libraryWorkflow("scifi.yaml", "  - library.books-in-genre: scifi\n")])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("parameter 'genre' takes 'Fantasy', 'Science Fiction', 'Mystery'; found 'scifi'"), "\(unknown.standardError)")
        // An enum sorts in its cases' declared order, whoever sorts: Fantasy, Science Fiction, Mystery.
        for (name, steps) in [("find-sort.yaml", "  - find: books\n    sort: [genre, title]\n"), ("filter-sort.yaml", "  - find: books\n  - filter: { sort: [genre, title] }\n")] {
            let sorted = try await library(["run", try libraryWorkflow(name, steps)])
            #expect(sorted.standardOutput == "The Hobbit\nDune\nDune Messiah\nGaudy Night\n", "\(name): \(sorted.standardError)")
        }
        let mystery = try await library(["run", try libraryWorkflow("mystery.yaml", "  - find: books\n    where: { genre: Mystery }\n")])
        #expect(mystery.standardOutput == "Gaudy Night\n", "\(mystery.standardError)")

        let high = try await library(["check", try libraryWorkflow("high.yaml", "  - find: books\n    where: { rating: { greater-than: high } }\n")])
        #expect(high.status == 2)
        #expect(high.standardError.contains("'greater-than' of 'rating' wants a number, not text 'high'"), "\(high.standardError)")
        let rated = try libraryWorkflow("rated.yaml", "  - find: books\n    where: { rating: { greater-than: 4 } }\n")
        let quiet = try await library(["run", rated])
        #expect(quiet.standardOutput == "Dune\n")
        #expect(!quiet.standardError.contains("fetching the rating"), "a host's standard error is kept unless asked for")
        let logged = try await library(["run", rated], environment: ["RELAY_LOG": "packages"])
        #expect(logged.standardOutput == "Dune\n")
        #expect(logged.standardError.contains("[library] LibraryKit: fetching the rating of Dune\n"), "\(logged.standardError)")
        let unrated = try await library(["run", try libraryWorkflow("titles.yaml", "  - find: books\n    sort: { by: title }\n  - count\n")], environment: ["RELAY_LOG": "packages"])
        #expect(unrated.standardOutput == "4\n")
        #expect(!unrated.standardError.contains("fetching the rating"), "a deferred property is fetched only when used")
    }

    @Test("LibraryKit: choices with a default and a destructive option, a foreground intent, a union, a URL-representable entity, rich text rendered as a PDF")
    func libraryQuestionsAndForms() async throws {
        #expect(try await relay(["package", "trust", Self.libraryKit], package: nil).status == 0)
        let remove = try libraryWorkflow("remove.yaml", "  - library.remove-book: Gaudy Night\n")
        let prompt = "Remove Gaudy Night from the library?"
        #expect(try await library(["run", remove, "--yes"]).standardOutput == "Kept Gaudy Night\n")
        #expect(try await library(["run", remove, "--answer", "\(prompt)=Remove"]).standardOutput == "Removed Gaudy Night\n")
        #expect(try await library(["run", remove, "--answer", "\(prompt)=Cancel"]).status == 3)
        let unanswered = try await library(["run", remove])
        #expect(unanswered.status == 1)
        #expect(unanswered.standardError.contains("(options: 'Keep', 'Remove', 'Cancel'), or --yes to take the default 'Keep'"), "\(unanswered.standardError)")

        let lend = try libraryWorkflow("lend.yaml", "  - text: before\n  - save-file: { to: before.txt }\n  - library.lend-book: { book: Dune, to: Ada }\n")
        let refused = try await library(["run", lend, "--allow-write=\(folder.path)"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("'library.lend-book' may need a person to answer it, and this run has no terminal"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("flows/before.txt").path), "a step ran before the refusal")
        let lent = try await library(["run", lend, "--yes", "--allow-write=\(folder.path)"])
        #expect(lent.standardOutput == "Lent Dune to Ada\n", "\(lent.standardError)")

        let holding = try libraryWorkflow("holding.yaml", "  - library.describe-holding: Space\n  - library.describe-holding: The Hobbit\n  - library.mark-as-read: Du\n")
        let ambiguous = try await library(["run", holding])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.standardError.contains("2 books match 'Du': 'Dune', 'Dune Messiah'; choose one with --answer"), "\(ambiguous.standardError)")
        #expect(ambiguous.standardError.contains("holding.yaml:5:5: error: step 'library.mark-as-read'"), "\(ambiguous.standardError)")
        let located = try await library(["run", try libraryWorkflow("where.yaml", "  - library.describe-holding: The Hobbit\n")])
        #expect(located.standardOutput == "The Hobbit is on Stories\n", "\(located.standardError)")

        let opened = try await library(["run", try libraryWorkflow("open.yaml", "  - library.open-book: Dune\n"), "--dry-run"])
        #expect(opened.standardError.contains("https://library.example/book/b1"), "\(opened.standardError)")
        let card = try libraryWorkflow("card.yaml", "  - find: books\n    where: { title: { is: Dune } }\n  - make-pdf\n  - get-text\n")
        let rendered = try await library(["run", card, "--allow-write=\(folder.path)"])
        #expect(rendered.standardOutput == "Dune\nBy Frank Herbert, Science Fiction\n", "\(rendered.standardError)")
        // Rendered to a file, each book's rich text is named by its suggested name, not the converter's.
        let shelf = folder.appendingPathComponent("shelf")
        try FileManager.default.createDirectory(at: shelf, withIntermediateDirectories: true)
        let saved = try await library([
            "run", try libraryWorkflow("save.yaml", "  - find: books\n    where: { author: { is: Frank Herbert } }\n  - for-each:\n    do:\n      - save-file: { to: \(shelf.path) }\n"),
            "--allow-write=\(shelf.path)",
        ])
        #expect(saved.status == 0, "\(saved.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: shelf.path).sorted() == ["Dune Messiah.rtf", "Dune.rtf"])
    }

    @Test("LibraryKit: reading state kept in its data folder, undone by name; its examples are described and run as they say")
    func libraryUndoAndExamples() async throws {
        #expect(try await relay(["package", "trust", Self.libraryKit], package: nil).status == 0)
        let mark = try libraryWorkflow("mark.yaml", "  - library.mark-as-read: The Hobbit\n  - get-details: isRead\n")
        let marked = try await library(["run", mark])
        #expect(marked.standardOutput == "true\n", "\(marked.standardError)")
        let read = try libraryWorkflow("read.yaml", "  - find: books\n    where: { isRead: true }\n")
        #expect(try await library(["run", read]).standardOutput == "The Hobbit\n")
        #expect(FileManager.default.fileExists(atPath: dataFolder(of: Self.libraryKit) + "/read.json"))
        #expect(try await relay(["undo", "--list"], package: nil).standardOutput.contains("Undo Mark as Read (library.mark-as-read)"))
        #expect(try await relay(["undo"], package: nil).status == 0)
        #expect(try await library(["run", read]).standardOutput == "")

        let described = try await relay(["describe", "library.books-in-genre"], package: Self.libraryKit)
        #expect(described.standardOutput.contains("- library.books-in-genre: Science Fiction"), "\(described.standardOutput)")
        #expect(described.standardOutput.contains("Fantasy"), "\(described.standardOutput)")
        // Every example the package declares, as `relay describe` shows it, passes relay check, and
        // each that says what it prints prints exactly that.
        let listed = try await relay(["actions", "--json", "library."], package: Self.libraryKit)
        guard case .list(let actions) = try JSONReader.value(from: listed.standardOutput) else {
            Issue.record("relay actions --json printed no list: \(listed.standardError)")
            return
        }
        var ran = 0
        for action in actions {
            let name = try action.property("name").textValue
            for (index, example) in try action.property("examples").asList.enumerated() {
                let steps = try example.property("steps").textValue.split(separator: "\n").map { "  " + $0 + "\n" }.joined()
                let file = try libraryWorkflow("example-\(name)-\(index).yaml", steps)
                let checked = try await library(["check", file])
                #expect(checked.status == 0, "\(name) example \(index + 1): \(checked.standardError)")
                guard case .text(let output) = try example.property("output") else { continue }
                let result = try await library(["run", file])
                #expect(result.standardOutput == output + "\n", "\(name) example \(index + 1): \(result.standardError)")
                ran += 1
            }
        }
        #expect(ran >= 3, "only \(ran) of the package's examples say what they print")
    }
}
