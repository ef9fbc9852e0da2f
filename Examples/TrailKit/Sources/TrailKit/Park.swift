import RelayKit

/// A park, where a day pass is bought.
public struct Park: Entity {
    public static let typeName = EntityTypeName("park")
    public static var defaultQuery: any EntityQuery<Park> { ParkQuery() }
    public static let urlTemplate: URLTemplate? = try? URLTemplate("https://trails.example.com/park/{id}")

    public let id: String
    /// Its properties in workflows, declared once.
    @Property public var name: String
    @Property public var region: String
    public var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: name, subtitle: region) }

    public static let all = [
        Park(id: "p1", name: "Cascade Park", region: "Cascades"),
        Park(id: "p2", name: "Rocky Park", region: "Rockies"),
    ]
}

struct ParkQuery: EntityQuery {
    func entities(for ids: [String]) async throws -> [Park] { Park.all.filter { ids.contains($0.id) } }
    func allEntities() async throws -> [Park] { Park.all }
}
