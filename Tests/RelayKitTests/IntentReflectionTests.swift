import Foundation
import Testing

@testable import RelayKit

private struct SuggestTrails: Intent {
    static let summary = "Suggests trails."
    static let output = OutputType.text

    @Parameter(input: true) var region: String
    @Parameter var featuredCollection: String
    @Parameter(primary: true, choices: ["easy", "hard"]) var difficulty: String = "easy"
    @Parameter(title: "Maximum", summary: "At most this many.") var limit: Int?
    @Parameter var caseSensitive: Bool = false

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.text("\(region)|\(featuredCollection)|\(difficulty)|\(limit.map(String.init) ?? "none")|\(caseSensitive)"))
    }
}

private struct TwoInputs: Intent {
    static let summary = ""
    static let output = OutputType.nothing
    @Parameter(input: true) var a: String
    @Parameter(input: true) var b: String
    func perform(_ context: any IntentContext) async throws -> IntentResult { .nothing }
}

private struct Backup: Intent {
    static let summary = "Copies a file and tells a server."
    static let output = OutputType.nothing
    static let capabilities: [Capability] = [.run]
    @Parameter(input: true, access: .read) var file: FileReference
    @Parameter(access: .write) var to: FileReference
    @Parameter(access: .net) var server: URL
    @Parameter var note: String = ""
    func perform(_ context: any IntentContext) async throws -> IntentResult { .nothing }
}

/// Says it gives a list of numbers; gives what its parameter says.
private struct Lying: Intent {
    static let summary = ""
    static let output = OutputType.list(of: .number)
    @Parameter(primary: true) var give: String
    func perform(_ context: any IntentContext) async throws -> IntentResult {
        switch give {
        case "text": .value("three")
        case "mixed": .value([1, 2, "three"])
        case "nothing": .nothing
        default: .value([1, 2, 3])
        }
    }
}

private struct Packaged: IntentPackage {
    static let name = "backup"
    static let intents: [any Intent.Type] = [Backup.self]
}

@Suite("Reflecting intents into action definitions")
struct IntentReflectionTests {
    @Test("names, titles, roles, defaults and requiredness come from the declaration")
    func reflection() throws {
        let action = try ActionDefinition(SuggestTrails.self, package: "trails", prefixed: true)
        #expect(action.name == "trails.suggest-trails")
        #expect(action.shortName == "suggest-trails")
        #expect(action.title == "Suggest Trails")
        #expect(action.parameters.map(\.name) == ["region", "featured-collection", "difficulty", "limit", "case-sensitive"])
        #expect(action.parameters[1].title == "Featured Collection")
        #expect(action.parameters[3].title == "Maximum")
        #expect(action.parameters.map(\.isRequired) == [false, true, false, false, false])
        #expect(action.parameters[2].defaultValue == "easy")
        #expect(action.parameters[2].choices == ["easy", "hard"])
        #expect(action.parameters[3].type == .number)
        #expect(action.inputIndex == 0)
        #expect(action.primaryIndex == 2)
        #expect(action.mapsOverListInput)
    }

    @Test("perform receives the arguments; unset ones read as their defaults")
    func perform() async throws {
        let action = try ActionDefinition(SuggestTrails.self, package: "trails")
        let result = try await action.perform(arguments: ["Rockies", "fall", nil, 3, nil], context: NullContext())
        #expect(result.value == "Rockies|fall|easy|3|false")
    }

