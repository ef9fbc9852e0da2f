import Foundation
import RelayKit
import Testing

@testable import RelayActions
@testable import RelayRuntime

@Suite("The photos and notes libraries, find and search")
struct LibraryTests {
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("relay-libraries-\(UUID().uuidString)")
    private var notes: URL { root.appendingPathComponent("Notes") }
    private var photos: URL { root.appendingPathComponent("Pictures") }

    /// Runs `yaml` with the libraries and the index in this test's own folders, which it may change
    /// (notes are written, photos edited).
    private func runInLibraries(_ yaml: String) async throws -> Value {
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let overrides = [
            "RELAY_NOTES": notes.path, "RELAY_PHOTOS": photos.path, "XDG_DATA_HOME": root.appendingPathComponent("data").path,
        ]
        return try await LibraryFolder.$overrides.withValue(overrides) {
            try await run(yaml, granted: [.write: .only([notes.path, photos.path])])
        }
    }

    private func addPhoto(_ name: String, width: Int, height: Int) throws {
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let image = try RasterImage.blank(width: width, height: height)
        let type: ContentType = name.hasSuffix(".png") ? .png : .jpeg
        try image.encoded(as: type, quality: 90).write(to: photos.appendingPathComponent(name))
    }

    private func noteText(_ name: String) throws -> String {
        try String(contentsOf: notes.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("create-note writes a Markdown file; append-to-note adds text, rich text and images")
    func createAndAppend() async throws {
        try addPhoto("beach.png", width: 4, height: 3)
        let created = try await runInLibraries(
            """
            - create-note: Trip ideas
              body: "Go to the lake."
            - append-to-note: Trip ideas
              input: Pack boots.
            - rich-text-from-markdown:
              input: "**Bring** a map"
            - append-to-note: trip
            - find: photos
            - append-to-note: Trip ideas
            """)
        #expect(created.textValue == "Trip ideas")
        #expect(try noteText("Trip ideas.md") == "# Trip ideas\n\nGo to the lake.\n\nPack boots.\n\n**Bring** a map\n\n![beach](attachments/beach.png)\n")
        #expect(FileManager.default.fileExists(atPath: notes.appendingPathComponent("attachments/beach.png").path))
    }

    @Test("create-note's body is the step's input unless given, as in Shortcuts")
    func bodyFromInput() async throws {
        _ = try await runInLibraries("- text: \"- bread\\n- milk\"\n- create-note: Groceries")
        #expect(try noteText("Groceries.md") == "# Groceries\n\n- bread\n- milk\n")
        _ = try await runInLibraries("- text: ignored\n- create-note: Plain\n  body: given")
        #expect(try noteText("Plain.md") == "# Plain\n\ngiven\n")
    }

    @Test("a note given by title: exact first, then one partial match; none or several is an error listing them")
    func textToNote() async throws {
        _ = try await runInLibraries("- create-note: Trip\n- create-note: Trip ideas\n- create-note: Shopping list\n- create-note: Shopping plan")
        #expect(try await runInLibraries("- append-to-note: trip\n  input: x\n- get-details: name").textValue == "Trip.md")
        #expect(try await runInLibraries("- append-to-note: list\n  input: x\n- get-details: name").textValue == "Shopping list.md")
        await #expect(throws: RuntimeError.self) { try await runInLibraries("- append-to-note: shopping\n  input: x") }
        do {
            _ = try await runInLibraries("- append-to-note: shopping\n  input: x")
        } catch let error as RuntimeError {
            #expect(error.message.contains("2 notes match 'shopping': 'Shopping list', 'Shopping plan'"))
        }
        do {
            _ = try await runInLibraries("- append-to-note: holiday\n  input: x")
        } catch let error as RuntimeError {
            #expect(error.message.contains("no note is titled 'holiday'"))
        }
    }

    @Test("find photos by deferred width, sorted and limited; a photo converts to its image file")
    func findPhotos() async throws {
        try addPhoto("wide.png", width: 8, height: 2)
        try addPhoto("tall.jpg", width: 2, height: 9)
        try addPhoto("square.png", width: 5, height: 5)
        let wide = try await runInLibraries(
            """
            - find: photos
              where: { width: { at-least: 5 } }
              sort: { by: height, order: descending }
            - for-each:
              do:
                - text: "${item.name} ${item.width}x${item.height} ${item.format}"
            """)
        #expect(wide.asList.map(\.textValue) == ["square.png 5x5 png", "wide.png 8x2 png"])
        let rotated = try await runInLibraries(
            """
            - find: photo
              where: { format: jpeg, dateAdded: { is-today: true } }
            - rotate-image: 90
            - get-item: first
            - get-details: width
            """)
        #expect(rotated == 9)
        #expect(ImageDimensions.read(FileReference(path: photos.appendingPathComponent("tall.jpg").path))?.width == 9)
    }

    @Test("search finds notes by title and body, kept in step as notes change")
    func searchNotes() async throws {
        _ = try await runInLibraries(
            """
            - create-note: Lake trip
              body: pack boots and a tent
            - create-note: Groceries
              body: milk, eggs, lake trout
            """)
        #expect(try await runInLibraries("- search: lake").asList.map(\.textValue) == ["Lake trip", "Groceries"])
        #expect(try await runInLibraries("- search: tent\n  type: note").asList.map(\.textValue) == ["Lake trip"])
        _ = try await runInLibraries("- append-to-note: Groceries\n  input: camping stove")
        #expect(try await runInLibraries("- search: stove").asList.map(\.textValue) == ["Groceries"])
        // Relay's own changes are seen at once.
        _ = try await runInLibraries("- find: notes\n  where: {title: {is: Groceries}}\n- delete-file")
        #expect(try await runInLibraries("- search: lake").asList.map(\.textValue) == ["Lake trip"])
        // Changes made outside Relay are seen once the last look is no longer fresh.
        try FileManager.default.removeItem(at: notes.appendingPathComponent("Lake trip.md"))
        let later = try await SearchIndex.$freshness.withValue(.everySearchLooks) { try await runInLibraries("- search: lake") }
        #expect(later.asList.isEmpty)
    }

    @Test("a look at a library stays fresh 2 s, or four times as long as it took")
    func lookFreshness() {
        let freshness = SearchIndex.Freshness()
        let now = ContinuousClock.now
        #expect(freshness.holds(since: now - .milliseconds(1500), took: .milliseconds(10)))
        #expect(!freshness.holds(since: now - .milliseconds(2500), took: .milliseconds(10)))
        // A look of a second (a large library) is trusted for four.
        #expect(freshness.holds(since: now - .seconds(3), took: .seconds(1)))
        #expect(!freshness.holds(since: now - .seconds(5), took: .seconds(1)))
        #expect(!SearchIndex.Freshness.everySearchLooks.holds(since: now, took: .seconds(1)))
    }

    @Test("a photo is not indexed; an unknown type is an error with a suggestion")
    func searchErrors() async throws {
        await #expect(throws: RuntimeError.self) { try await runInLibraries("- search: x\n  type: photos") }
        do {
            _ = try await runInLibraries("- search: x\n  type: nots")
        } catch let error as RuntimeError {
            #expect(error.message.contains("unknown entity type 'nots'; did you mean 'note'?"))
        }
    }
}
