// swift-tools-version: 6.1
import PackageDescription

/// Where Debian (x86_64 and arm64) and Homebrew put the headers of glib, pango, cairo, poppler,
/// libxml2 and their companions. Given as flags, not through pkg-config, whose `-pthread` SwiftPM
/// warns about; to every target that imports RelayActions, too, since the compiler may build the
/// C modules for whichever of them comes first.
let systemHeaderFolders = [
    "/usr/include/libxml2", "/opt/homebrew/opt/libxml2/include/libxml2",
    "/usr/include/cairo", "/usr/include/pango-1.0", "/usr/include/glib-2.0", "/usr/include/harfbuzz",
    "/usr/include/freetype2", "/usr/include/poppler/glib", "/usr/include/poppler", "/usr/lib/x86_64-linux-gnu/glib-2.0/include", "/usr/lib/aarch64-linux-gnu/glib-2.0/include",
    "/opt/homebrew/include/cairo", "/opt/homebrew/include/pango-1.0", "/opt/homebrew/include/glib-2.0",
    "/opt/homebrew/include/harfbuzz", "/opt/homebrew/include/poppler/glib", "/opt/homebrew/include/poppler", "/opt/homebrew/include/freetype2", "/opt/homebrew/lib/glib-2.0/include",
]
let systemHeaderFlags: [SwiftSetting] = [.unsafeFlags(systemHeaderFolders.flatMap { ["-Xcc", "-I\($0)"] })]
/// An async function that is not `@concurrent` runs where its caller runs, with no hop between
/// executors at each call (Docs/Architecture.md, "Where async code runs").
let callerIsolation: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

