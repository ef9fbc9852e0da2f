import RelayKit

/// The files of a new package of actions (`relay package init`).
struct PackageTemplate {
    let name: String
    /// Where the RelayKit package is, relative to the new package's folder: no absolute path, so
    /// that the manifest means the same on any machine with the same layout, and builds offline.
    let relayKitPath: String

    /// `BirdKit` → `bird-kit`: the package's action prefix.
    static func kebab(_ name: String) -> String { Naming.kebabCase(name) }

    var files: [(String, String)] {
        let prefix = Self.kebab(name)
        return [
            ("Package.swift", manifest),
            ("Sources/\(name)/\(name).swift", library(prefix: prefix)),
            ("Sources/relay-host/main.swift", "import RelayKit\nimport \(name)\n\nawait PackageHost.serve(\(name).self)\n"),
            ("Tests/\(name)Tests/\(name)Tests.swift", tests(prefix: prefix)),
            ("README.md", readme(prefix: prefix)),
            (".gitignore", ".build/\nPackage.resolved\n"),
        ]
    }

    private var manifest: String {
        """
        // swift-tools-version: 6.0
        import PackageDescription

        let package = Package(
            name: "\(name)",
            platforms: [.macOS(.v14)],
            products: [
                .library(name: "\(name)", targets: ["\(name)"]),
                // What `relay run --package` builds and runs.
                .executable(name: "relay-host", targets: ["relay-host"]),
            ],
            // RelayKit alone: the build resolves and compiles nothing else of Relay.
            dependencies: [.package(path: "\(relayKitPath)")],
            targets: [
                .target(name: "\(name)", dependencies: [.product(name: "RelayKit", package: "RelayKit")]),
                .executableTarget(name: "relay-host", dependencies: ["\(name)", .product(name: "RelayKit", package: "RelayKit")]),
                .testTarget(name: "\(name)Tests", dependencies: ["\(name)", .product(name: "RelayKit", package: "RelayKit")]),
            ]
        )

        """
    }

    private func library(prefix: String) -> String {
        """
        import RelayKit

        /// The `\(prefix)` package: its actions are `\(prefix).greet` and `find: \(prefix)-items`.
        public enum \(name): IntentPackage {
            public static let name = "\(prefix)"
            public static let intents: [any Intent.Type] = [Greet.self]
            public static let entities: [any Entity.Type] = [Item.self]
        }

        /// An example action: replace it with your own.
        struct Greet: Intent {
            static let summary = "Greets someone by name."
            // Shown by `relay describe` and run by Relay's checks of examples: steps, and what they print.
            static let examples = [IntentExample("- \(prefix).greet: Ada", output: "Hello, Ada!")]
            static let output = OutputType.text
            @Parameter(primary: true, input: true, summary: "Who to greet.") var name: String = "world"

            func perform(_ context: any IntentContext) async throws -> IntentResult {
                .value(.text("Hello, \\(name)!"))
            }
        }

        /// An example entity: replace it with your own.
        public struct Item: Entity {
            public static let typeName = EntityTypeName("\(prefix)-item")
            public static var defaultQuery: any EntityQuery<Item> { ItemQuery() }

            public let id: String
            /// Its properties in workflows (`name`, `size`), declared once (App Intents' `@Property`).
            @Property public var name: String
            @Property public var size: Double
            public var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: name) }

            static let all = [Item(id: "1", name: "Small one", size: 1), Item(id: "2", name: "Big one", size: 10)]
        }

        /// Finds items; Relay filters, sorts and limits what it returns.
        struct ItemQuery: EntityQuery {
            func entities(for ids: [String]) async throws -> [Item] { Item.all.filter { ids.contains($0.id) } }
            func allEntities() async throws -> [Item] { Item.all }
        }

        """
    }

    private func tests(prefix: String) -> String {
        """
        import RelayKit
        import Testing

        @testable import \(name)

        @Test("the example query finds every item")
        func items() async throws {
            #expect(try await ItemQuery().allEntities().map(\\.name) == ["Small one", "Big one"])
        }

        """
    }

    private func readme(prefix: String) -> String {
        """
        # \(name)

        A package of Relay actions (`\(prefix).greet`, and `\(prefix)-item` entities).

        ```sh
        relay describe \(prefix).greet --package .
        echo 'steps: [{greet: Ada}]' > hello.yaml && relay run hello.yaml --package .
        swift test
        ```

        Relay builds the `relay-host` product the first time and whenever `Package.swift` or
        `Sources/` change. See Relay's Docs/Packages.md for intents, entities, queries and transfer
        representations.

        """
    }
}
