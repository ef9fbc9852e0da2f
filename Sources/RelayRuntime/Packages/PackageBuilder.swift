import Foundation
import Synchronization
import RelayKit

/// Builds a package's `relay-host` executable with `swift build`, once per version of its sources:
/// the built host is kept under `$XDG_CACHE_HOME/relay/packages` (else `~/.cache/relay/packages`)
/// by a hash of the package's manifest and sources (and of this relay), so a later run starts it
/// at once and a change to the sources builds it again (incrementally, in a build folder kept per
/// package).
///
/// A run builds the debug host, which is quick to build and to rebuild after an edit; `relay
/// package build` makes the optimized one, which every run then prefers until the sources change
/// (Docs/Packages.md, "Building").
public enum PackageBuilder {
    /// How a host is compiled.
    public enum Configuration: String, Sendable, CaseIterable {
        /// Unoptimized: the first build of a new package takes seconds, not a minute.
        case debug
        /// Optimized: each call costs less; the build takes several times as long.
        case release

        /// The file name of a host built so, in its version's cache folder.
        var hostName: String { self == .debug ? "relay-host" : "relay-host-release" }
    }

    /// The host executable of the package at `path` (absolute): the optimized one when `relay
    /// package build` made it for these sources, else the debug one, building that when needed.
    /// `progress` receives lines to show while a build runs: that it started, then where it is
    /// (`[120/310] Compiling …`) every few seconds.
    public static func hostExecutable(
        forPackageAt path: String, progress: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(HostError) -> URL {
        if let built = try builtHost(forPackageAt: path) { return built }
        return try await build(packageAt: path, as: .debug, into: try versionFolder(ofPackageAt: path), progress: progress)
    }

    /// The host of the package at `path` (absolute) built for its sources as they are now — the
    /// optimized one when there is one — or nil: nothing is built.
    public static func builtHost(forPackageAt path: String) throws(HostError) -> URL? {
        let version = try versionFolder(ofPackageAt: path)
        for configuration in [Configuration.release, .debug] {
            let cached = version.appendingPathComponent(configuration.hostName)
            if FileManager.default.isExecutableFile(atPath: cached.path) { return cached }
        }
        return nil
    }

    /// Builds the host of the package at `path` (absolute) as `configuration`, unless it is built
    /// already for these sources; the host.
    public static func build(
        packageAt path: String, as configuration: Configuration, progress: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(HostError) -> URL {
        let version = try versionFolder(ofPackageAt: path)
        let cached = version.appendingPathComponent(configuration.hostName)
        if FileManager.default.isExecutableFile(atPath: cached.path) { return cached }
        return try await build(packageAt: path, as: configuration, into: version, progress: progress)
    }

    /// The cache folder of the package at `path` as its sources are now: `packages/NAME-HASH`.
    private static func versionFolder(ofPackageAt path: String) throws(HostError) -> URL {
        let manifest = (path as NSString).appendingPathComponent("Package.swift")
        guard FileManager.default.fileExists(atPath: manifest) else {
            throw HostError("there is no Swift package at '\(path)': it has no Package.swift")
        }
        let name = (path as NSString).lastPathComponent
        let hash = try fingerprint(ofPackageAt: path)
        return cacheRoot.appendingPathComponent("packages/\(name)-\(hash)")
    }

    /// The build log without its `[n/m] step` lines, each compiler message once: swift build reports
    /// an error both while emitting the module and while compiling the file. A message is its
    /// `file:line:column: error:` line with the source excerpt under it.
    static func compilerMessages(in log: String) -> [String] {
        var messages: [[Substring]] = []
        var inMessage = false
        for line in log.split(separator: "\n") where !line.allSatisfy(\.isWhitespace) {
            if line.hasPrefix("["), line.contains("/"), line.contains("] ") { inMessage = false; continue }
            let excerpt = line.drop(while: { $0 == " " || $0.isNumber }).hasPrefix("|")
            if inMessage, excerpt {
                messages[messages.count - 1].append(line)
            } else {
                messages.append([line])
                inMessage = line.contains(": error: ") || line.contains(": warning: ") || line.contains(": note: ")
            }
        }
        var seen = Set<[Substring]>()
        let unique = messages.filter { seen.insert($0).inserted }
        // Errors first: a build's tail is what is shown, and warnings after the error must not push it out.
        let isError = { (message: [Substring]) in message.first?.contains(": error: ") == true }
        return (unique.filter(isError) + unique.filter { !isError($0) }).flatMap { $0.map(String.init) }
    }

    private static func build(
        packageAt path: String, as configuration: Configuration, into version: URL, progress: @escaping @Sendable (String) -> Void
    ) async throws(HostError) -> URL {
        let name = (path as NSString).lastPathComponent
        let cached = version.appendingPathComponent(configuration.hostName)
        let buildFolder = cacheRoot.appendingPathComponent("builds/\(name)-\(String(StableHash.of(path), radix: 16))")
        // A folder built before is built again only where the sources changed.
        let rebuilding = FileManager.default.fileExists(atPath: buildFolder.appendingPathComponent(configuration.rawValue).path)
        let duration =
            switch (configuration, rebuilding) {
            case (.debug, false): "the first time takes about 15 seconds"
            case (.debug, true): "again after a change: a few seconds"
            case (_, false): "optimized; this takes about half a minute"
            case (_, true): "optimized, again after a change"
            }
        progress("Building package '\(name)' (\(duration))…")
        let steps = BuildSteps(package: name, show: progress)
        let (status, log) = await runSwiftBuild(
            packagePath: path, buildFolder: buildFolder.path, configuration: configuration, step: steps.note)
        if Task.isCancelled { throw HostError("the build of the package at '\(path)' was stopped") }
        guard status == 0 else {
            // The compiler's messages, errors first, as they are: not a host's standard error, of which only the end is kept.
            let messages = compilerMessages(in: log).prefix(40).map { "  " + $0 }.joined(separator: "\n")
            throw HostError(
                "the package at '\(path)' failed to build (swift build exited with status \(status))" + (messages.isEmpty ? "" : "\nthe build's output:\n" + messages))
        }
        let built = buildFolder.appendingPathComponent("\(configuration.rawValue)/relay-host")
        guard FileManager.default.isExecutableFile(atPath: built.path) else {
            throw HostError(
                "the package at '\(path)' built, but has no 'relay-host' executable product; add one whose main.swift calls PackageHost.serve (Docs/Packages.md)")
        }
        do {
            try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
            let staging = version.appendingPathComponent(".relay-host-\(UUID().uuidString)")
            try FileManager.default.copyItem(at: built, to: staging)
            // A rename, so that a relay running beside this one never starts a half-copied host.
            if rename(staging.path, cached.path) != 0 { try? FileManager.default.removeItem(at: staging) }
        } catch {
            throw HostError("cannot keep the built host in '\(cached.path)': \(error.localizedDescription)")
        }
        pruneHosts(of: name, keeping: version)
        return cached
    }

    /// How many built versions of a package the cache keeps (the newest, by when they were built).
    static let keptVersions = 3

    /// Removes the built hosts of package `name` but the newest few and `kept`: every edit of a
    /// package builds a new host, and none would be removed otherwise. A host running meanwhile
    /// keeps running (its file is only unlinked); a run that needs a removed one builds it again.
    static func pruneHosts(of name: String, keeping kept: URL, in folder: URL = cacheRoot.appendingPathComponent("packages")) {
        let fileManager = FileManager.default
        guard let entries = try? fileManager.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.contentModificationDateKey]) else { return }
        let versions = entries.filter { entry in
            let entryName = entry.lastPathComponent
            // `NAME-HASH`, where the hash is hexadecimal: `Trail-1f` is not a version of `Trail-Kit`.
            guard entryName.hasPrefix(name + "-") else { return false }
            return entryName.dropFirst(name.count + 1).allSatisfy(\.isHexDigit)
        }
        let newestFirst = versions.sorted { first, second in
            let one = (try? first.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
            let two = (try? second.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? .distantPast
            return one > two
        }
        for old in newestFirst.dropFirst(keptVersions) where old.standardizedFileURL != kept.standardizedFileURL {
            try? fileManager.removeItem(at: old)
        }
    }

    /// Where built hosts and build folders are kept.
    static var cacheRoot: URL {
        let environment = ProcessInfo.processInfo.environment
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return URL(fileURLWithPath: cache).appendingPathComponent("relay")
        }
        return URL(fileURLWithPath: HomeFolder.path).appendingPathComponent(".cache/relay")
    }

    /// A hash of what the build depends on: what trusting the package hashes (`PackageSources`:
    /// the same function, so a build never uses sources other than the trusted ones), and this
    /// relay executable (a new relay may bring a new RelayKit).
    static func fingerprint(ofPackageAt path: String) throws(HostError) -> String {
        var hash = StableHash()
        do throws(PackageSources.Failure) {
            hash.add(try PackageSources.hash(ofPackageAt: path).utf8)
        } catch {
            throw HostError(error.description)
        }
        let relay = Bundle.main.executablePath ?? CommandLine.arguments[0]
        if let attributes = try? FileManager.default.attributesOfItem(atPath: relay) {
            let stamp = "\(attributes[.size] ?? 0) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
            hash.add(stamp.utf8)
        }
        return String(hash.value, radix: 16)
    }

    /// Runs `swift build` for the `relay-host` product, returning its status and its output. The
    /// build runs as a `ChildProcess`: waiting holds no thread, and a cancelled run stops it.
    private static func runSwiftBuild(
        packagePath: String, buildFolder: String, configuration: Configuration, step: @escaping @Sendable (String) -> Void
    ) async -> (Int32, String) {
        guard let swift = ChildProcess.find("swift") else { return (127, "cannot find swift on PATH") }
        let arguments = ["build", "-c", configuration.rawValue, "--package-path", packagePath, "--scratch-path", buildFolder, "--product", "relay-host"]
        let child: ChildProcess
        do throws(ChildProcessError) {
            // At a lower priority: a build takes every core it can for minutes, and whatever else
            // runs meanwhile (other runs, their timeouts) keeps its share.
            child = try ChildProcess(executable: swift, arguments: arguments, niceness: 10, input: .null)
        } catch {
            return (127, "cannot run swift: \(error.message)")
        }
        async let output = readAll(child.output, eachLine: step)
        async let errors = readAll(child.errors)
        let (signalled, status) = await child.termination()
        // The compiler's diagnostics are on standard output: last, so the tail shown keeps them.
        let log = await String(decoding: errors + output, as: UTF8.self)
        return (signalled ? 128 + status : status, log)
    }

    /// Everything `handle` gives until its end, read on a thread of its own (`BlockingWork`):
    /// the blocking read holds no cooperative thread, and ends when the build's pipe closes.
    /// Each whole line goes to `eachLine` as it comes.
    private static func readAll(_ handle: FileHandle?, eachLine: (@Sendable (String) -> Void)? = nil) async -> Data {
        guard let handle else { return Data() }
        return (try? await BlockingWork.run { _ in
            // On BlockingWork's own thread, not a cooperative one; a stopped build closes the
            // pipe (its process is killed with its session), which ends these reads.
            guard let eachLine else { return handle.readDataToEndOfFile() }
            var all = Data(), start = 0
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                all.append(chunk)
                while let newline = all[start...].firstIndex(of: 10) {
                    eachLine(String(decoding: all[start..<newline], as: UTF8.self))
                    start = newline + 1
                }
            }
            return all
        }) ?? Data()
    }
}

/// The steps of a package's build, shown every few seconds (`[120/310] Compiling TrailKit …`),
/// whether or not standard error is a terminal, so that a long first build says where it is.
private final class BuildSteps: Sendable {
    private let package: String
    private let show: @Sendable (String) -> Void
    private let lastShown = Mutex<ContinuousClock.Instant?>(nil)

    init(package: String, show: @escaping @Sendable (String) -> Void) {
        self.package = package
        self.show = show
    }

    /// A line of `swift build`'s output: a step (`[n/m] …`) is shown if none was in the last few seconds.
    @Sendable func note(_ line: String) {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]"), line[..<close].contains("/") else { return }
        let now = ContinuousClock.now
        let due = lastShown.withLock { last in
            guard last.map({ now - $0 >= .seconds(5) }) ?? true else { return false }
            last = now
            return true
        }
        if due { show("Building package '\(package)': \(line.prefix(120))") }
    }
}
