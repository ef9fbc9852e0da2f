import Foundation
import RelayKit

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

    /// The SHA-256 of what the build of the package at `path` reads.
    static func hash(ofPackageAt path: String) throws(Failure) -> String {
        let root = ResolvedPath.resolve(path)
        var hash = ContentHash()
        var visited: Set<String> = []
        var pending = [(folder: root, isDependency: false)]
        while let (folder, isDependency) = pending.popLast() {
            guard visited.insert(folder).inserted else { continue }
            hash.update("package \(folder == root ? "." : folder)\u{0}")
            let tops = isDependency ? ["Package.swift", "Sources", "Plugins", ".swiftpm"] : nil
            try add(folder: folder, relative: "", within: folder, tops: tops, into: &hash, depth: 0)
            for dependency in localDependencies(of: folder) { pending.append((dependency, true)) }
        }
        guard let digest = hash.finish() else {
            throw Failure(description: "cannot compute a SHA-256 hash (libcrypto.so.3 from Debian's libssl3 is missing)")
        }
        return digest
    }

    /// The top-level names a build writes or version control keeps, never hashed.
    private static let leftOut: Set<String> = [".build", ".git", "Package.resolved"]

    /// Adds the files under `folder/relative` to `hash`, in name order, following links that stay
    /// `within` the package folder.
    private static func add(
        folder: String, relative: String, within package: String, tops: [String]?, into hash: inout ContentHash, depth: Int
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
                try add(folder: folder, relative: entry, within: package, tops: nil, into: &hash, depth: depth + 1)
            case S_IFREG:
                let data = FileManager.default.contents(atPath: full) ?? Data()
                hash.update("file \(entry)\u{0}\(data.count)\u{0}")
                hash.update(data)
            default:
                hash.update("other \(entry)\u{0}")
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
