// swift-tools-version: 6.0
import PackageDescription

// TrailKit: the reference package of Relay actions (Docs/Packages.md). The library depends on
// RelayKit alone; `relay-host` is the executable Relay builds and runs to load it with
// `--package` or `packages:`; `trail-relay` is relay with TrailKit linked in.
let package = Package(
    name: "TrailKit",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "TrailKit", targets: ["TrailKit"]),
        .executable(name: "relay-host", targets: ["relay-host"]),
        .executable(name: "trail-relay", targets: ["trail-relay"]),
    ],
    dependencies: [
        // RelayKit alone for the library and its host; all of Relay only for trail-relay.
        .package(path: "../../RelayKit"),
        .package(name: "Relay", path: "../.."),
    ],
    targets: [
        .target(name: "TrailKit", dependencies: [.product(name: "RelayKit", package: "RelayKit")]),
        .executableTarget(name: "relay-host", dependencies: ["TrailKit", .product(name: "RelayKit", package: "RelayKit")]),
        // `relay` with TrailKit linked in: its actions run in process (Docs/Packages.md).
        .executableTarget(name: "trail-relay", dependencies: ["TrailKit", .product(name: "RelayCLI", package: "Relay")]),
        .testTarget(name: "TrailKitTests", dependencies: ["TrailKit", .product(name: "RelayKit", package: "RelayKit")]),
    ]
)