    @Test("a debug build holds perform to its declared output, item by item; nothing is always allowed")
    func outputChecked() async throws {
        let action = try ActionDefinition(Lying.self, package: "trails")
        #expect(action.output == .list && action.outputItem == .number)
        #expect(action.outputDescription == "list of number")
        #expect(try await action.perform(arguments: ["numbers"], context: NullContext()).value == [1, 2, 3])
        #expect(try await action.perform(arguments: ["nothing"], context: NullContext()).value == .nothing)
        for (give, found) in [("text", "a text"), ("mixed", "a list whose item 3 is a text")] {
            let error = await #expect(throws: IntentError.self) {
                try await action.perform(arguments: [.text(give)], context: NullContext())
            }
            #expect(error?.message == "'lying' says it outputs a list of number but gave \(found)")
        }
        #expect(OutputType.list(of: Int.self) == .list(of: .number))
        #expect(OutputType.entity("trail").problem(with: .number(1)) == "a number")
    }

    @Test("an argument that does not fit the Swift type names the parameter")
    func badArgument() async throws {
        let action = try ActionDefinition(SuggestTrails.self, package: "trails")
        await #expect(throws: ArgumentError.self) {
            try await action.perform(arguments: ["a", "b", nil, 2.5, nil], context: NullContext())
        }
    }

    @Test("what an action may touch comes from its declaration: its parameters' access and its own capabilities, and crosses the package wire")
    func capabilities() async throws {
        let action = try ActionDefinition(Backup.self, package: "backup")
        #expect(action.capabilities == [.read, .write, .net, .run])
        #expect(action.parameters.map(\.access) == [.read, .write, .net, nil])
        #expect(try ActionDefinition(SuggestTrails.self, package: "trails").capabilities.isEmpty)

        let manifest = try PackageManifest(of: Packaged.self)
        let read = try await PackageManifest(json: manifest.json)
        #expect(read.actions.first?.capabilities == [.read, .write, .net, .run])
        #expect(read.actions.first?.parameters.map(\.access) == [.read, .write, .net, nil])

        // A misspelt capability is refused: a package may not declare less than it needs by a typo.
        guard case .dictionary(var root) = manifest.json, case .list(var actions)? = root["actions"],
            case .dictionary(var first)? = actions.first
        else {
            Issue.record("unexpected manifest shape")
            return
        }
        first["capabilities"] = .list(["reed"])
        actions[0] = .dictionary(first)
        root["actions"] = .list(actions)
        await #expect(throws: (any Error).self) { try await PackageManifest(json: .dictionary(root)) }
    }

    @Test("two input parameters is a declaration error")
    func twoInputs() {
        #expect(throws: IntentDeclarationError.self) { try ActionDefinition(TwoInputs.self, package: "p") }
    }

    @Test("kebab-case and titles from Swift names")
    func naming() {
        #expect(Naming.kebabCase("RotateImage") == "rotate-image")
        #expect(Naming.kebabCase("caseSensitive") == "case-sensitive")
        #expect(Naming.kebabCase("URLEncode") == "urlencode")
        #expect(Naming.title(fromName: "featured-collection") == "Featured Collection")
    }
}

/// A context for intents that need nothing from the run; it can note the progress reported.
struct NullContext: IntentContext {
    var progress: ProgressLog?
    var mode: RunMode { .background }
    var baseDirectory: URL { URL(fileURLWithPath: "/") }
    var fileChanges: any FileChanges { PlainFileChanges() }
    var scratchFolder: ScratchFolder { ScratchFolder() }
    var entityTypes: EntityCatalog { EntityCatalog() }
    func convert(_ value: Value, to representation: Representation) async throws -> Value { value }
    func open(_ url: URL) async throws {}
    func show(_ value: Value) async {}
    func ask(_ question: Question) async throws -> Value { .nothing }
    func choose(_ request: ChoiceRequest) async throws -> [Int] { [] }
    func requestConfirmation(_ prompt: String) async throws {}
    func runWorkflow(at path: String, input: Value) async throws -> Value { .nothing }
    func reportProgress(_ fraction: Double, _ label: String?) async { progress?.note(fraction, label) }
    func registerUndo(action: String, arguments: ValueDictionary) async throws {}
}

/// The progress an intent reported, in order.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(Double, String?)] = []
    func note(_ fraction: Double, _ label: String?) { lock.withLock { entries.append((fraction, label)) } }
    var reported: [(fraction: Double, label: String?)] { lock.withLock { entries } }
}

/// A package whose conversions must cross the package wire: a converter, file properties, a value
/// query and a deferred property fetched for many at once.
private struct Crate: Entity {
    static let typeName = EntityTypeName("crate")
    static let properties: [EntityProperty<Crate>] = [.deferred("weight", many: { crates in crates.map { _ in 1.0 } })]
    static var defaultQuery: any EntityQuery<Crate> { CrateQuery() }
    static var valueQueries: [EntityValueQuery<Crate>] {
        [.file(ContentType("com.example.crate")) { _ in Crate(id: "1") }, .value(.text) { _ in nil }]
    }
    let id: String
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "Crate \(id)") }
}

private struct CrateQuery: EntityQuery {
    func entities(for ids: [String]) async throws -> [Crate] { ids.map(Crate.init) }
    func allEntities() async throws -> [Crate] { [Crate(id: "1")] }
}

