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
    static let output = OutputType.text
    @Parameter(primary: true, summary: "The genre.") var genre: Genre
    @Parameter(summary: "A second genre, if any.") var also: Genre?
    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.text("shelf of \(genre.rawValue)\(also.map { " and \($0.rawValue)" } ?? "")"))
    }
}

/// An issue's status: raw values for workflows, display names for people.
private enum Status: String, AppEnum {
    case open, inProgress = "in-progress", closed
    static let caseDisplayRepresentations: [Status: DisplayRepresentation] = [.open: "Open", .inProgress: "In Progress", .closed: "closed"]
}

private struct Issue: Entity {
    static let typeName = EntityTypeName("issue")
    static var defaultQuery: any EntityQuery<Issue> { IssueQuery() }
    let id: String
    @Property var status: Status
    /// Every status it has had.
    @Property var history: [Status] = []
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "#\(id)") }
    static let all = [Issue(id: "1", status: .open), Issue(id: "2", status: .inProgress, history: [.open]), Issue(id: "3", status: .inProgress)]
}

private struct IssueQuery: EntityQuery {
    func entities(for ids: [String]) async throws -> [Issue] { Issue.all.filter { ids.contains($0.id) } }
    func allEntities() async throws -> [Issue] { Issue.all }
}

private struct SetStatus: Intent {
    static let summary = "Says the status it was given."
    static let output = OutputType.text
    @Parameter(primary: true) var status: Status
    func perform(_ context: any IntentContext) async throws -> IntentResult { .value(.text("status \(status.rawValue)")) }
}

/// Says each status of a list it was given.
private struct SetStatuses: Intent {
    static let summary = "Says the statuses it was given."
    static let output = OutputType.text
    @Parameter(primary: true) var statuses: [Status]
    func perform(_ context: any IntentContext) async throws -> IntentResult { .value(.text(statuses.map(\.rawValue).joined(separator: ","))) }
}

/// Every issue: a typed list.
private struct ListIssues: Intent {
    static let summary = "Outputs every issue."
    static let output = OutputType.list(of: Issue.self)
    func perform(_ context: any IntentContext) async throws -> IntentResult { .value(.list(Issue.all.map(\.parameterValue))) }
}

private enum Tracker: IntentPackage {
    static let name = "tracker"
    static let intents: [any Intent.Type] = [SetStatus.self, SetStatuses.self, ListIssues.self]
    static let entities: [any Entity.Type] = [Issue.self]
}

/// Two cases shown with one name.
private enum Twins: String, AppEnum {
    case a, b
    static let caseDisplayRepresentations: [Twins: DisplayRepresentation] = [.a: "Same", .b: "Same"]
}

private struct PickTwin: Intent {
    static let summary = ""
    static let output = OutputType.text
    @Parameter var twin: Twins
    func perform(_ context: any IntentContext) async throws -> IntentResult { .nothing }
}

private struct TwinEntity: Entity {
    static let typeName = EntityTypeName("twin")
    static var defaultQuery: any EntityQuery<TwinEntity> { TwinQuery() }
    let id: String
    @Property var twin: Twins
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: id) }
}

private struct TwinQuery: EntityQuery {
    func entities(for ids: [String]) async throws -> [TwinEntity] { [] }
    func allEntities() async throws -> [TwinEntity] { [] }
}

/// Picks the book whose name holds a text, asking which when several do.
private struct PickBook: Intent {
    static let summary = "Picks a book whose name contains the text."
    static let output = OutputType.entity(Book.self)
    @Parameter(primary: true) var containing: String
    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let books =
            containing == "any of many"
            ? (0..<100_000).map { Book(id: "\($0)", name: "Book \($0)", genre: .fantasy) } : Book.all.filter { $0.name.contains(containing) }
        return .value(try await context.requestDisambiguation(among: books, dialog: "Which book has '\(containing)'?", key: "book").parameterValue)
    }
}

/// Takes a list of books: each item converted to a book, a title found by the type's query.
private struct ShelveBooks: Intent {
    static let summary = "Names the books it was given."
    static let output = OutputType.list(of: String.self)
    @Parameter(primary: true, input: true) var books: [Book]
    func perform(_ context: any IntentContext) async throws -> IntentResult { .value(.list(books.map { .text($0.name) })) }
}

