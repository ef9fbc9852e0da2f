import Foundation
import RelayKit

/// Opens a trail's page: URL-representable, so it needs no perform of its own.
struct OpenTrail: URLRepresentableIntent {
    static let summary = "Opens the trail's page on trails.example.com."
    @Parameter(primary: true, input: true, summary: "The trail to open.") var target: Trail
}

/// A park or a trail (a trail's pass is for the park of its region).
enum Pass: UnionValue {
    case park(Park)
    case trail(Trail)
    static let members: [UnionMember<Pass>] = [.member(Park.self, Pass.park), .member(Trail.self, Pass.trail)]

    var entity: any Entity {
        switch self {
        case .park(let park): park
        case .trail(let trail): trail
        }
    }
}

/// Buys a day pass for a park, or for the park of a trail, after asking.
struct BuyDayPass: Intent {
    static let summary = "Buys a day pass for a park (or the park of a trail), after confirmation; outputs what was bought."
    static let output = OutputType.text
    @Parameter(primary: true, input: true, summary: "A park, or a trail in one.") var pass: Pass

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let park: Park
        var via = ""
        switch pass {
        case .park(let chosen): park = chosen
        case .trail(let trail):
            guard let found = Park.all.first(where: { $0.region == trail.region }) else {
                throw IntentError("no park sells passes for the \(trail.region), where \(trail.name) is")
            }
            park = found
            via = " (for \(trail.name))"
        }
        try await context.requestConfirmation("Buy a day pass for \(park.name) for $5?")
        return .value(.text("Day pass for \(park.name)\(via), valid today"))
    }
}

/// Marks a trail as a favourite, or not; `relay undo` puts it back as it was.
struct SetFavorite: Intent {
    static let summary = "Marks the trail as a favourite (or, with favorite: false, not); outputs the trail. Undoable."
    static let output = OutputType.entity(Trail.self)
    @Parameter(primary: true, input: true, summary: "The trail.") var trail: Trail
    @Parameter(summary: "Whether it is a favourite.") var favorite: Bool = true

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let was = Favorites.contains(trail.id)
        try await Favorites.set(trail.id, favorite: favorite, changes: context.fileChanges)
        if was != favorite {
            try await context.registerUndo(action: "set-favorite", arguments: ["trail": trail.parameterValue, "favorite": .boolean(was)])
        }
        return .value(trail.parameterValue)
    }
}

/// A featured collection of trails.
struct SuggestTrails: Intent {
    static let summary = "Suggests trails from a featured collection: easy ones, long ones, or the favourites."
    static let output = OutputType.list(of: Trail.self)
    @Parameter(primary: true, choices: ["easy", "long", "favorites"]) var featuredCollection: String = "easy"

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let trails: [Trail] =
            switch featuredCollection {
            case "long": Trail.all.filter { $0.distance >= 6 }.sorted { $0.distance > $1.distance }
            case "favorites": Trail.all.filter { Favorites.contains($0.id) }
            default: Trail.all.filter { $0.difficulty == .easy }
            }
        return .value(.list(trails.map(\.parameterValue)))
    }
}

/// The activity summary of the favourite trails.
struct GetActivitySummary: Intent {
    static let summary = "Outputs a summary of the favourite trails: how many and how far (as RTF, a PNG or text)."
    static let output = OutputType.entity(ActivitySummary.self)

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(ActivitySummary.current().parameterValue)
    }
}

/// Asks whether to archive or delete a trail's notes.
struct ArchiveOrDelete: Intent {
    static let summary = "Asks whether to archive or delete the trail's log; Cancel ends the run."
    static let output = OutputType.text
    @Parameter(primary: true, input: true, summary: "The trail.") var trail: Trail

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let choice = try await context.requestChoice(
            "Archive or delete the log of \(trail.name)?",
            between: [ChoiceOption("Archive", role: .default), ChoiceOption("Delete", role: .destructive), .cancel()])
        return .value(.text(choice.title == "Archive" ? "Archived the log of \(trail.name)" : "Deleted the log of \(trail.name)"))
    }
}

/// Plans a hike in a park: which of the trails in its region is asked, unless one alone fits.
struct PlanHike: Intent {
    static let summary = "Plans a hike in a park: asks which of the region's trails (up to the hardest difficulty given); outputs the trail."
    static let output = OutputType.entity(Trail.self)
    static let examples = [IntentExample("- plan-hike: Cascade Park\n  hardest: Easy\n- text: ${previous.name}", output: "Lakeshore Path")]
    @Parameter(primary: true, input: true, summary: "The park.") var park: Park
    @Parameter(summary: "The hardest difficulty to offer.") var hardest: Difficulty = .hard

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let order = Difficulty.allCases
        let fitting = Trail.all.filter { $0.region == park.region && order.firstIndex(of: $0.difficulty) ?? 0 <= order.firstIndex(of: hardest) ?? 0 }
        // Answered on a terminal, or by `--answer trail=NAME` without one.
        let trail = try await context.requestDisambiguation(among: fitting, dialog: "Which trail in \(park.name)?", key: "trail")
        return .value(trail.parameterValue)
    }
}

/// The distance of several trails together.
struct TotalDistance: Intent {
    static let summary = "Adds up the distances of trails (trails, or their names), in kilometres to a tenth."
    static let output = OutputType.number
    static let examples = [IntentExample("- total-distance: [Ridge Loop, Lakeshore Path]", output: "6.7")]
    @Parameter(primary: true, input: true, summary: "The trails.") var trails: [Trail]

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.number((trails.reduce(0) { $0 + $1.distance } * 10).rounded() / 10))
    }
}
