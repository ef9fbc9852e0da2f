import Foundation
import RelayLanguage
import Testing

@testable import RelayKit
@testable import RelayEngine
@testable import RelayActions
@testable import RelayRuntime

// MARK: - A hike: transferable the way TrailKit's trail is, in process

/// Its own codable form, a PDF sheet, RTF, a PNG card, its name: highest fidelity first.
struct Hike: Entity {
    static let typeName = EntityTypeName("hike")
    static let properties: [EntityProperty<Hike>] = [.stored("name", \.name), .stored("distance", \.distance)]
    static var defaultQuery: any EntityQuery<Hike> { SampleQuery(items: samples) }
    static let urlTemplate: URLTemplate? = try? URLTemplate("https://hikes.example/{id}")
    static let codableType = ContentType("com.example.hikes.hike")
    static let samples = [Hike(id: "h1", name: "Ridge Loop", distance: 4.2), Hike(id: "h2", name: "Lakeshore", distance: 2.5)]

    let id: String
    let name: String
    let distance: Double
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: name) }

    /// Its own codable form, as a file, is that hike again.
    static var valueQueries: [EntityValueQuery<Hike>] {
        [
            .file(codableType) { file in
                let id = String(decoding: try file.contents(), as: UTF8.self).split(separator: "\"").dropLast().last.map(String.init)
                return samples.first { $0.id == id }
            }
        ]
    }

    var sheet: RichText {
        RichText(blocks: [.heading(level: 1, [.text(name)]), .paragraph([.text("Distance: \(distance) km")])])
    }

    var transferRepresentations: [TransferRepresentation] {
        [
            .data(Self.codableType) { Data(#"{"id":"\#(id)"}"#.utf8) },
            .data(.pdf) { [sheet] in
                let writer = try PDFWriter(title: "sheet")
                writer.add(sheet)
                return try writer.finish()
            },
            .data(.rtf) { [sheet] in Data(RTFWriter.rtf(for: sheet).utf8) },
            .data(.png) { try RasterImage.blank(width: 6, height: 4).encoded(as: .png) },
            .proxy(.plainText) { [name] in .text(name) },
        ]
    }
}

/// A summary with no file forms at all: only its default plain-text stand-in.
struct Tally: Entity {
    static let typeName = EntityTypeName("tally")
    static let properties: [EntityProperty<Tally>] = [.stored("count", \.count)]
    static var defaultQuery: any EntityQuery<Tally> { SampleQuery(items: [Tally(id: "t", count: 3)]) }
    let id: String
    let count: Double
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(Int(count)) hikes") }
}

enum HikeKit: IntentPackage {
    static let name = "hikes"
    static let intents: [any Intent.Type] = []
    static let entities: [any Entity.Type] = [Hike.self, Tally.self]
    static let contentTypes = [ContentTypeDeclaration(Hike.codableType.identifier, conformsTo: [.data], extensions: ["hike"])]
}

// MARK: - The matrix

/// Docs/Language.md, "Conversions between formats": for every entity type and every content type,
/// `convert`, a typed parameter and `get-text` choose what the rule says, the same way.
@Suite("The conversion matrix: every entity type × every content type, by one rule")
struct ConversionMatrixTests {
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("relay-matrix-\(UUID().uuidString)")
    private let registry = RelayRuntimeTests.registry(with: [HikeKit.self])

    /// Every content type Relay knows, and the hike's own.
    private static let contentTypes: [ContentType] =
        ContentTypeRegistry.entries.map(\.type).filter { $0 != .folder && $0 != .item } + [Hike.codableType]

    /// Runs `body` with a photo and a note in libraries of its own, and the registry's declarations.
    private func withLibraries<T>(_ body: () async throws -> T) async throws -> T {
        let photos = root.appendingPathComponent("Pictures"), notes = root.appendingPathComponent("Notes")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try RasterImage.blank(width: 8, height: 5).encoded(as: .png).write(to: photos.appendingPathComponent("beach.png"))
        try "# Trip\n\nGo *now*.\n".write(to: notes.appendingPathComponent("Trip.md"), atomically: true, encoding: .utf8)
        // The registry's content types are current for what the test itself looks at, as in a run.
        return try await LibraryFolder.$overrides.withValue(["RELAY_PHOTOS": photos.path, "RELAY_NOTES": notes.path]) {
            try await registry.declarations.using { try await body() }
        }
    }

    /// One entity of each type: the built-in photo and note, the hike and the tally.
    private func samples() async throws -> [EntityValue] {
        var found: [EntityValue] = []
        for type in ["photo", "note", "hike", "tally"] {
            let descriptor = try #require(registry.entityTypes.descriptor(named: type))
            found.append(try #require(try await EntityFinder.find(descriptor, FilterQuery(where: [:], matchAll: true, sort: nil, limit: 1)).first))
        }
        return found
    }

    /// What the rule says `entity` becomes where `type` is wanted: the first representation that
    /// conforms; else some chain's file of the type (nil: none); else an error.
    private enum Expected: Equatable { case representation(Int), chain, none }

    private func expected(_ entity: EntityValue, _ type: ContentType) -> Expected {
        let representations = entity.descriptor.transferRepresentations(of: entity)
        if let index = representations.firstIndex(where: { $0.contentType.conforms(to: type) }) { return .representation(index) }
        return registry.converters.cheapest(from: representations.flatMap(\.offers), to: [.file(type)]) == nil ? .none : .chain
    }

    private func run(_ steps: String, _ entity: EntityValue) async throws -> Value {
        try await RelayRuntimeTests.run(
            steps: steps, registry: registry, input: .entity(entity), granted: [.read: .only([root.path])])
    }

    @Test("convert: TYPE and a parameter accepting TYPE hand over the same form, the one the rule picks")
    func everyContentType() async throws {
        try await withLibraries {
            for entity in try await samples() {
                let representations = entity.descriptor.transferRepresentations(of: entity)
                for type in Self.contentTypes {
                    let name = type.preferredExtension ?? type.identifier
                    let label = "\(entity.typeName) → \(type.identifier)"
                    let rule = expected(entity, type)
                    let converted: Value?
                    do {
                        converted = try await run("- convert: \"\(type.identifier)\"", entity)
                    } catch {
                        converted = nil
                        #expect(rule == .none, "\(label): \(error)")
                    }
                    let parameter: Value?
                    do {
                        parameter = try await registry.conversions.convert(
                            .entity(entity), to: ConversionTarget(.file, accepting: [type]), in: UndoContext(conversions: registry.conversions))
                    } catch {
                        parameter = nil
                        #expect(rule == .none, "\(label) as a parameter: \(error)")
                    }
                    guard rule != .none else {
                        #expect(converted == nil && parameter == nil, "\(label) should fail, as \(name)")
                        continue
                    }
                    guard case .file(let viaConvert)? = converted, case .file(let viaParameter)? = parameter else {
                        Issue.record("\(label): not files: \(String(describing: converted)), \(String(describing: parameter))")
                        continue
                    }
                    #expect(viaConvert.contentType.conforms(to: type), "\(label): \(viaConvert.contentType.identifier)")
                    #expect(viaParameter.contentType == viaConvert.contentType, "\(label)")
                    if case .representation(let index) = rule {
                        #expect(viaConvert.contentType.conforms(to: representations[index].contentType), "\(label): \(viaConvert.contentType.identifier)")
                        if case .data(let export) = representations[index].export, representations[index].contentType != .pdf {
                            #expect(try viaConvert.contents() == (try await export()), "\(label): not the representation's bytes")
                        }
                    }
                }
            }
        }
    }

    @Test("get-text and convert: text give the first text representation's text, or the title; a text parameter the title")
    func text() async throws {
        try await withLibraries {
            let expectations = [
                "photo": "beach.png", "note": "Trip\n\nGo now.", "hike": "Ridge Loop\n\nDistance: 4.2 km", "tally": "3 hikes",
            ]
            for entity in try await samples() {
                let wanted = try #require(expectations[entity.typeName])
                #expect(try await run("- get-text", entity).textValue == wanted, "\(entity.typeName)")
                #expect(try await run("- convert: text", entity).textValue == wanted, "\(entity.typeName)")
                #expect(try await run("- change-case: upper", entity).textValue == entity.title.uppercased(), "\(entity.typeName)")
            }
        }
    }

    @Test("values become entities through their type's value queries: a hike's own file, a photo's or note's file or path")
    func valuesBecomeEntities() async throws {
        try await withLibraries {
            let hike = try #require(try await samples().first { $0.typeName == "hike" })
            #expect(try await run("- convert: com.example.hikes.hike\n- convert: hike\n- get-details: name", hike) == "Ridge Loop")
            let photos = root.appendingPathComponent("Pictures").path
            let steps = "- text: \(photos)/beach.png\n- convert: photo\n- text: \"${previous.title} ${previous.width}\""
            #expect(try await RelayRuntimeTests.run(steps: steps, registry: registry, granted: [.read: .only([root.path])]) == "beach.png 8")
            let note = "- text: \(root.path)/Notes/Trip.md\n- convert: file\n- convert: note\n- get-details: title"
            #expect(try await RelayRuntimeTests.run(steps: note, registry: registry, granted: [.read: .only([root.path])]) == "Trip")
            // A file that is not in the library is no photo: the error says what was wanted and found.
            let outside = "- text: \(root.path)/elsewhere.png\n- convert: file\n- convert: photo"
            await #expect(throws: RuntimeError.self) {
                try await RelayRuntimeTests.run(steps: outside, registry: registry, granted: [.read: .only([root.path])])
            }
        }
    }

    @Test("save-file of an entity: the form its extension names, else its first data form")
    func saveEntity() async throws {
        try await withLibraries {
            let hike = try #require(try await samples().first { $0.typeName == "hike" })
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let saved = try await RelayRuntimeTests.run(
                steps: "- save-file: \(root.path)/ridge.rtf", registry: registry, input: .entity(hike), granted: [.write: .only([root.path])])
            #expect(try saved.fileValue().contentType == .rtf)
            #expect(try String(contentsOfFile: root.appendingPathComponent("ridge.rtf").path, encoding: .utf8).contains("Distance: 4.2 km"))
            let own = try await RelayRuntimeTests.run(
                steps: "- save-file: \(root.path)", registry: registry, input: .entity(hike), granted: [.write: .only([root.path])])
            #expect(try own.fileValue().name == "Ridge Loop.hike")
        }
    }

    @Test("rich text, a URL and a dictionary: the RTF sheet, the URL template, the properties")
    func values() async throws {
        try await withLibraries {
            let hike = try #require(try await samples().first { $0.typeName == "hike" })
            #expect(try await run("- markdown-from-rich-text", hike).textValue == "# Ridge Loop\n\nDistance: 4.2 km\n")
            #expect(try await run("- get-url", hike) == .url(URL(string: "https://hikes.example/h1")!))
            #expect(try await run("- get-value: distance", hike) == .number(4.2))
        }
    }
}
