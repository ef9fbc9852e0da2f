import Foundation

/// The folder a package keeps its own data in (favourites, caches, settings):
/// `$XDG_DATA_HOME/relay/package-data/NAME`, else `~/.local/share/relay/package-data/NAME`, where
/// NAME is the name of the package's folder. Relay makes it before it starts the package's host and
/// tells the host where it is; a confined host may change files there and nowhere else of its own
/// (Docs/Packages.md, "Where a package keeps its data").
public enum PackageDataFolder {
    /// How Relay tells a host its data folder: an environment variable holding its path.
    public static let environmentKey = "RELAY_PACKAGE_DATA"

    /// The data folder of the package whose folder is named `name` (Relay's side).
    public static func path(forPackageNamed name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (HomeFolder.path + "/.local/share")
        return base + "/relay/package-data/" + name
    }

    /// This host's data folder, as Relay gave it; for code run outside Relay (a package's own
    /// tests), a folder in the system's temporary folder, so that tests leave a person's data
    /// alone. Made if missing.
    public static var current: URL {
        let environment = ProcessInfo.processInfo.environment
        let path = environment[environmentKey].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("relay-package-data-\(getuid())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return URL(fileURLWithPath: path)
    }
}
