import Foundation

internal import CFileStatus

/// Paths as the kernel would follow them, for comparing with grants (Docs/Security.md, "Paths").
public enum ResolvedPath {
    /// How many symbolic links one path may pass through, as Linux allows (`ELOOP`).
    static let linkHops = 40

    /// `path` made absolute (`~` is the home folder; a relative path starts at the current
    /// directory), with `.`, `..` and every symbolic link along it resolved one component at a time,
    /// as the kernel does; the part that does not exist yet is taken as written. A path through
    /// more than 40 links resolves to a place no grant covers.
    public static func resolve(_ path: String) -> String {
        let expanded = HomeFolder.expandingTilde(in: path)
        let absolute = expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded
        var pending = absolute.split(separator: "/").reversed().map(String.init)
        var parts: [String] = []
        var hops = 0
        while let name = pending.popLast() {
            if name == "." { continue }
            if name == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(name)
            let current = "/" + parts.joined(separator: "/")
            guard let target = linkTarget(current) else { continue }
            hops += 1
            guard hops <= linkHops else { return "/\u{0}too many symbolic links" }
            parts.removeLast()
            if target.hasPrefix("/") { parts = [] }
            pending.append(contentsOf: target.split(separator: "/").reversed().map(String.init))
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `resolve(path)`, reusing the folders resolved before in `folders` (folder → resolved), so
    /// that the files of one folder cost one `lstat` each rather than one a part of their path.
    public static func resolve(_ path: String, reusing folders: inout [String: String]) -> String {
        let utf8 = path.utf8
        guard FileReference.isStandardized(path), let slash = utf8.lastIndex(of: UInt8(ascii: "/")), slash != utf8.startIndex,
            let folder = String(utf8[..<slash]), let name = String(utf8[utf8.index(after: slash)...])
        else { return resolve(path) }
        let resolvedFolder = resolve(folder: folder, reusing: &folders)
        guard !resolvedFolder.utf8.contains(0) else { return resolve(path) }
        let candidate = resolvedFolder == "/" ? "/" + name : resolvedFolder + "/" + name
        return linkTarget(candidate) == nil ? candidate : resolve(candidate)
    }

    /// `resolve(folder)`, taken from `folders` when it was resolved before, and kept there.
    public static func resolve(folder: String, reusing folders: inout [String: String]) -> String {
        if let known = folders[folder] { return known }
        let resolved = linkFree(folder) ?? resolve(folder)
        folders[folder] = resolved
        return resolved
    }

    /// `folder` itself when it is an absolute, standardized path to a folder with no symbolic link
    /// anywhere along it: one `openat2` (RESOLVE_NO_SYMLINKS) asks the kernel that, where `resolve`
    /// reads every part with an `lstat`. Nil when that is not known (a link, a part missing, no
    /// `openat2`): `resolve` then works it out.
    private static func linkFree(_ folder: String) -> String? {
        FileReference.isStandardized(folder) && relay_folder_is_link_free(folder) == 1 ? folder : nil
    }

    /// Whether `path` is `folder` or inside it (both resolved).
    public static func path(_ path: String, isWithin folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    /// `path` with the home folder shown as `~`.
    public static func abbreviated(_ path: String, home: String = HomeFolder.path) -> String {
        guard home != "/", !home.isEmpty else { return path }
        if path == home { return "~" }
        if path.hasPrefix(home + "/") { return "~" + path.dropFirst(home.count) }
        return path
    }

    /// The target of the symbolic link at `path`, or nil when it is not one.
    private static func linkTarget(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
