import Foundation
import RelayKit

/// A summary of the favourite trails: how many, how far in all. Handed over as rich text (which
/// Relay renders as RTF, PDF or HTML), then a PNG, then plain text.
public struct ActivitySummary: Entity {
    public static let typeName = EntityTypeName("activity-summary", plural: "activity-summaries")
    public static let properties: [EntityProperty<ActivitySummary>] = [
        .stored("trails", \.trailCount), .stored("distance", \.totalDistance),
    ]
    public static var defaultQuery: any EntityQuery<ActivitySummary> { SummaryQuery() }

    public let id: String
    let trailNames: [String]
    public let totalDistance: Double
    public var trailCount: Int { trailNames.count }

    public var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(trailCount) favourite trails, \(String(format: "%.1f", totalDistance)) km")
    }

    var richText: RichText {
        RichText(blocks: [
            .heading(level: 1, [.text("Activity summary")]),
            .paragraph([.text("\(trailCount) favourite trails, \(String(format: "%.1f km", totalDistance)) in all.")]),
            .list(ordered: false, start: 1, items: trailNames.map { RichText.ListItem(blocks: [.paragraph([.text($0)])]) }),
        ])
    }

    public var transferRepresentations: [TransferRepresentation] {
        [
            .richText { richText },
            .data(.png) { TrailCard.png(title: "ACTIVITY", lines: ["\(trailCount) TRAILS", String(format: "%.1f KM", totalDistance)], shade: 0) },
            .proxy(.plainText) { .text(displayRepresentation.title) },
        ]
    }

    /// The summary of the favourites now.
    static func current() -> ActivitySummary {
        let favorites = Trail.all.filter { Favorites.contains($0.id) }
        return ActivitySummary(id: "favorites", trailNames: favorites.map(\.name), totalDistance: favorites.reduce(0) { $0 + $1.distance })
    }
}

struct SummaryQuery: EntityQuery {
    func entities(for ids: [String]) async throws -> [ActivitySummary] { ids.contains("favorites") ? [.current()] : [] }
    func allEntities() async throws -> [ActivitySummary] { [.current()] }
}
