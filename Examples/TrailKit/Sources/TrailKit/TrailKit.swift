import RelayKit

/// The `trails` package: trails and parks to find, open, favourite and buy day passes for.
public enum TrailKit: IntentPackage {
    public static let name = "trails"
    public static let intents: [any Intent.Type] = [
        OpenTrail.self, BuyDayPass.self, SetFavorite.self, SuggestTrails.self, GetActivitySummary.self, ArchiveOrDelete.self, PlanHike.self,
        TotalDistance.self,
    ]
    public static let entities: [any Entity.Type] = [Trail.self, Park.self, ActivitySummary.self]
    public static let contentTypes: [ContentTypeDeclaration] = [
        ContentTypeDeclaration(Trail.codableType.identifier, conformsTo: [.data], extensions: ["trail"])
    ]

    /// A `.trail` file becomes its PDF trail sheet, wherever a PDF is wanted.
    public static var converters: [Converter] {
        [
            Converter(from: .file(Trail.codableType), to: .file(.pdf), lossy: true) { value, context in
                guard case .file(let file) = value else { throw IntentError("a trail file is needed, not \(value.briefDescription)") }
                let trail = try Trail.read(from: file)
                // Its sheet, rendered by Relay: the host asks for the PDF as a conversion.
                return try await context.convert(.richText(trail.sheet), to: .file(.pdf))
            }
        ]
    }

    /// A `.trail` file's `distance` (in kilometres) and `difficulty`, without opening it as a trail.
    public static var fileProperties: [FilePropertyReader] {
        [
            FilePropertyReader(contentType: Trail.codableType, name: "distance") { .number(try Trail.read(from: $0).distance) },
            FilePropertyReader(contentType: Trail.codableType, name: "difficulty") { .text(try Trail.read(from: $0).difficulty.rawValue) },
        ]
    }
}
