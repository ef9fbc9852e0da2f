import RelayKit

/// Actions that make and change text.
public enum TextActions: IntentPackage {
    public static let name = "text"
    public static let intents: [any Intent.Type] = [
        MakeText.self, ReplaceText.self, SplitText.self, CombineText.self, ChangeCase.self, MatchText.self,
        TrimText.self, Count.self,
    ]
}
