import Foundation
import RelayActions
import RelayKit
import RelayLanguage
import RelayRuntime

// Times `find` over 1,000,000 in-memory entities, through the real loader and interpreter:
// two comparators, a sort and a limit, filtered in memory (the query does nothing natively) and
// pushed down to a query that does it all. Run with `Benchmarks/entities` (a release build).

/// A parcel: an in-memory entity with a text, a number and a date.
struct Parcel: Entity {
    static let typeName = EntityTypeName("parcel")
    static let properties: [EntityProperty<Parcel>] = [
        .stored("name", \.name), .stored("weight", \.weight), .stored("shipped", \.shipped),
    ]
    static var defaultQuery: any EntityQuery<Parcel> { ParcelQuery() }

    let id: String
    let name: String
    let weight: Double
    let shipped: Date
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: name) }

    /// One million parcels, made the same way every run.
    static let all: [Parcel] = {
        var generator = SplitMix(seed: 42)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        return (0..<1_000_000).map { index in
            Parcel(
                id: String(index), name: "parcel \(generator.next() % 100_000)", weight: Double(generator.next() % 10_000) / 100,
                shipped: start.addingTimeInterval(Double(generator.next() % 31_536_000)))
        }
    }()
}

/// Answers with every parcel; filtering, sorting and limiting are left to Relay.
struct ParcelQuery: EntityQuery {
    func entities(for ids: [String]) async throws -> [Parcel] { Parcel.all.filter { ids.contains($0.id) } }
    func allEntities() async throws -> [Parcel] { Parcel.all }
}

/// The same parcels under another name, with a query that filters, sorts and limits natively.
struct NativeParcel: Entity {
    static let typeName = EntityTypeName("native-parcel")
    static let properties: [EntityProperty<NativeParcel>] = [
        .stored("name", \.parcel.name), .stored("weight", \.parcel.weight), .stored("shipped", \.parcel.shipped),
    ]
    static var defaultQuery: any EntityQuery<NativeParcel> { NativeParcelQuery() }
    let parcel: Parcel
    var id: String { parcel.id }
    var displayRepresentation: DisplayRepresentation { parcel.displayRepresentation }
}

/// Does `weight greater-than`, `name contains`, sort by `shipped` and limit itself, with plain Swift.
struct NativeParcelQuery: EntityQuery {
    var capabilities: QueryCapabilities {
        QueryCapabilities(comparators: ["weight": [.greaterThan], "name": [.contains]], sortable: ["shipped"], limits: true)
    }
    func entities(for ids: [String]) async throws -> [NativeParcel] { [] }
    func allEntities() async throws -> [NativeParcel] { Parcel.all.map(NativeParcel.init) }

    func entities(matching request: QueryRequest) async throws -> [NativeParcel] {
        var minimumWeight = -Double.infinity
        var fragment = ""
        for condition in request.conditions {
            if condition.property == "weight", case .number(let weight) = condition.operand { minimumWeight = weight }
            if condition.property == "name", case .text(let text) = condition.operand { fragment = text.lowercased() }
        }
        let matching = Parcel.all.filter { $0.weight > minimumWeight && (fragment.isEmpty || $0.name.contains(fragment)) }
        let descending = request.sort.first?.ascending == false
        let sorted = matching.sorted { descending ? $0.shipped > $1.shipped : $0.shipped < $1.shipped }
        return sorted.prefix(request.limit ?? sorted.count).map(NativeParcel.init)
    }
}

enum Parcels: IntentPackage {
    static let name = "parcels"
    static let intents: [any Intent.Type] = []
    static let entities: [any Entity.Type] = [Parcel.self, NativeParcel.self]
}

/// A small, fast, seeded random number generator, so every run makes the same parcels.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

struct NoOne: Interaction {
    var mode: RunMode { .background }
    func ask(_ question: Question, keys: [String]) async throws -> Value { throw IntentError("no one to ask") }
    func choose(_ request: ChoiceRequest, keys: [String]) async throws -> [Int] { throw IntentError("no one to ask") }
    func confirm(_ prompt: String, keys: [String]) async throws -> Bool { false }
}

struct Silent: RunOutput {
    func show(_ value: Value) {}
    func trace(_ line: String) {}
}

func workflow(finding type: String) -> String {
    """
    steps:
      - find: \(type)
        where:
          weight: { greater-than: 50 }
          name: { contains: "7" }
        sort: { by: shipped, order: descending }
        limit: 20
      - count
    """
}

func measure(_ label: String, _ yaml: String, registry: ActionRegistry, runs: Int = 7) async throws {
    let loader = WorkflowLoader(registry: registry)
    let (loaded, diagnostics) = loader.load(SourceFile(path: "bench.yaml", text: yaml))
    guard let loaded else {
        print(diagnostics.map(\.message).joined(separator: "\n"))
        exit(1)
    }
    let environment = RunEnvironment(interaction: NoOne(), output: Silent(), loader: loader)
    var times: [Double] = []
    var found = try await Interpreter(workflow: loaded, environment: environment).run(input: .nothing)  // warm-up, not timed
    for _ in 0..<runs {
        let start = ContinuousClock.now
        found = try await Interpreter(workflow: loaded, environment: environment).run(input: .nothing)
        let elapsed = ContinuousClock.now - start
        times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    let mean = times.reduce(0, +) / Double(times.count)
    print(String(format: "%@: mean %.3f s, min %.3f s over %d runs after a warm-up (found %@)", label, mean, times.min() ?? 0, runs, found.textValue))
}

var registry = ActionRegistry()
try registry.register(BuiltinActions.self, prefixed: false)
try registry.register(Parcels.self, prefixed: false)
let made = ContinuousClock.now
_ = Parcel.all.count
print("made 1,000,000 parcels in \(ContinuousClock.now - made)")
try await measure("find, 2 comparators + sort + limit, in memory", workflow(finding: "parcels"), registry: registry)
try await measure("find, the same pushed down to the query", workflow(finding: "native-parcels"), registry: registry)