let package = Package(
    name: "Relay",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "relay", targets: ["relay"]),
        .library(name: "RelayCLI", targets: ["RelayCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // RelayKit is a package of its own, which package authors depend on alone (Docs/Packages.md).
        .package(path: "RelayKit"),
        // The HTTP server of `relay serve`: webhooks and the page of runs (Docs/Architecture.md).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: []),
        // The Model Context Protocol's official Swift SDK: `relay mcp` (Docs/Assistants.md).
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
        // Its transports' logger type, which relay mcp's own transport names (the SDK's already depends on it).
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibYAML",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .systemLibrary(
            name: "CGraphics",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev", "libpoppler-glib-dev"]), .brew(["cairo", "pango", "poppler"])]),
        .systemLibrary(
            name: "CCMarkGFM", providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"]), .brew(["cmark-gfm"])]),
        .systemLibrary(name: "CLibXML2", providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
        .systemLibrary(name: "CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"]), .brew(["jpeg-turbo"])]),
        // cairo, pango, TurboJPEG and cmark-gfm: opened when first used on Linux, linked on macOS
        // (Docs/Architecture.md, "Libraries opened when first used").
        .target(
            name: "CLazyLibraries",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
                + ["cairo", "pangocairo-1.0", "pango-1.0", "gobject-2.0", "glib-2.0", "turbojpeg", "cmark-gfm", "cmark-gfm-extensions"]
                .map { .linkedLibrary($0, .when(platforms: [.macOS])) }),
        .target(name: "CHTTPClient", dependencies: ["CPipeSignal"], linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(name: "CPipeSignal"),
        .target(name: "CMallocArena"),
        .target(name: "CSpawn"),
        // The processor's tick counter, which times each step for the run history (Docs/Runs.md).
        .target(name: "CTicks"),
        // The system keyring through libsecret, opened when first used (Docs/Runs.md, "Secrets").
        .target(name: "CSecretService", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(name: "RelayLanguage", dependencies: [.product(name: "RelayKit", package: "RelayKit"), .product(name: "RelayEngine", package: "RelayKit"), "CLibYAML"], swiftSettings: callerIsolation),
        // Apple's LZFSE decoder (BSD-3-Clause, its LICENSE beside it), for signed shortcut files:
        // Debian has no package of it (Docs/Architecture.md, "Dependencies").
        .target(name: "CLZFSE", exclude: ["LICENSE"], cSettings: [.unsafeFlags(["-Wno-everything"])]),
        .target(name: "RelayShortcuts", dependencies: [.product(name: "RelayKit", package: "RelayKit"), .product(name: "RelayEngine", package: "RelayKit"), "CLZFSE"]),
        .target(
            name: "RelayRuntime",
            dependencies: [.product(name: "RelayKit", package: "RelayKit"), .product(name: "RelayEngine", package: "RelayKit"), "RelayLanguage", "RelayShortcuts", "CSpawn", "CPipeSignal", "CTicks"],
            swiftSettings: callerIsolation),
        .target(
            name: "RelayActions",
            dependencies: [
                .product(name: "RelayKit", package: "RelayKit"), .product(name: "RelayEngine", package: "RelayKit"), "CGraphics", "CTurboJPEG", "CCMarkGFM", "CLibXML2", "CHTTPClient",
                "CLazyLibraries",
            ],
            swiftSettings: systemHeaderFlags + callerIsolation),
        .target(
            name: "RelayCLI",
            dependencies: [
                .product(name: "RelayKit", package: "RelayKit"), .product(name: "RelayEngine", package: "RelayKit"), "RelayLanguage", "RelayRuntime", "RelayActions", "RelayShortcuts",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), "CSecretService", "CPipeSignal",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: systemHeaderFlags
        ),
        // A release build links the Swift standard library and Foundation in: the dynamic loader
        // then looks up a dozen libraries' symbols at each start rather than Swift's too
        // (Docs/Performance.md). Foundation's own static parts come in one group, in any order.
        .executableTarget(
            name: "relay", dependencies: ["RelayCLI", "CMallocArena"], swiftSettings: systemHeaderFlags,
            linkerSettings: [
                .unsafeFlags(
                    ["-static-stdlib", "-Xlinker", "--start-group"]
                        + ["Foundation", "FoundationEssentials", "FoundationInternationalization", "CoreFoundation", "_FoundationICU",
                           "_FoundationCShims", "_FoundationCollections", "swiftSynchronization", "stdc++", "m",
                           // URLSession, which the MCP SDK's client parts name; its libcurl calls go
                           // to CLazyLibraries' trampolines, so no libcurl is loaded at start.
                           "FoundationNetworking", "_CFURLSessionInterface"]
                        .flatMap { ["-Xlinker", "-l\($0)"] } + ["-Xlinker", "--end-group"]
                        // Nothing looks up relay's own symbols at run time; exporting all 26,000 of
                        // them made the loader's and the runtime's searches slower at every start.
                        + ["-Xlinker", "--no-export-dynamic"],
                    .when(platforms: [.linux], configuration: .release))
            ]),
        // What each fuzz target checks (Docs/Reliability.md, "Fuzzing"), and the fuzzer Scripts/fuzz builds.
        .target(
            name: "RelayFuzzing",
            dependencies: [.product(name: "RelayKit", package: "RelayKit"), .product(name: "RelayEngine", package: "RelayKit"), "RelayLanguage", "RelayRuntime", "RelayActions", "RelayShortcuts"],
            swiftSettings: systemHeaderFlags),
        .executableTarget(name: "relay-fuzz", dependencies: ["RelayFuzzing"], swiftSettings: systemHeaderFlags),
        // Benchmarks/entities runs it (release build); not a product.
        .executableTarget(
            name: "relay-benchmarks", dependencies: [.product(name: "RelayKit", package: "RelayKit"), .product(name: "RelayEngine", package: "RelayKit"), "RelayLanguage", "RelayRuntime", "RelayActions"],
            path: "Benchmarks/Sources/relay-benchmarks", swiftSettings: systemHeaderFlags),
        .testTarget(name: "RelayKitTests", dependencies: [.product(name: "RelayKit", package: "RelayKit"), .product(name: "RelayEngine", package: "RelayKit")]),
        .testTarget(
            name: "RelayLanguageTests", dependencies: ["RelayLanguage", "RelayActions"], exclude: ["Malformed"],
            swiftSettings: systemHeaderFlags),
        .testTarget(
            name: "RelayRuntimeTests", dependencies: ["RelayRuntime", "RelayLanguage", "RelayActions", "CGraphics", "CLazyLibraries"],
            exclude: ["Fixtures"], swiftSettings: systemHeaderFlags),
        .testTarget(
            name: "RelayCLITests",
            dependencies: ["RelayCLI", "RelayLanguage", "RelayRuntime", "CSpawn", "CPipeSignal", .product(name: "RelayKit", package: "RelayKit"), .product(name: "RelayEngine", package: "RelayKit")],
            swiftSettings: systemHeaderFlags),
        .testTarget(
            name: "RelayShortcutsTests", dependencies: ["RelayShortcuts", "RelayRuntime", "RelayLanguage", "RelayActions"],
            swiftSettings: systemHeaderFlags),
        .testTarget(name: "RelayFuzzingTests", dependencies: ["RelayFuzzing"], swiftSettings: systemHeaderFlags),
    ],
    swiftLanguageModes: [.v6]
)
