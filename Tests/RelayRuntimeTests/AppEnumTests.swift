import Foundation
import RelayKit
import RelayLanguage
import Testing

@testable import RelayRuntime

/// A book's genre: cases that are not all lower case, one with a space.
private enum Genre: String, AppEnum {
    case fantasy = "Fantasy", scienceFiction = "Science Fiction", mystery = "Mystery"
}

private struct Book: Entity {
    static let typeName = EntityTypeName("book")
    static let properties: [EntityProperty<Book>] = [.stored("name", \.name), .stored("genre", \.genre), .stored("title", \.name)]
    static var defaultQuery: any EntityQuery<Book> { BookQuery() }
    let id: String
    let name: String
    let genre: Genre
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: name) }
    static let all = [
        Book(id: "1", name: "Dune", genre: .scienceFiction), Book(id: "2", name: "The Hobbit", genre: .fantasy),
        Book(id: "3", name: "Dune Messiah", genre: .scienceFiction),
    ]
}

private struct BookQuery: EntityQuery {
    func entities(for ids: [String]) async throws -> [Book] { Book.all.filter { ids.contains($0.id) } }
    func allEntities() async throws -> [Book] { Book.all }
}

private struct Shelve: Intent {
    static let summary = "Names the shelf for a genre."
    static let output = ValueType.text
    @Parameter(primary: true, summary: "The genre.") var genre: Genre
    @Parameter(summary: "A second genre, if any.") var also: Genre?
    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.text("shelf of \(genre.rawValue)\(also.map { " and \($0.rawValue)" } ?? "")"))
    }
}

private enum Shelves: IntentPackage {
    static let name = "shelves"
    static let intents: [any Intent.Type] = [Shelve.self]
    static let entities: [any Entity.Type] = [Book.self]
}

@Suite("Enums (App Intents' AppEnum): cases known to the checker, describe and filters, matched exactly")
struct AppEnumTests {
    private func check(_ steps: String) -> [Diagnostic] {
        let text = "steps:\n" + steps.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        return WorkflowLoader(registry: registry(with: [Shelves.self])).load(SourceFile(path: "w.yaml", text: text)).1
    }

    @Test("a parameter takes its cases exactly; another text, or another case of letters, is a check error with a did-you-mean")
    func parameters() async throws {
        #expect(try await run(steps: "- shelve: Science Fiction", registry: registry(with: [Shelves.self])) == "shelf of Science Fiction")
        #expect(try await run(steps: "- shelve: { genre: Fantasy, also: Mystery }", registry: registry(with: [Shelves.self])) == "shelf of Fantasy and Mystery")
        let wrongCase = check("- shelve: science fiction")
        #expect(wrongCase.first?.message.contains("takes 'Fantasy', 'Science Fiction', 'Mystery'; found 'science fiction'; did you mean 'Science Fiction'?") == true, "\(wrongCase)")
        #expect(check("- shelve: scifi").first?.severity == .error)
        // A computed value that is none of the cases fails the step, naming them.
        await #expect(throws: RuntimeError.self) {
            try await run(steps: "- text: scifi\n- shelve: \"${previous}\"", registry: registry(with: [Shelves.self]))
        }
        let definition = try ActionDefinition(Shelve.self, package: "shelves")
        #expect(definition.parameters[0].choices == ["Fantasy", "Science Fiction", "Mystery"])
        #expect(definition.parameters[0].choicesAreExact)
        #expect(definition.parameters[1].isRequired == false)
    }

    @Test("a property of an enum type: where: compares with its cases, and a text that is none of them is a check error")
    func properties() async throws {
        let found = try await run(steps: "- find: books\n  where: { genre: Science Fiction }\n- text: \"${previous.name}\"", registry: registry(with: [Shelves.self]))
        #expect(found == "Dune\nDune Messiah")
        let none = check("- find: books\n  where: { genre: { is-any-of: [Fantasy, scifi] } }")
        #expect(none.first?.message.contains("'genre' is one of 'Fantasy', 'Science Fiction', 'Mystery'; 'scifi' is none of them") == true, "\(none)")
        #expect(try await PackageManifest(json: try PackageManifest(of: Shelves.self).json).entities.first?.properties[1].cases == ["Fantasy", "Science Fiction", "Mystery"])
        // A type's own `title` is listed once among what may be named.
        let unknown = check("- find: books\n  where: { nme: Dune }")
        #expect(unknown.first?.notes == ["note: a book has id, title, subtitle, name, genre"], "\(unknown)")
    }

    @Test("a title several entities match: a person on a terminal is asked which; without one it is an error listing them")
    func disambiguation() async throws {
        let steps = "- text: Dun\n- convert: book\n- text: \"${previous.name}\""
        let asked = ScriptedInteraction(answers: ["Which is 'Dun'?": "Dune Messiah"], mode: .interactive)
        #expect(try await run(steps: steps, registry: registry(with: [Shelves.self]), interaction: asked) == "Dune Messiah")
        let error = await #expect(throws: RuntimeError.self) { try await run(steps: steps, registry: registry(with: [Shelves.self])) }
        #expect(error?.message.contains("2 books match 'Dun': 'Dune', 'Dune Messiah'") == true, "\(String(describing: error))")
    }
}
