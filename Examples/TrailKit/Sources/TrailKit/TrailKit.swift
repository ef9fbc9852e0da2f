import RelayKit

/// The `trails` package: trails and parks to find, open, favourite and buy day passes for.
public enum TrailKit: IntentPackage {
    public static let name = "trails"
    public static let intents: [any Intent.Type] = [
        OpenTrail.self, BuyDayPass.self, SetFavorite.self, SuggestTrails.self, GetActivitySummary.self, ArchiveOrDelete.self,
    ]
    public static let entities: [any Entity.Type] = [Trail.self, Park.self, ActivitySummary.self]
    public static let contentTypes: [ContentTypeDeclaration] = [
        ContentTypeDeclaration(Trail.codableType.identifier, conformsTo: [.data], extensions: ["trail"])
    ]
}
