import Foundation
import RelayKit
import RelayEngine

/// What a package's build reads, hashed by one function for both of its uses: trusting the
/// package (Docs/Security.md, "Packages") and knowing when its host must be built again. So a
/// package is never rebuilt from sources other than the ones that were trusted.
///
/// Hashed: every file in the package's folder, symbolic links followed, except what builds and
/// resolution write there (`.build`, `Package.resolved`, `.swiftpm` but its `configuration`) and
/// version control's `.git`; and, for each local dependency its manifest names with a literal
/// `.package(path: "…")` (and theirs in turn), that package's manifest, `Sources`, `Plugins` and
/// `.swiftpm/configuration`, never its `.build`. A link that leads out of its package's folder is
/// refused: what it points to could change without the package changing.
enum PackageSources {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The SHA-256 of what the build of the package at `path` reads. Reading and hashing a
    /// package and the RelayKit it depends on (2 MB) took most of a cached `--package` start, so
    /// the digest is remembered (`Remembered`) with what a status of each file says: while every
    /// file has the same identity, size, modification and status-change times, its content is
    /// the one hashed (Docs/Security.md, "Packages").
    static func hash(ofPackageAt path: String, remembered: Remembered? = Remembered.standard) throws(Failure) -> String {
        let root = ResolvedPath.resolve(path)
        let started = Date().timeIntervalSince1970
        let met = try walk(root)
        let listing = met.map(\.line).joined(separator: "\n")
        if let remembered, let digest = remembered.digest(of: root, listing: listing) { return digest }
        var hash = ContentHash()
        for item in met {
            switch item.kind {
            case .package: hash.update("package \(item.entry)\u{0}")
            case .file:
                let data = FileManager.default.contents(atPath: item.path) ?? Data()
                hash.update("file \(item.entry)\u{0}\(data.count)\u{0}")
                hash.update(data)
            case .other: hash.update("other \(item.entry)\u{0}")
            }
        }
        guard let digest = hash.finish() else {
            throw Failure(description: "cannot compute a SHA-256 hash (libcrypto.so.3 from Debian's libssl3 is missing)")
        }
        if let remembered, met.allSatisfy({ $0.isSettled(before: started - remembered.settling) }) {
            remembered.remember(digest, of: root, listing: listing)
        }
        return digest
    }

    /// One thing the walk met: a package's folder (`entry` is "." for the package itself), or a
    /// file or other entry below it, with its status.
    struct Met {
        enum Kind { case package, file, other }
        let kind: Kind
        let entry: String
        let path: String
        var status = stat()

        /// A line naming it and what its status says (the name with its length: names may hold
        /// line breaks).
        var line: String {
            switch kind {
            case .package: return "package \(entry.utf8.count):\(entry)"
            case .file, .other:
                let (modified, changed) = Self.times(status)
                return "\(kind == .file ? "file" : "other") \(entry.utf8.count):\(entry) \(status.st_dev) \(status.st_ino) \(status.st_size) "
                    + "\(modified.tv_sec).\(modified.tv_nsec) \(changed.tv_sec).\(changed.tv_nsec)"
            }
        }

        /// Whether its last change is older than `moment` (seconds since 1970): a change after
        /// the hash was made then gives it a later status-change time, which no one but the
        /// system's clock can set. A file changed within the clock's last tick is hashed again.
        func isSettled(before moment: Double) -> Bool {
            guard kind != .package else { return true }
            let (modified, changed) = Self.times(status)
            return Double(modified.tv_sec) < moment && Double(changed.tv_sec) < moment
        }

        private static func times(_ status: stat) -> (modified: timespec, changed: timespec) {
            #if canImport(Darwin)
                (status.st_mtimespec, status.st_ctimespec)
            #else
                (status.st_mtim, status.st_ctim)
            #endif
        }
    }

    /// What the package at `root` and its local dependencies hold, in the order they are hashed.
    private static func walk(_ root: String) throws(Failure) -> [Met] {
        var met: [Met] = []
        var visited: Set<String> = []
        var pending = [(folder: root, isDependency: false)]
        while let (folder, isDependency) = pending.popLast() {
            guard visited.insert(folder).inserted else { continue }
            met.append(Met(kind: .package, entry: folder == root ? "." : folder, path: folder))
            let tops = isDependency ? ["Package.swift", "Sources", "Plugins", ".swiftpm"] : nil
            try add(folder: folder, relative: "", within: folder, tops: tops, into: &met, depth: 0)
            for dependency in localDependencies(of: folder) { pending.append((dependency, true)) }
        }
        return met
    }

