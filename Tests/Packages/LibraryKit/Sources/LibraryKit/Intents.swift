import Foundation
import RelayKit

/// The `library` package: books and shelves.
public enum LibraryKit: IntentPackage {
    public static let name = "library"
    public static let intents: [any Intent.Type] = [
        BooksInGenre.self, MarkAsRead.self, RemoveBook.self, LendBook.self, OpenBook.self, DescribeHolding.self,
    ]
    public static let entities: [any Entity.Type] = [Book.self, Shelf.self]
}

/// The books of a genre.
struct BooksInGenre: Intent {
    static let summary = "Outputs the books of a genre, by title."
    static let output = OutputType.list
    static let examples = [IntentExample("- library.books-in-genre: Science Fiction", output: "Dune\nDune Messiah")]
    @Parameter(primary: true, input: true, summary: "The genre.") var genre: Genre

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.list(Book.all.filter { $0.genre == genre }.map(\.parameterValue)))
    }
}

/// Marks a book read (or not); undoable.
struct MarkAsRead: Intent {
    static let summary = "Marks the book as read (or, with read: false, unread); outputs the book. Undoable."
    static let output = OutputType.entity("book")
    static let examples = [IntentExample("- library.mark-as-read: The Hobbit\n- get-details: isRead", output: "true")]
    @Parameter(primary: true, input: true, summary: "The book.") var book: Book
    @Parameter(summary: "Whether it has been read.") var read: Bool = true

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let was = ReadingLog.isRead(book.id)
        try await ReadingLog.set(book.id, read: read, changes: context.fileChanges)
        if was != read {
            try await context.registerUndo(action: "mark-as-read", arguments: ["book": book.parameterValue, "read": .boolean(was)])
        }
        return .value(book.parameterValue)
    }
}

/// Asks what to do with a book: keep it (the default), remove it (destructive), or cancel.
struct RemoveBook: Intent {
    static let summary = "Asks whether to keep or remove the book; Cancel ends the run."
    static let output = OutputType.text
    static let examples = [IntentExample("- library.remove-book: Gaudy Night")]
    @Parameter(primary: true, input: true, summary: "The book.") var book: Book

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let choice = try await context.requestChoice(
            "Remove \(book.title) from the library?",
            between: [.cancel(), ChoiceOption("Keep", role: .default), ChoiceOption("Remove", role: .destructive)])
        return .value(.text(choice.title == "Remove" ? "Removed \(book.title)" : "Kept \(book.title)"))
    }
}

/// Lends a book, after a person confirms: it may need someone at hand.
struct LendBook: Intent {
    static let summary = "Lends the book to someone, after confirmation."
    static let output = OutputType.text
    static let supportedModes: IntentModes = [.foreground]
    static let examples = [IntentExample("- library.lend-book: { book: Dune, to: Ada }")]
    @Parameter(primary: true, input: true, summary: "The book.") var book: Book
    @Parameter(summary: "Who borrows it.") var to: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        try await context.requestConfirmation("Lend \(book.title) to \(to)?")
        return .value(.text("Lent \(book.title) to \(to)"))
    }
}

/// Opens a book's page: URL-representable.
struct OpenBook: URLRepresentableIntent {
    static let summary = "Opens the book's page on library.example."
    static let examples = [IntentExample("- library.open-book: Dune")]
    @Parameter(primary: true, input: true, summary: "The book to open.") var target: Book
}

/// Says where a book or a shelf is.
struct DescribeHolding: Intent {
    static let summary = "Says where a book or a shelf is."
    static let output = OutputType.text
    static let examples = [IntentExample("- library.describe-holding: Space", output: "Space is in the Study")]
    @Parameter(primary: true, input: true, summary: "A book or a shelf.") var holding: Holding

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        switch holding {
        case .book(let book):
            let shelf = Shelf.all.first { $0.id == book.shelf }
            return .value(.text("\(book.title) is on \(shelf?.title ?? "no shelf")"))
        case .shelf(let shelf):
            return .value(.text("\(shelf.title) is in the \(shelf.room)"))
        }
    }
}