private enum Shelves: IntentPackage {
    static let name = "shelves"
    static let intents: [any Intent.Type] = [Shelve.self, PickBook.self, ShelveBooks.self]
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

    @Test("display names: a workflow writes a case's raw value or its display name, the action gets the case, describe and errors show both")
    func displayNames() async throws {
        let tracker = registry(with: [Tracker.self])
        #expect(try await run(steps: "- set-status: in-progress", registry: tracker) == "status in-progress")
        #expect(try await run(steps: "- set-status: In Progress", registry: tracker) == "status in-progress")
        #expect(try await run(steps: "- text: In Progress\n- set-status: ${previous}", registry: tracker) == "status in-progress")
        let load = { (steps: String) in WorkflowLoader(registry: tracker).load(SourceFile(path: "w.yaml", text: "steps:\n  - " + steps)).1 }
        #expect(load("set-status: Open").isEmpty)
        let wrong = load("set-status: in progress")
        #expect(wrong.first?.message.contains("takes 'Open' (open), 'In Progress' (in-progress), 'closed'; found 'in progress'; did you mean 'In Progress'?") == true, "\(wrong.map(\.message))")
        // `find` compares the property's raw value with the display name's case, checked first.
        let inProgress = try await run(steps: "- find: issues\n  where: { status: In Progress }\n- count", registry: tracker)
        #expect(inProgress == 2)
        let either = try await run(steps: "- find: issues\n  where: { status: { is-any-of: [Open, in-progress] } }\n- count", registry: tracker)
        #expect(either == 3)
        // `filter` over a list of them does the same.
        let filtered = try await run(steps: "- find: issues\n- filter:\n    where: { status: In Progress }\n- count", registry: tracker)
        #expect(filtered == 2)
        let none = load("find: issues\n    where: { status: Shut }")
        #expect(none.first?.message.contains("'status' is one of 'Open' (open), 'In Progress' (in-progress), 'closed'; 'Shut' is none of them") == true, "\(none)")
        // Across the package wire, and in every view.
        let manifest = try await PackageManifest(json: try PackageManifest(of: Tracker.self).json)
        #expect(manifest.actions.first?.parameters.first?.choiceTitles == ["open": "Open", "in-progress": "In Progress"])
        #expect(manifest.entities.first?.properties.first?.caseTitles == ["open": "Open", "in-progress": "In Progress"])
        let definition = try ActionDefinition(SetStatus.self, package: "tracker")
        #expect(definition.parameters[0].choices == ["open", "in-progress", "closed"])
        #expect(CaseTitles.shown("in-progress", titles: definition.parameters[0].choiceTitles) == "In Progress (in-progress)")
    }

    @Test("a list of an enum ([Status]): each item is a case or its display name, checked before the run and when computed; describe and the schema say so")
    func enumLists() async throws {
        let tracker = registry(with: [Tracker.self])
        #expect(try await run(steps: "- set-statuses: [open, In Progress]", registry: tracker) == "open,in-progress")
        #expect(try await run(steps: "- set-statuses: closed", registry: tracker) == "closed")
        #expect(try await run(steps: "- text: In Progress\n- set-statuses: [\"${previous}\", open]", registry: tracker) == "in-progress,open")
        let load = { (steps: String) in WorkflowLoader(registry: tracker).load(SourceFile(path: "w.yaml", text: "steps:\n  - " + steps)).1 }
        #expect(load("set-statuses: [open, closed]").isEmpty)
        let wrong = load("set-statuses: [open, shut]")
        #expect(wrong.first?.message.contains("parameter 'statuses' item 2 takes 'Open' (open), 'In Progress' (in-progress), 'closed'; found 'shut'") == true, "\(wrong.map(\.message))")
        #expect(wrong.first?.range?.start.column == 26, "\(wrong.map(\.range))")
        let computed = load("set: { shut: shut }\n  - set-statuses: [open, \"${shut}\", closed]")
        #expect(computed.isEmpty, "\(computed.map(\.message))")
        do {
            _ = try await run(steps: "- set: { shut: shut }\n- set-statuses: [open, \"${shut}\"]", registry: tracker)
            Testing.Issue.record("a computed item that is no case ran")
        } catch let error as RuntimeError {
            #expect(error.message.contains("parameter 'statuses' item 2 takes"), "\(error.message)")
        }
        // Written as a block, each item is pointed at on its own line.
        let block = load("set-statuses:\n      statuses:\n        - open\n        - shut")
        #expect(block.first?.range?.start.line == 5, "\(block.map(\.range))")
        // What a list property holds is one of the cases too.
        #expect(try await run(steps: "- find: issues\n  where: { history: { contains: Open } }\n- count", registry: tracker) == 1)
        let holds = load("find: issues\n    where: { history: { contains: shut } }")
        #expect(holds.first?.message.contains("'history' holds items of 'Open' (open), 'In Progress' (in-progress), 'closed'; 'shut' is none of them") == true, "\(holds.map(\.message))")
        let definition = try ActionDefinition(SetStatuses.self, package: "tracker")
        #expect(definition.parameters[0].choices == ["open", "in-progress", "closed"])
        #expect(definition.parameters[0].typeDescription == "list of text")
    }

