import Foundation

/// The folder a package keeps its own data in (favourites, caches, settings):
/// `$XDG_DATA_HOME/relay/package-data/NAME-PLACE`, else `~/.local/share/relay/package-data/NAME-PLACE`,
/// where NAME is the name of the package's folder and PLACE a hash of where that folder is, so that
/// two packages in folders of the same name keep their data apart. Relay makes it before it starts
/// the package's host and tells the host where it is; a confined host may change files there and
/// nowhere else of its own (Docs/Packages.md, "Where a package keeps its data").
public enum PackageDataFolder {
    /// How Relay tells a host its data folder: an environment variable holding its path.
    public static let environmentKey = "RELAY_PACKAGE_DATA"

    /// The data folder of the package in the folder `packagePath` (absolute, resolved; Relay's side).
    public static func path(forPackageAt packagePath: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (HomeFolder.path + "/.local/share")
        let name = (packagePath as NSString).lastPathComponent
        return base + "/relay/package-data/" + name + "-" + String(StableHash.of(packagePath), radix: 16)
    }

    /// Where data was kept before it was kept apart by place: `package-data/NAME`. Relay moves such
    /// a folder to the first package of that name that runs and has no data folder yet.
    public static func pathKeptByName(forPackageAt packagePath: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (HomeFolder.path + "/.local/share")
        return base + "/relay/package-data/" + (packagePath as NSString).lastPathComponent
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
