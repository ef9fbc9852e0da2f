import Foundation
import RelayKit

/// A book's genre (App Intents' `AppEnum`): cases matched exactly, one with a space.
public enum Genre: String, AppEnum {
    case fantasy = "Fantasy", scienceFiction = "Science Fiction", mystery = "Mystery"
}

/// A book on a shelf.
public struct Book: Entity {
    public static let typeName = EntityTypeName("book")
    /// Its `@Property` fields, then what is worked out or fetched.
    public static var properties: [EntityProperty<Book>] {
        propertyFields + [
        .computed("isRead") { ReadingLog.isRead($0.id) },
        // Asked of a slow catalogue only when a workflow reads or filters on it.
        .deferred("rating") { book in
            FileHandle.standardError.write(Data("LibraryKit: fetching the rating of \(book.title)\n".utf8))
            return Double(book.stars)
        },
        ]
    }
    public static var defaultQuery: any EntityQuery<Book> { BookQuery() }
    public static let urlTemplate: URLTemplate? = try? URLTemplate("https://library.example/book/{id}")

    public let id: String
    public let title: String
    @Property public var author: String
    @Property public var genre: Genre
    @Property public var shelf: String
    let stars: Int

    public var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: title, subtitle: author) }

    /// Its card as rich text (which Relay renders as a PDF, RTF or HTML), then its title.
    public var transferRepresentations: [TransferRepresentation] {
        [
            .richText {
                RichText(blocks: [.heading(level: 1, [.text(title)]), .paragraph([.text("By \(author), \(genre.rawValue)")])])
            }.suggestedFileName(title),
            .proxy(.plainText) { .text(title) },
        ]
    }

    public static let all = [
        Book(id: "b1", title: "Dune", author: "Frank Herbert", genre: .scienceFiction, shelf: "s1", stars: 5),
        Book(id: "b2", title: "The Hobbit", author: "J. R. R. Tolkien", genre: .fantasy, shelf: "s2", stars: 4),
        Book(id: "b3", title: "Dune Messiah", author: "Frank Herbert", genre: .scienceFiction, shelf: "s1", stars: 3),
        Book(id: "b4", title: "Gaudy Night", author: "Dorothy L. Sayers", genre: .mystery, shelf: "s2", stars: 4),
    ]
}

struct BookQuery: EntityQuery {
    func entities(for ids: [String]) async throws -> [Book] { Book.all.filter { ids.contains($0.id) } }
    func allEntities() async throws -> [Book] { Book.all }
}

/// A shelf of books.
public struct Shelf: Entity {
    public static let typeName = EntityTypeName("shelf", plural: "shelves")
    public static var defaultQuery: any EntityQuery<Shelf> { ShelfQuery() }

    public let id: String
    public let title: String
    @Property public var room: String
    public var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: title, subtitle: room) }

    public static let all = [Shelf(id: "s1", title: "Space", room: "Study"), Shelf(id: "s2", title: "Stories", room: "Hall")]
}

struct ShelfQuery: EntityQuery {
    func entities(for ids: [String]) async throws -> [Shelf] { Shelf.all.filter { ids.contains($0.id) } }
    func allEntities() async throws -> [Shelf] { Shelf.all }
}

/// A book or a shelf.
enum Holding: UnionValue {
    case book(Book)
    case shelf(Shelf)
    static let members: [UnionMember<Holding>] = [.member(Book.self, Holding.book), .member(Shelf.self, Holding.shelf)]

    var entity: any Entity {
        switch self {
        case .book(let book): book
        case .shelf(let shelf): shelf
        }
    }
}

/// Which books have been read: a JSON list of ids in the package's data folder.
enum ReadingLog {
    static var path: String { PackageDataFolder.current.appendingPathComponent("read.json").path }

    static func ids() -> Set<String> {
        let data = FileManager.default.contents(atPath: path)
        return Set(data.flatMap { try? JSONDecoder().decode([String].self, from: $0) } ?? [])
    }

    static func isRead(_ id: String) -> Bool { ids().contains(id) }

    static func set(_ id: String, read: Bool, changes: any FileChanges) async throws {
        var ids = ids()
        if read { ids.insert(id) } else { ids.remove(id) }
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try await changes.write(try JSONEncoder().encode(ids.sorted()), to: path)
    }
}
