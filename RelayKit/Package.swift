// swift-tools-version: 6.0
import PackageDescription

/// An async function that is not `@concurrent` runs where its caller runs, with no hop between
/// executors at each call (Docs/Architecture.md, "Where async code runs").
let callerIsolation: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

// RelayKit: what a package of Relay actions imports (Docs/Packages.md) — its declarations and the
// wire to Relay. A package of its own, so that a package author's build resolves and compiles
// RelayKit alone: swift-collections and one small C target, nothing of Relay's command line, YAML
// or graphics. RelayEngine, beside it, is Relay's own side of the same types (the gate, the undo
// journal, documents, filtering, conversions): a package author's build never compiles it.
let package = Package(
    name: "RelayKit",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "RelayKit", targets: ["RelayKit"]),
        .library(name: "RelayEngine", targets: ["RelayEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0")
    ],
    targets: [
        // A file's status with its birth time (statx), and copies inside the kernel.
        .target(name: "CFileStatus"),
        .target(
            name: "RelayKit",
            dependencies: ["CFileStatus", .product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: callerIsolation
        ),
        .target(
            name: "RelayEngine",
            dependencies: ["RelayKit", "CFileStatus", .product(name: "OrderedCollections", package: "swift-collections")],
            swiftSettings: callerIsolation
        ),
    ],
    swiftLanguageModes: [.v6]
)
