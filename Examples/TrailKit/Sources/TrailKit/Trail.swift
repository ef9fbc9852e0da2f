import Foundation
import RelayKit

/// How hard a trail is: the raw value is what workflows hold and compare (`easy`), the display
/// name what people see (`Easy`); a workflow may write either.
public enum Difficulty: String, AppEnum, Codable {
    case easy, moderate, hard
    public static let caseDisplayRepresentations: [Difficulty: DisplayRepresentation] = [
        .easy: "Easy", .moderate: "Moderate", .hard: "Hard (scrambling)",
    ]
}

/// A hiking trail.
public struct Trail: Entity, Codable {
    public static let typeName = EntityTypeName("trail")
    public static let properties: [EntityProperty<Trail>] = [
        .stored("name", \.name),
        .stored("region", \.region),
        .stored("distance", \.distance),
        .stored("difficulty", \.difficulty),
        .computed("isFavorite") { Favorites.contains($0.id) },
        .deferred("conditions", many: { try await TrailConditions.current(on: $0) }),
    ]
    public static var defaultQuery: any EntityQuery<Trail> { TrailQuery() }
    public static let urlTemplate: URLTemplate? = try? URLTemplate("https://trails.example.com/trail/{id}")
    public static var indexing: EntityIndexing<Trail>? {
        EntityIndexing(priority: 0.7, keywords: { [$0.region, $0.difficulty.rawValue] }) { "\($0.name), a \($0.difficulty.rawValue) trail of \($0.distanceText) in the \($0.region)" }
    }

    /// The trail's own codable form: a private type that conforms to `public.data` only.
    public static let codableType = ContentType("com.example.trailkit.trail")

    public let id: String
    public let name: String
    public let region: String
    /// In kilometres.
    public let distance: Double
    public let difficulty: Difficulty

    public var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: name, subtitle: "\(region), \(distanceText), \(difficulty.rawValue)")
    }

    /// `4.2 km`.
    var distanceText: String { String(format: "%.1f km", distance) }

    /// Highest fidelity first: its codable form, its trail sheet (rich text, which Relay renders as
    /// a PDF, RTF or HTML, whichever is wanted), a PNG card, its name.
    public var transferRepresentations: [TransferRepresentation] {
        [
            .data(Self.codableType) { try JSONEncoder().encode(self) },
            .richText { sheet }.suggestedFileName("\(name) trail sheet"),
            .data(.png) { TrailCard.png(for: self) },
            .proxy(.plainText) { .text(name) },
        ]
    }

    /// A saved trail (its codable form, a `.trail` file) is that trail again: `convert: trail`, or a
    /// `trail` parameter given the file or its path.
    public static var valueQueries: [EntityValueQuery<Trail>] {
        [.file(codableType) { file in try Trail.read(from: file) }]
    }

    /// The trail in a `.trail` file.
    static func read(from file: FileReference) throws -> Trail {
        try JSONDecoder().decode(Trail.self, from: Data(contentsOf: URL(fileURLWithPath: file.path)))
    }

    /// The sheet's content: the name as a heading, then the distance, the region and the difficulty.
    var sheet: RichText {
        RichText(blocks: [
            .heading(level: 1, [.text(name)]),
            .paragraph([.text("Distance: \(distanceText)")]),
            .paragraph([.text("Region: \(region)")]),
            .paragraph([.text("Difficulty: \(difficulty.rawValue)")]),
        ])
    }

    /// The fixed sample trails.
    public static let all: [Trail] = [
        Trail(id: "1", name: "Ridge Loop", region: "Cascades", distance: 4.2, difficulty: .moderate),
        Trail(id: "2", name: "Lakeshore Path", region: "Cascades", distance: 2.5, difficulty: .easy),
        Trail(id: "3", name: "Summit Scramble", region: "Rockies", distance: 9.8, difficulty: .hard),
        Trail(id: "4", name: "Cedar Grove Walk", region: "Olympics", distance: 1.6, difficulty: .easy),
        Trail(id: "5", name: "Canyon Rim Trail", region: "Rockies", distance: 6.3, difficulty: .moderate),
    ]
}

/// Finds trails; filters on name, region, distance, difficulty and isFavorite, sorts and limits
/// itself (Relay hands those parts of a `find` to it).
struct TrailQuery: EntityQuery {
    func entities(for ids: [String]) async throws -> [Trail] { Trail.all.filter { ids.contains($0.id) } }
    func allEntities() async throws -> [Trail] { Trail.all }

    var capabilities: QueryCapabilities {
        QueryCapabilities(
            comparators: [
                "name": [.is, .contains, .beginsWith], "region": [.is, .isAnyOf], "distance": [.greaterThan, .atLeast, .lessThan, .atMost, .between],
                "difficulty": [.is, .isAnyOf], "isFavorite": [.is],
            ],
            sortable: ["name", "distance"], limits: true)
    }

    func entities(matching request: QueryRequest) async throws -> [Trail] {
        var found: [Trail] = []
        for trail in Trail.all {
            let results = try request.conditions.map { try $0.holds(for: trail.value(of: $0.property)) }
            let matches = request.matchAll ? !results.contains(false) : (results.isEmpty || results.contains(true))
            if matches { found.append(trail) }
        }
        for key in request.sort.reversed() {
            found.sort { lhs, rhs in
                let ascending = key.property == "distance" ? lhs.distance < rhs.distance : lhs.name < rhs.name
                let same = key.property == "distance" ? lhs.distance == rhs.distance : lhs.name == rhs.name
                return same ? false : ascending == key.ascending
            }
        }
        if let limit = request.limit { found = Array(found.prefix(limit)) }
        return found
    }
}

extension Trail {
    /// A property's value for the query's own filtering.
    func value(of property: String) -> Value {
        switch property {
        case "name": .text(name)
        case "region": .text(region)
        case "distance": .number(distance)
        case "difficulty": .text(difficulty.rawValue)
        case "isFavorite": .boolean(Favorites.contains(id))
        default: .nothing
        }
    }
}

/// Trail conditions, as a weather service would report them (made up from the trail, so that
/// they are the same on every run). One request asks for many trails; each request is counted in
/// `conditions-requests` in the package's data folder, as a service's bill would count it.
enum TrailConditions {
    static func current(on trails: [Trail]) async throws -> [String] {
        let counter = PackageDataFolder.current.appendingPathComponent("conditions-requests").path
        let count = (FileManager.default.contents(atPath: counter).flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0) + 1
        try? Data("\(count)".utf8).write(to: URL(fileURLWithPath: counter))
        return trails.map { trail in
            switch trail.region {
            case "Cascades": "Light rain, 9 °C; muddy in places"
            case "Rockies": "Clear, 4 °C; snow above 2,500 m"
            default: "Overcast, 12 °C; dry"
            }
        }
    }
}
