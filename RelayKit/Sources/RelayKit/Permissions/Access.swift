import Foundation

/// One thing a run asks to touch (Docs/Security.md): a file to read or write, a host to connect
/// to, a URL to open, a command to start, a package to build and run. Paths are resolved — `~`,
/// `..` and symbolic links — before they are compared with a grant.
public struct Access: Sendable, Hashable, CustomStringConvertible {
    public let capability: Capability
    /// The resolved path, the host (lower case, with `:port` when one was given), the URL, the
    /// command or the package's folder.
    public let target: String

    public init(_ capability: Capability, _ target: String) {
        self.capability = capability
        self.target = target
    }

    /// Reading the file or folder at `path` (absolute, or relative to the current directory).
    public static func read(_ path: String) -> Access { Access(.read, ResolvedPath.resolve(path)) }
    /// Creating, changing, moving or deleting the file at `path`.
    public static func write(_ path: String) -> Access { Access(.write, ResolvedPath.resolve(path)) }
    /// `read` or `write` of many paths, each folder resolved once (`ResolvedPath.resolve(_:reusing:)`).
    public static func file(_ capability: Capability, _ path: String, reusing folders: inout [String: String]) -> Access {
        Access(capability, ResolvedPath.resolve(path, reusing: &folders))
    }
    /// Finding entities of `type`: reading the folder its query reads, if it has one (`Entity.folder`).
    public static func finding(_ type: EntityDescriptor) -> Access? {
        type.folder().map(read)
    }

    /// Moving or deleting the entry at `path` itself: a symbolic link there is what changes, not
    /// what it points to.
    public static func writeEntry(_ path: String) -> Access {
        var folders: [String: String] = [:]
        return writeEntry(path, reusing: &folders)
    }

    /// `writeEntry(path)`, its folder resolved once with others' (`ResolvedPath.resolve(_:reusing:)`).
    public static func writeEntry(_ path: String, reusing folders: inout [String: String]) -> Access {
        if FileReference.isStandardized(path) {
            let folder = ResolvedPath.resolve(folder: FileReference.folderPart(of: path), reusing: &folders)
            return Access(.write, FileReference.joining(folder, FileReference.lastComponent(of: path)))
        }
        let url = URL(fileURLWithPath: HomeFolder.expandingTilde(in: path)).standardizedFileURL
        let folder = ResolvedPath.resolve(url.deletingLastPathComponent().path)
        return Access(.write, folder == "/" ? "/" + url.lastPathComponent : folder + "/" + url.lastPathComponent)
    }

    /// Connecting to the host of `url`; nil for a URL without a host.
    public static func net(_ url: URL) -> Access? {
        hostTarget(of: url).map { Access(.net, $0) }
    }

    /// `example.com`, or `example.com:8080` when the URL names a port; an IPv6 address in brackets.
    public static func hostTarget(of url: URL) -> String? {
        guard var host = url.host?.lowercased(), !host.isEmpty else { return nil }
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        return url.port.map { "\(host):\($0)" } ?? host
    }

    /// The URLs in `value`, given to a parameter that declares `net`, whose host cannot be named
    /// (`http:/127.0.0.1/`, with one slash): the gate could ask about nothing, so they are refused
    /// rather than let through (Docs/Security.md, "Requests").
    public static func urlsNamingNoHost(in value: Value) -> [String] {
        switch value {
        case .list(let items): return items.flatMap(urlsNamingNoHost)
        case .url(let url): return hostTarget(of: url) == nil ? [url.absoluteString] : []
        case .text(let text): return URL(string: text.trimmingCharacters(in: .whitespaces)).flatMap(hostTarget) == nil ? [text] : []
        default: return []
        }
    }

    /// Why a URL that names no host is refused, for messages.
    public static func namesNoHost(_ url: String) -> String {
        "'\(url)' names no host, so Relay cannot ask whether it may connect to it; write it as scheme://HOST/…"
    }

    /// `example.com` or `example.com:8080` from a host, HOST:PORT or a URL, as `--allow-net` and
    /// `permissions:` take them; nil when it names no host.
    public static func hostEntry(_ entry: String) -> String? {
        let url = entry.contains("://") ? URL(string: entry) : URL(string: "http://" + entry)
        guard let url, let host = hostTarget(of: url), url.path.isEmpty || url.path == "/", url.query == nil else { return nil }
        return host
    }

    /// `https` from `https`, `HTTPS:` or `https://`: a URL scheme, as `--allow-open` and an `open:`
    /// entry may name one; nil when `entry` is not just a scheme.
    public static func scheme(_ entry: String) -> String? {
        var name = Substring(entry.lowercased())
        if name.hasSuffix("://") { name = name.dropLast(3) } else if name.hasSuffix(":") { name = name.dropLast() }
        guard let first = name.first, first.isASCII, first.isLetter,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return String(name)
    }

    /// Whether an `open` grant entry covers the URL `target`: a scheme covers every URL of it,
    /// anything longer the URLs that begin with it. A scheme covers itself too: the place a need
    /// to open a URL is asked for.
    public static func openEntry(_ entry: String, covers target: String) -> Bool {
        if let scheme = scheme(entry) {
            let lowered = target.lowercased()
            return lowered == scheme || lowered.hasPrefix(scheme + ":")
        }
        return target.hasPrefix(entry)
    }

