/// Where an intent can run, in the manner of App Intents' `IntentModes`.
public struct IntentModes: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// With no person at hand (no terminal; `relay run` from a script or a scheduler).
    public static let background = IntentModes(rawValue: 1)
    /// With a person at a terminal to answer what the intent asks.
    public static let foreground = IntentModes(rawValue: 2)
    /// Either.
    public static let all: IntentModes = [.background, .foreground]
}