    /// The top-level names a build writes or version control keeps, never hashed.
    private static let leftOut: Set<String> = [".build", ".git", "Package.resolved"]

    /// Adds the entries under `folder/relative` to `met`, in name order, following links that
    /// stay `within` the package folder.
    private static func add(
        folder: String, relative: String, within package: String, tops: [String]?, into met: inout [Met], depth: Int
    ) throws(Failure) {
        guard depth < 64 else { throw Failure(description: "'\(folder)' nests folders more than 64 deep") }
        let here = relative.isEmpty ? folder : folder + "/" + relative
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: here) else { return }
        for name in names.sorted() {
            let entry = relative.isEmpty ? name : relative + "/" + name
            if relative.isEmpty {
                if leftOut.contains(name) { continue }
                if let tops, !tops.contains(name) { continue }
            }
            // Of .swiftpm, only the configuration (mirrors, registries) changes what is built.
            if relative == ".swiftpm" && name != "configuration" { continue }
            let full = folder + "/" + entry
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                let target = ResolvedPath.resolve(full)
                guard ResolvedPath.path(target, isWithin: package) else {
                    throw Failure(
                        description: "'\(entry)' in the package at '\(package)' is a symbolic link out of the package's folder "
                            + "(to '\(target)'): Relay neither trusts nor builds a package whose sources lie elsewhere")
                }
                guard stat(full, &info) == 0 else { continue }
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                try add(folder: folder, relative: entry, within: package, tops: nil, into: &met, depth: depth + 1)
            case S_IFREG: met.append(Met(kind: .file, entry: entry, path: full, status: info))
            default: met.append(Met(kind: .other, entry: entry, path: full, status: info))
            }
        }
    }

    /// The folders of the local dependencies that the manifest of the package at `folder` names
    /// with a literal path, resolved from its folder.
    static func localDependencies(of folder: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: folder + "/Package.swift") else { return [] }
        let manifest = String(decoding: data, as: UTF8.self)
        var folders: [String] = []
        var rest = manifest[...]
        while let start = rest.range(of: ".package(") {
            rest = rest[start.upperBound...]
            let call = rest.prefix { $0 != ")" }
            guard let label = call.range(of: "path:") else { continue }
            let afterLabel = call[label.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\t" }
            guard afterLabel.first == "\"" else { continue }
            let literal = afterLabel.dropFirst().prefix { $0 != "\"" }
            let path = String(literal)
            let absolute = path.hasPrefix("/") ? path : folder + "/" + path
            folders.append(ResolvedPath.resolve(absolute))
        }
        return folders
    }
}

extension PackageSources {
    /// Digests remembered with the listing they were made from, one file a package under the
    /// package cache (`$XDG_CACHE_HOME/relay/package-sources`). Whoever can write there can
    /// also replace the hosts built beside it, so remembering trusts no one new.
    struct Remembered: Sendable {
        let folder: URL
        /// How long ago a file's last change must be for its digest to be remembered.
        var settling: Double = 2

        static var standard: Remembered { Remembered(folder: PackageBuilder.cacheRoot.appendingPathComponent("package-sources")) }

        private func file(for root: String) -> URL {
            folder.appendingPathComponent(String(StableHash.of(root), radix: 16), isDirectory: false)
        }

        private static func header(_ root: String) -> String { "relay package sources 1\n\(root.utf8.count):\(root)\n" }

        /// The digest remembered for `root` when it was made from exactly `listing`.
        func digest(of root: String, listing: String) -> String? {
            guard let data = FileManager.default.contents(atPath: file(for: root).path) else { return nil }
            let text = String(decoding: data, as: UTF8.self)
            let header = Self.header(root)
            guard text.hasPrefix(header) else { return nil }
            let rest = text.dropFirst(header.count)
            guard let newline = rest.firstIndex(of: "\n") else { return nil }
            let digest = rest[..<newline]
            guard digest.count == 64, digest.allSatisfy(\.isHexDigit), rest[rest.index(after: newline)...] == listing else { return nil }
            return String(digest)
        }

        /// Remembers `digest` for `root` made from `listing` (best effort: a cache).
        func remember(_ digest: String, of root: String, listing: String) {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let text = Self.header(root) + digest + "\n" + listing
            try? Data(text.utf8).write(to: file(for: root), options: .atomic)
        }
    }
}