    /// What is wrong with `entry` as a grant for `capability` (on the command line or in
    /// `permissions:`), or nil when it is fine.
    public static func entryProblem(_ entry: String, for capability: Capability) -> String? {
        if entry.isEmpty { return "an entry may not be empty" }
        if entry.contains("\u{0}") { return "an entry may not contain a NUL byte" }
        switch capability {
        case .net: return hostEntry(entry) == nil ? "'\(entry)' is not a host name, HOST:PORT or URL" : nil
        case .open:
            return scheme(entry) == nil && URL(string: entry)?.scheme == nil
                ? "'\(entry)' is not a URL scheme (https) or a URL with a scheme, such as https://example.com" : nil
        case .read, .write, .packages, .run: return nil
        }
    }

    /// Whether allowing this — a place: a file or folder, a host, a scheme, a command — allows
    /// `other`: a path within it (writing a place covers reading it), a host it matches, a URL of
    /// its scheme or beginning with it, the same command.
    public func covers(_ other: Access) -> Bool {
        guard capability == other.capability || (capability == .write && other.capability == .read) else { return false }
        switch capability {
        case .read, .write, .packages: return ResolvedPath.path(other.target, isWithin: target)
        case .net: return Access.host(target, matches: other.target)
        case .open: return Access.openEntry(target, covers: other.target)
        case .run: return target == other.target
        }
    }

    /// What a person is asked about when this is needed and was not known before the run: for a
    /// file to read or write, the folder it is in (a folder to read, itself); for a URL to open, its
    /// scheme; anything else as it is.
    public var place: Access {
        switch capability {
        case .read, .write:
            var info = stat()
            if capability == .read, stat(target, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return self }
            let folder = (target as NSString).deletingLastPathComponent
            return Access(capability, folder.isEmpty ? "/" : folder)
        case .open:
            return URL(string: target)?.scheme.map { Access(.open, $0.lowercased()) } ?? self
        case .net, .run, .packages:
            return self
        }
    }

    /// `read ~/.ssh/id_rsa`, with the home folder shown as `~`.
    public var description: String { "\(capability.rawValue) \(shownTarget)" }

    /// The target for people: a path in the home folder as `~/…`.
    public var shownTarget: String {
        switch capability {
        case .read, .write, .packages: ResolvedPath.abbreviated(target)
        case .net, .open, .run: target
        }
    }

    /// What the access does, for people: `read ~/.ssh/id_rsa`, `connect to api.example.com`,
    /// `build and run the package ~/TrailKit` — as in "needs to …" and "Allow … to …?".
    public var phrase: String {
        switch capability {
        case .read: "read \(shownTarget)"
        case .write: "write \(shownTarget)"
        case .net: "connect to \(target)"
        case .open: Access.scheme(target) == target ? "open \(target) URLs" : "open \(target)"
        case .run: "start \(target)"
        case .packages: "build and run the package \(shownTarget)"
        }
    }

    /// The command-line flag that grants this access, quoted for a shell.
    public var grantingFlag: String {
        switch capability {
        case .read, .write: ShellQuoting.flag("--allow-\(capability.rawValue)", shownTarget)
        case .net: ShellQuoting.flag("--allow-net", target)
        case .open: ShellQuoting.flag("--allow-open", URL(string: target)?.scheme?.lowercased() ?? target)
        case .run, .packages: "--allow-\(capability.rawValue)"
        }
    }

    /// What `value`, given to a parameter of type `type` that declares `capability`, names: for
    /// `read` the files in it (text where the parameter takes a file is a path too; other text is
    /// content, not a place), for `write` the files and the paths written as text, for `net` the
    /// hosts of its URLs, for `open` its URLs, for `run` the program a text names. Lists are looked into. Relative paths start at `folder`.
    public static func targets(of value: Value, for capability: Capability, type: ValueType, relativeTo folder: URL) -> [String] {
        switch value {
        case .list(let items):
            return items.flatMap { targets(of: $0, for: capability, type: type, relativeTo: folder) }
        case .file(let file) where capability == .read || capability == .write:
            return [file.path]
        case .text(let text) where capability == .read || capability == .write:
            let namesPath = type == .file || (capability == .write && type == .text)
            guard namesPath, !text.isEmpty else { return [] }
            return [FileReference(path: text, relativeTo: folder).path]
        case .url(let url) where capability == .net:
            return hostTarget(of: url).map { [$0] } ?? []
        case .text(let text) where capability == .net:
            return URL(string: text).flatMap(hostTarget).map { [$0] } ?? []
        case .text(let text) where capability == .run:
            return text.isEmpty ? [] : [text]
        case .url, .text:
            return capability == .open ? [value.textValue] : []
        default:
            return []
        }
    }
}

extension Value {
    /// Whether the value is a file or a collection that may hold one: what the gate must look at
    /// in an argument of a parameter that declares nothing.
    public var mayHoldFiles: Bool {
        switch self {
        case .file, .list, .dictionary: true
        default: false
        }
    }
}

extension Access {
    /// Whether a `--allow-net` entry covers `host`: the same name, on any port unless the entry names one.
    public static func host(_ entry: String, matches host: String) -> Bool {
        let bare = entry.hasSuffix("]") || !entry.contains(":")
        return entry == host || (bare && host.hasPrefix(entry + ":"))
    }
}
