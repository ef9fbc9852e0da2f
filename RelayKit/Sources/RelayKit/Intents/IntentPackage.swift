/// A set of intents published together, in the manner of App Intents' `AppIntentsPackage`.
public protocol IntentPackage: SendableMetatype {
    /// The package name; its actions are `NAME.action` when the package is not built in.
    static var name: String { get }
    /// The intents this package declares itself.
    static var intents: [any Intent.Type] { get }
    /// Packages whose intents this package publishes too.
    static var includedPackages: [any IntentPackage.Type] { get }
    /// Conversions this package offers to the converter graph.
    static var converters: [Converter] { get }
    /// Properties this package can read from files of some content types.
    static var fileProperties: [FilePropertyReader] { get }
    /// Content types this package defines (such as a private codable form).
    static var contentTypes: [ContentTypeDeclaration] { get }
    /// The entity types this package exposes; each with a query gets `find`.
    static var entities: [any Entity.Type] { get }
}

extension IntentPackage {
    public static var includedPackages: [any IntentPackage.Type] { [] }
    public static var converters: [Converter] { [] }
    public static var fileProperties: [FilePropertyReader] { [] }
    public static var contentTypes: [ContentTypeDeclaration] { [] }
    public static var entities: [any Entity.Type] { [] }

    /// The entity types of this package and every included package.
    public static func allEntities() -> [EntityDescriptor] {
        entities.map { EntityDescriptor.of($0) } + includedPackages.flatMap { $0.allEntities() }
    }

    /// The content types of this package and every included package.
    public static func allContentTypes() -> [ContentTypeDeclaration] {
        contentTypes + includedPackages.flatMap { $0.allContentTypes() }
    }

    /// The converters of this package and every included package.
    public static func allConverters() -> [Converter] {
        converters + includedPackages.flatMap { $0.allConverters() }
    }

    /// The file property readers of this package and every included package.
    public static func allFileProperties() -> [FilePropertyReader] {
        fileProperties + includedPackages.flatMap { $0.allFileProperties() }
    }

    /// This package's intents and those of every included package, each with the package that declares it.
    public static func allIntents() -> [(package: String, intent: any Intent.Type)] {
        intents.map { (name, $0) } + includedPackages.flatMap { $0.allIntents() }
    }
}
