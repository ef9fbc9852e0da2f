import Foundation
import RelayKit
import Synchronization
import Testing

@testable import RelayActions

/// An indexed entity whose store the tests change.
struct Memo: Entity {
    static let typeName = EntityTypeName("memo")
    static let store = Mutex<[Memo]>([])
    static let properties: [EntityProperty<Memo>] = [.stored("text", \.text)]
    static var defaultQuery: any EntityQuery<Memo> { MemoQuery() }
    static var indexing: EntityIndexing<Memo>? {
        EntityIndexing(priority: 0.5, keywords: { $0.tags }, modified: { $0.modified }, content: { $0.text })
    }

    let id: String
    let title: String
    let text: String
    let tags: [String]
    let modified: Date

    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: title) }
}

struct MemoQuery: EntityQuery {
    func entities(for ids: [String]) async throws -> [Memo] { Memo.store.withLock { $0 }.filter { ids.contains($0.id) } }
    func allEntities() async throws -> [Memo] { Memo.store.withLock { $0 } }
}

@Suite("The full-text index: add, change, delete, rank", .serialized)
struct SearchIndexTests {
    private let path = FileManager.default.temporaryDirectory.appendingPathComponent("relay-index-\(UUID().uuidString)/index.sqlite").path

    private func ids(_ index: SearchIndex, _ text: String) async throws -> [String] {
        let memos = EntityDescriptor.of(Memo.self)
        try await index.synchronize(memos)
        return try await index.search(text, types: [memos], limit: 10).map(\.id)
    }

    @Test("the index is its owner's alone: it holds the text of what it indexed")
    func ownersAlone() async throws {
        Memo.store.withLock { $0 = [Memo(id: "a", title: "Note", text: "the word zanzibarquux", tags: [], modified: Date(timeIntervalSince1970: 5))] }
        let folder = (path as NSString).deletingLastPathComponent
        // A folder made before as others may read it is made the owner's too.
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let index = try SearchIndex(path: path)
        #expect(try await ids(index, "zanzibarquux") == ["a"])
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) {
            #expect(try FileManager.default.attributesOfItem(atPath: folder + "/" + file)[.posixPermissions] as? Int == 0o600, "\(file)")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int == 0o700)
    }

    @Test("entities are added, re-indexed when changed and removed when gone")
    func keptInStep() async throws {
        let start = Date(timeIntervalSince1970: 1_000_000)
        Memo.store.withLock {
            $0 = [
                Memo(id: "a", title: "Groceries", text: "milk, bread and lake trout", tags: [], modified: start),
                Memo(id: "b", title: "Lake trip", text: "pack boots", tags: ["travel"], modified: start),
            ]
        }
        let index = try SearchIndex(path: path)
        #expect(try await ids(index, "lake") == ["b", "a"])
        #expect(try await ids(index, "trav") == ["b"])
        #expect(try await ids(index, "milk bread") == ["a"])
        #expect(try await ids(index, "milk boots") == [])

        // A change with a new modification date is indexed again; one with the same date is not.
        Memo.store.withLock {
            $0[0] = Memo(id: "a", title: "Groceries", text: "eggs", tags: [], modified: start.addingTimeInterval(60))
            $0[1] = Memo(id: "b", title: "Lake trip", text: "pack a tent", tags: ["travel"], modified: start)
        }
        #expect(try await ids(index, "eggs") == ["a"])
        #expect(try await ids(index, "milk") == [])
        #expect(try await ids(index, "tent") == [])
        #expect(try await ids(index, "boots") == ["b"])

        // Gone from the store, gone from the index; the index persists across openings.
        _ = Memo.store.withLock { $0.removeFirst() }
        let reopened = try SearchIndex(path: path)
        #expect(try await ids(reopened, "eggs") == [])
        #expect(try await ids(reopened, "lake") == ["b"])
    }

    @Test("a title match ranks above a keyword match, which ranks above a content match")
    func ranking() async throws {
        let date = Date(timeIntervalSince1970: 2_000_000)
        Memo.store.withLock {
            $0 = [
                Memo(id: "content", title: "Notes", text: "the harbour at dawn", tags: [], modified: date),
                Memo(id: "keyword", title: "Photos", text: "nothing here", tags: ["harbour"], modified: date),
                Memo(id: "title", title: "Harbour walk", text: "a long walk", tags: [], modified: date),
            ]
        }
        let index = try SearchIndex(path: path)
        #expect(try await ids(index, "harbour") == ["title", "keyword", "content"])
        #expect(try await ids(index, "HARB") == ["title", "keyword", "content"])
        #expect(try await ids(index, "\"; DROP TABLE entries; --") == [])
    }
}