private enum Crates: IntentPackage {
    static let name = "crates"
    static let intents: [any Intent.Type] = []
    static let entities: [any Entity.Type] = [Crate.self]
    static var converters: [Converter] {
        [Converter(from: .file(ContentType("com.example.crate")), to: .value(.text), lossy: true) { value, _ in value }]
    }
    static var fileProperties: [FilePropertyReader] {
        [FilePropertyReader(contentType: ContentType("com.example.crate"), name: "slots") { _ in 4 }]
    }
}

@Suite("A package's conversions cross the package wire")
struct ManifestConversionTests {
    @Test("converters, file properties, value queries and properties fetched for many are in the manifest, and read back")
    func roundTrip() async throws {
        let read = try await PackageManifest(json: try PackageManifest(of: Crates.self).json)
        #expect(read.converters == [.init(from: .file(ContentType("com.example.crate")), to: .value(.text), isLossy: true)])
        #expect(read.fileProperties == [.init(contentType: ContentType("com.example.crate"), name: "slots")])
        #expect(read.entities.first?.valueQueries == [.file(ContentType("com.example.crate")), .value(.text)])
        #expect(read.entities.first?.properties.first?.fetchesMany == true)
    }

    @Test("a converter without a form it takes or makes is refused")
    func malformed() async throws {
        guard case .dictionary(var root) = try PackageManifest(of: Crates.self).json else {
            Issue.record("the manifest is not an object")
            return
        }
        root["converters"] = .list([["from": ["content-type": "com.example.crate"], "to": ["kind": "text"]]])
        await #expect(throws: WireError.self) { try await PackageManifest(json: .dictionary(root)) }
    }
}

/// Keeps the choice it was asked, and picks `pick`.
private final class ChoosingContext: IntentContext, @unchecked Sendable {
    var asked: ChoiceRequest?
    let pick: Int
    init(pick: Int) { self.pick = pick }
    var mode: RunMode { .background }
    var baseDirectory: URL { URL(fileURLWithPath: "/") }
    var scratchFolder: ScratchFolder { ScratchFolder() }
    var fileChanges: any FileChanges { PlainFileChanges() }
    var entityTypes: EntityCatalog { EntityCatalog() }
    func show(_ value: Value) async {}
    func ask(_ question: Question) async throws -> Value { .nothing }
    func choose(_ request: ChoiceRequest) async throws -> [Int] {
        asked = request
        return [pick]
    }
    func requestConfirmation(_ prompt: String) async throws {}
    func open(_ url: URL) async throws {}
    func convert(_ value: Value, to representation: Representation) async throws -> Value { value }
    func runWorkflow(at path: String, input: Value) async throws -> Value { .nothing }
    func registerUndo(action: String, arguments: ValueDictionary) async throws {}
    func reportProgress(_ fraction: Double, _ label: String?) async {}
}

@Suite("requestChoice's roles (App Intents' IntentChoiceOption)")
struct ChoiceRoleTests {
    @Test("cancel options come last, the default and destructive ones are marked, and the request crosses the wire whole")
    func roles() async throws {
        let context = ChoosingContext(pick: 1)
        let options = [ChoiceOption.cancel(), ChoiceOption("Archive", role: .default), ChoiceOption("Delete", role: .destructive)]
        let chosen = try await context.requestChoice("Tidy?", between: options)
        #expect(chosen.title == "Delete")
        let asked = try #require(context.asked)
        #expect(asked.options == ["Archive", "Delete", "Cancel"])
        #expect(asked.defaultIndex == 0)
        #expect(asked.destructive == [1])
        let crossed = try ValueCoding.decode(HostProtocol.Choose.self, from: try ValueCoding.encode(HostProtocol.Choose(asked)))
        #expect(crossed.request == asked)
        // The cancel option, last now, ends the run.
        await #expect(throws: RunCancelled.self) { try await ChoosingContext(pick: 2).requestChoice("Tidy?", between: options) }
        // Indices a host gets wrong are dropped, not trusted.
        let wrong = try ValueCoding.decode(
            HostProtocol.Choose.self, from: ["prompt": "P", "options": ["a"], "multiple": false, "default": 7, "destructive": [3, 0]])
        #expect(wrong.request.defaultIndex == nil)
        #expect(wrong.request.destructive == [0])
    }
}
