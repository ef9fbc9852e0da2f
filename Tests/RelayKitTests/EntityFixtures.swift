import Foundation
import RelayKit
import RelayEngine
import Synchronization

/// Counts the calls of a deferred getter, across tasks.
final class CallCounter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
    func reset() { count.withLock { $0 = 0 } }
}

/// A task: an entity with a stored text, number, date and boolean, a computed property and a
/// deferred one whose getter counts its calls.
struct Chore: Entity {
    static let typeName = EntityTypeName("chore")
    static let detailFetches = CallCounter()
    static let properties: [EntityProperty<Chore>] = [
        .stored("name", \.name),
        .stored("minutes", \.minutes),
        .stored("due", \.due),
        .stored("done", \.done),
        .computed("hours") { $0.minutes / 60 },
        .deferred("detail") { chore in
            detailFetches.increment()
            return "detail of \(chore.name)"
        },
    ]
    static var defaultQuery: any EntityQuery<Chore> { ChoreQuery(chores: Chore.samples) }
    static let urlTemplate: URLTemplate? = try? URLTemplate("https://chores.example/{id}/{detail}")

    let id: String
    let name: String
    let minutes: Double
    let due: Date
    let done: Bool

    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: name) }

    static let samples: [Chore] = {
        let today = Calendar.current.startOfDay(for: Date()).addingTimeInterval(12 * 3600)
        func day(_ offset: Int) -> Date { today.addingTimeInterval(Double(offset) * 86_400) }
        return [
            Chore(id: "1", name: "Water plants", minutes: 10, due: day(0), done: false),
            Chore(id: "2", name: "Wash the car", minutes: 45, due: day(-3), done: true),
            Chore(id: "3", name: "file taxes", minutes: 180, due: day(20), done: false),
            Chore(id: "4", name: "Walk the dog", minutes: 30, due: day(1), done: true),
            Chore(id: "5", name: "Paint fence", minutes: 240, due: day(-40), done: false),
        ]
    }()
}

/// An in-memory query with the capabilities it is given, recording each request it receives.
struct ChoreQuery: EntityQuery {
    let chores: [Chore]
    var capabilities = QueryCapabilities()
    let requests = RequestLog()

    func entities(for ids: [String]) async throws -> [Chore] { chores.filter { ids.contains($0.id) } }
    func allEntities() async throws -> [Chore] { chores }

    func entities(matching request: QueryRequest) async throws -> [Chore] {
        requests.append(request)
        var found: [Value] = []
        let filter = FilterQuery(conditions: request.conditions, matchAll: request.matchAll, sort: request.sort, limit: request.limit)
        found = try await filter.apply(to: chores.map { $0.parameterValue })
        return found.compactMap { try? Chore(parameterValue: $0) }
    }
}

/// The requests a query received.
final class RequestLog: Sendable {
    private let requests = Mutex<[QueryRequest]>([])
    func append(_ request: QueryRequest) { requests.withLock { $0.append(request) } }
    var all: [QueryRequest] { requests.withLock { $0 } }
}