    @Test("two cases with one display name: the intent and the entity type are refused, naming both cases")
    func sharedDisplayName() throws {
        let error = #expect(throws: IntentDeclarationError.self) { try ActionDefinition(PickTwin.self, package: "twins") }
        #expect(error?.problem == "parameter 'twin': the cases 'a' and 'b' have one display name, 'Same'")
        var catalog = EntityCatalog()
        let refused = #expect(throws: IntentDeclarationError.self) { try catalog.add(EntityDescriptor.of(TwinEntity.self)) }
        #expect(refused?.problem == "property 'twin': the cases 'a' and 'b' have one display name, 'Same'")
    }

    @Test("a title several entities match: a person on a terminal is asked which; without one it is an error listing them")
    func disambiguation() async throws {
        let steps = "- text: Dun\n- convert: book\n- text: \"${previous.name}\""
        let asked = ScriptedInteraction(answers: ["Which is 'Dun'?": "Dune Messiah"], mode: .interactive)
        #expect(try await run(steps: steps, registry: registry(with: [Shelves.self]), interaction: asked) == "Dune Messiah")
        // Without a terminal, an answer given for the question picks one too.
        let answered = ScriptedInteraction(answers: ["Which is 'Dun'?": "Dune"], mode: .background)
        #expect(try await run(steps: steps, registry: registry(with: [Shelves.self]), interaction: answered) == "Dune")
        let error = await #expect(throws: RuntimeError.self) { try await run(steps: steps, registry: registry(with: [Shelves.self])) }
        #expect(error?.message.contains("2 books match 'Dun': 'Dune', 'Dune Messiah'") == true, "\(String(describing: error))")
    }

    @Test("requestDisambiguation: answered by its key or its prompt with no terminal; one is taken unasked; none or 100,000 fail the step")
    func requestDisambiguation() async throws {
        let shelves = registry(with: [Shelves.self])
        let steps = { (text: String) in "- pick-book: \(text)\n- text: \"${previous.name}\"" }
        let byKey = ScriptedInteraction(answers: ["book": "Dune Messiah"], mode: .background)
        #expect(try await run(steps: steps("Dune"), registry: shelves, interaction: byKey) == "Dune Messiah")
        let byPrompt = ScriptedInteraction(answers: ["Which book has 'Dune'?": "Dune"], mode: .background)
        #expect(try await run(steps: steps("Dune"), registry: shelves, interaction: byPrompt) == "Dune")
        #expect(try await run(steps: steps("Hobbit"), registry: shelves) == "The Hobbit")
        let unanswered = await #expect(throws: RuntimeError.self) { try await run(steps: steps("Dune"), registry: shelves) }
        #expect(unanswered?.message.contains("no answer for 'Which book has 'Dune'?'") == true, "\(String(describing: unanswered))")
        let none = await #expect(throws: RuntimeError.self) { try await run(steps: steps("Zzz"), registry: shelves, interaction: byKey) }
        #expect(none?.message.contains("'Which book has 'Zzz'?' has no books to choose from") == true, "\(String(describing: none))")
        let many = await #expect(throws: RuntimeError.self) { try await run(steps: steps("any of many"), registry: shelves, interaction: byKey) }
        #expect(many?.message.contains("choose among 100000 books; at most 1000 are offered") == true, "\(String(describing: many))")
    }

