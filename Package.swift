// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Relay",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "relay", targets: ["relay"]),
        .library(name: "RelayKit", targets: ["RelayKit"]),
        .library(name: "RelayCLI", targets: ["RelayCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibYAML",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .systemLibrary(name: "CCairo", providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]),
        .systemLibrary(
            name: "CCMarkGFM", providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"]), .brew(["cmark-gfm"])]),
        .systemLibrary(name: "CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]),
        .target(
            name: "RelayKit",
            dependencies: [.product(name: "OrderedCollections", package: "swift-collections")]
        ),
        .target(name: "RelayLanguage", dependencies: ["RelayKit", "CLibYAML"]),
        .target(name: "RelayRuntime", dependencies: ["RelayKit", "RelayLanguage"]),
        .target(name: "RelayActions", dependencies: ["RelayKit", "CCairo", "CTurboJPEG", "CCMarkGFM"]),
        .target(
            name: "RelayCLI",
            dependencies: [
                "RelayKit", "RelayLanguage", "RelayRuntime", "RelayActions",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "relay", dependencies: ["RelayCLI"]),
        .testTarget(name: "RelayKitTests", dependencies: ["RelayKit"]),
        .testTarget(
            name: "RelayLanguageTests", dependencies: ["RelayLanguage", "RelayActions"], exclude: ["Malformed"]),
        .testTarget(name: "RelayRuntimeTests", dependencies: ["RelayRuntime", "RelayLanguage", "RelayActions", "CCairo"]),
        .testTarget(name: "RelayCLITests", dependencies: ["RelayCLI", "RelayKit"]),
    ],
    swiftLanguageModes: [.v6]
)
