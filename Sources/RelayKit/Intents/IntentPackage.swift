/// A set of intents published together, in the manner of App Intents' `AppIntentsPackage`.
public protocol IntentPackage: SendableMetatype {
    /// The package name; its actions are `NAME.action` when the package is not built in.
    static var name: String { get }
    /// The intents this package declares itself.
    static var intents: [any Intent.Type] { get }
    /// Packages whose intents this package publishes too.
    static var includedPackages: [any IntentPackage.Type] { get }
}

extension IntentPackage {
    public static var includedPackages: [any IntentPackage.Type] { [] }

    /// This package's intents and those of every included package, each with the package that declares it.
    public static func allIntents() -> [(package: String, intent: any Intent.Type)] {
        intents.map { (name, $0) } + includedPackages.flatMap { $0.allIntents() }
    }
}
