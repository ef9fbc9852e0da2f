import Foundation
import RelayKit
import Testing

/// Entity properties declared once, as fields (App Intents' `@Property`).
@Suite("@Property fields")
struct PropertyFieldTests {
    enum Shelf: String, AppEnum, Codable { case hall = "Hall", study = "Study" }

    struct Record: Entity, Codable, Equatable {
        static let typeName = EntityTypeName("record")
        static var defaultQuery: any EntityQuery<Record> { RecordQuery() }
        let id: String
        @Property var artist: String
        /// Not a property: no wrapper.
        let catalogueNumber: Int
        @Property var year: Int
        @Property var rating: Double
        @Property var isSigned: Bool
        @Property var shelf: Shelf
        @Property var note: String?
        var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: artist) }
    }

    struct RecordQuery: EntityQuery {
        func entities(for ids: [String]) async throws -> [Record] { [] }
        func allEntities() async throws -> [Record] { [] }
    }

    /// A computed property added to the fields.
    struct Tape: Entity {
        static let typeName = EntityTypeName("tape")
        static var properties: [EntityProperty<Tape>] { propertyFields + [.computed("minutes") { $0.seconds / 60 }] }
        static var defaultQuery: any EntityQuery<Tape> { TapeQuery() }
        let id: String
        @Property var label: String
        let seconds: Int
        var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: label) }
    }

    struct TapeQuery: EntityQuery {
        func entities(for ids: [String]) async throws -> [Tape] { [] }
        func allEntities() async throws -> [Tape] { [] }
    }

    /// A computed property listed with a field's name.
    struct Twice: Entity {
        static let typeName = EntityTypeName("twice")
        static var properties: [EntityProperty<Twice>] { propertyFields + [.computed("label") { $0.label.uppercased() }] }
        static var defaultQuery: any EntityQuery<Twice> { TwiceQuery() }
        let id: String
        @Property var label: String
        var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: label) }
    }

    struct TwiceQuery: EntityQuery {
        func entities(for ids: [String]) async throws -> [Twice] { [] }
        func allEntities() async throws -> [Twice] { [] }
    }

    @Test("a computed property listed with a field's name is a declaration error naming it; one of its own name is taken")
    func declaredTwice() throws {
        var catalog = EntityCatalog()
        #expect(throws: IntentDeclarationError.self) { try catalog.add(EntityDescriptor.of(Twice.self)) }
        do {
            try catalog.add(EntityDescriptor.of(Twice.self))
        } catch {
            #expect(error.description == "entity type 'twice': property 'label' is declared twice", "\(error)")
        }
        try catalog.add(EntityDescriptor.of(Tape.self))
        #expect(catalog.descriptor(named: "tape")?.properties.map(\.name) == ["label", "minutes"])
    }

    private let record = Record(
        id: "r1", artist: "Nina Simone", catalogueNumber: 7, year: 1965, rating: 4.5, isSigned: true, shelf: .study, note: nil)

    private func entity(_ entity: some Entity) throws -> EntityValue {
        guard case .entity(let value) = entity.parameterValue else { throw WireError("not an entity") }
        return value
    }

    @Test("each field is a property, named and typed as declared, in order; other fields are not")
    func declared() throws {
        let descriptor = EntityDescriptor.of(Record.self)
        #expect(descriptor.properties.map(\.name) == ["artist", "year", "rating", "isSigned", "shelf", "note"])
        #expect(descriptor.properties.map(\.type) == [.text, .number, .number, .boolean, .text, .text])
        #expect(descriptor.property(named: "shelf")?.cases == ["Hall", "Study"])
    }

    @Test("a field's value is read from the entity, of every type")
    func values() throws {
        let value = try entity(record)
        #expect(try value.propertyNow("artist") == .text("Nina Simone"))
        #expect(try value.propertyNow("year") == .number(1965))
        #expect(try value.propertyNow("rating") == .number(4.5))
        #expect(try value.propertyNow("isSigned") == .boolean(true))
        #expect(try value.propertyNow("shelf") == .text("Study"))
        #expect(try value.propertyNow("note") == .nothing)
        let other = try entity(
            Record(id: "r2", artist: "Fela Kuti", catalogueNumber: 1, year: 1973, rating: 5, isSigned: false, shelf: .hall, note: "mint"))
        #expect(try other.propertyNow("artist") == .text("Fela Kuti"))
        #expect(try other.propertyNow("note") == .text("mint"))
    }

    @Test("fields and computed properties together; the Codable form is the plain one")
    func mixed() throws {
        let descriptor = EntityDescriptor.of(Tape.self)
        #expect(descriptor.properties.map(\.name) == ["label", "minutes"])
        let tape = try entity(Tape(id: "t", label: "Mix", seconds: 1800))
        #expect(try tape.propertyNow("minutes") == .number(30))
        #expect(try tape.propertyNow("label") == .text("Mix"))
        let json = try JSONEncoder().encode(record)
        #expect(String(decoding: json, as: UTF8.self).contains("\"artist\":\"Nina Simone\""))
        #expect(try JSONDecoder().decode(Record.self, from: json) == record)
    }
}