    @Test("an entity list parameter ([Book]): a list, one value or titles, each item converted by the type's query; a bad item is named")
    func entityList() async throws {
        let shelves = registry(with: [Shelves.self])
        #expect(try await run(steps: "- find: books\n  sort: name\n- shelve-books", registry: shelves) == ["Dune", "Dune Messiah", "The Hobbit"])
        #expect(try await run(steps: "- shelve-books: [Dune Messiah, The Hobbit]", registry: shelves) == ["Dune Messiah", "The Hobbit"])
        #expect(try await run(steps: "- shelve-books: The Hobbit", registry: shelves) == ["The Hobbit"])
        // A title written twice is asked about once.
        let once = ScriptedInteraction(answers: ["Which is 'Dun'?": "Dune"], mode: .background)
        #expect(try await run(steps: "- shelve-books: [Dun, The Hobbit, Dun]", registry: shelves, interaction: once) == ["Dune", "The Hobbit", "Dune"])
        #expect(once.asked.filter { $0 == "Which is 'Dun'?" }.count == 1, "\(once.asked)")
        #expect(try await run(steps: "- list: []\n- shelve-books", registry: shelves) == [])
        let bad = await #expect(throws: RuntimeError.self) { try await run(steps: "- shelve-books: [The Hobbit, Emma]", registry: shelves) }
        #expect(bad?.message.contains("wants a list of book: item 2: no book is titled 'Emma'") == true, "\(String(describing: bad))")
        // A list of another entity type into it is found by the check.
        let both = registry(with: [Shelves.self, Tracker.self])
        let mismatch = WorkflowLoader(registry: both).load(SourceFile(path: "w.yaml", text: "steps:\n  - list-issues\n  - shelve-books\n")).1
        #expect(mismatch.first?.message.contains("'shelve-books' takes a list of book as input, but the previous step, 'list-issues' (line 2), outputs a list of issues") == true,
            "\(mismatch.map(\.message))")
        let definition = try ActionDefinition(ShelveBooks.self, package: "shelves")
        #expect(definition.parameters[0].type == .list && definition.parameters[0].itemType == .entity("book"))
        #expect(definition.parameters[0].typeDescription == "list of book")
        let manifest = try await PackageManifest(json: try PackageManifest(of: Shelves.self).json)
        #expect(manifest.actions.first { $0.name == "shelve-books" }?.parameters.first?.itemType == .entity("book"))
    }

    @Test("candidates are shown by title, with a subtitle and then an id only where titles are alike")
    func disambiguationLabels() {
        let labels = Disambiguation.labels([("Dune", "1965", "1"), ("dune", "1984 film", "2"), ("Dune", "1984 film", "3"), ("Emma", nil, "4")])
        #expect(labels == ["Dune — 1965", "dune — 1984 film (2)", "Dune — 1984 film (3)", "Emma"])
        // Told apart as answers are matched: trimmed, in any case of letters ('ß' is 'SS').
        #expect(Disambiguation.labels([("Straße", nil, "s1"), ("STRASSE", nil, "s2")]) == ["Straße (s1)", "STRASSE (s2)"])
        #expect(Disambiguation.labels([(" Pad", nil, "p1"), ("Pad", nil, "p2")]) == [" Pad (p1)", "Pad (p2)"])
        // A title that is another's label: numbered, so that every label names one.
        let collide = Disambiguation.labels([("Col", "Sub", "c1"), ("Col", "Sub", "c2"), ("Col — Sub (c1)", nil, "c3")])
        #expect(Set(collide.map { $0.lowercased() }).count == 3, "\(collide)")
    }

    @Test("a title several entities match: the one titled exactly so is taken; the step's as: name does not answer which, the prompt does")
    func titleQuestions() async throws {
        let shelves = registry(with: [Shelves.self])
        // 'Dune' is also in 'Dune Messiah', but one book is titled exactly so.
        #expect(try await run(steps: "- text: Dune\n- convert: book\n- text: \"${previous.name}\"", registry: shelves) == "Dune")
        let steps = "- text: Dun\n- convert: book\n  as: pick\n- text: \"${pick.name}\""
        let byStepName = ScriptedInteraction(answers: ["pick": "Dune Messiah"], mode: .background)
        await #expect(throws: RuntimeError.self) { try await run(steps: steps, registry: shelves, interaction: byStepName) }
        let byPrompt = ScriptedInteraction(answers: ["pick": "Dune", "Which is 'Dun'?": "Dune Messiah"], mode: .background)
        #expect(try await run(steps: steps, registry: shelves, interaction: byPrompt) == "Dune Messiah")
    }
}
