// swift-tools-version: 6.0
import PackageDescription

// LibraryKit: a package written as a Swift developer who knows App Intents would write one, used by
// the tests (Tests/RelayCLITests/LibraryKitTests.swift) to run workflows against it end to end.
let package = Package(
    name: "LibraryKit",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "relay-host", targets: ["relay-host"])],
    dependencies: [.package(path: "../../../RelayKit")],
    targets: [
        .target(name: "LibraryKit", dependencies: [.product(name: "RelayKit", package: "RelayKit")]),
        .executableTarget(name: "relay-host", dependencies: ["LibraryKit", .product(name: "RelayKit", package: "RelayKit")]),
    ]
)
