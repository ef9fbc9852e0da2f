import Foundation
import RelayKit

/// The favourite trails, kept as a JSON list of ids in `favorites.json` in the package's data
/// folder (`$XDG_DATA_HOME/relay/package-data/TrailKit`), the one folder of its own a confined
/// host may change.
enum Favorites {
    static let path = PackageDataFolder.current.appendingPathComponent("favorites.json").path

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cached: (modified: Date?, ids: Set<String>)?

    /// The favourite trails' ids; the file is read again only when it has changed.
    static func ids() -> Set<String> {
        let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        return lock.withLock {
            if let cached, cached.modified == modified { return cached.ids }
            let data = FileManager.default.contents(atPath: path)
            let ids = Set(data.flatMap { try? JSONDecoder().decode([String].self, from: $0) } ?? [])
            cached = (modified, ids)
            return ids
        }
    }

    static func contains(_ id: String) -> Bool { ids().contains(id) }

    /// Marks a trail favourite or not, writing the file atomically through `changes`.
    static func set(_ id: String, favorite: Bool, changes: any FileChanges) async throws {
        var ids = ids()
        if favorite { ids.insert(id) } else { ids.remove(id) }
        let data = try JSONEncoder().encode(ids.sorted())
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try await changes.write(data, to: path)
        lock.withLock { cached = nil }
    }
}
