import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import RelayKit
import RelayEngine
import RelayLanguage
import RelayShortcuts

/// Loads a workflow file: reads it, parses it and checks it against the registry.
public struct WorkflowLoader: Sendable {
    public let registry: ActionRegistry
    /// The absolute paths of the packages whose actions the registry holds.
    public let loadedPackages: Set<String>
    /// The packages loaded from paths for this command: each built and started once.
    public let packages: LoadedPackages
    /// Workflows already checked, by path: `run-workflow` in a loop loads the same file again and again.
    private let checked = CheckedFiles()

    public init(registry: ActionRegistry, loadedPackages: Set<String> = [], packages: LoadedPackages = LoadedPackages()) {
        self.registry = registry
        self.loadedPackages = loadedPackages
        self.packages = packages
    }

    /// Loads the file at `path` (shown in diagnostics as `path`). `predefined` names variables
    /// given from outside the file. The workflow is nil when there were errors.
    public func load(path: String, predefined: Set<String> = []) -> (workflow: CheckedWorkflow?, diagnostics: [Diagnostic]) {
        if ShortcutSource.isShortcut(path) { return loadShortcut(path: path, predefined: predefined) }
        let text: String
        do {
            text = try Self.readText(path, limit: Limits.workflowBytes)
        } catch {
            guard let position = error.position, let lossy = error.text else { return (nil, [.error(error.message, at: nil)]) }
            let place = SourcePosition(line: position.line, column: position.column)
            return (nil, [.error(error.message, at: SourceRange(file: SourceFile(path: path, text: lossy), start: place, end: place))])
        }
        // The same text checks the same way: only a changed file is parsed and checked again.
        let key = path + "\u{0}" + predefined.sorted().joined(separator: ",")
        if let known = checked.result(for: key, text: text) { return known }
        let result = load(SourceFile(path: path, text: text), predefined: predefined)
        checked.keep(result, for: key, text: text)
        return result
    }

    /// Imports the shortcut at `path` and checks the workflow it makes; a diagnostic names the
    /// shortcut's action as well as the workflow's line (Docs/Shortcuts.md, "Running a shortcut").
    private func loadShortcut(path: String, predefined: Set<String>) -> (workflow: CheckedWorkflow?, diagnostics: [Diagnostic]) {
        let imported: ShortcutImport
        do {
            imported = try ShortcutSource.imported(path, actions: registry.actions)
        } catch {
            return (nil, [.error("\(path): \(error)", at: nil)])
        }
        let file = SourceFile(path: path, text: imported.yaml)
        guard imported.unmapped.isEmpty else {
            return (nil, imported.unmapped.map { .error("\($0)", at: nil, notes: ["help: 'relay import --partial' writes the rest as a workflow to edit (Docs/Shortcuts.md)"]) })
        }
        let key = path + "\u{0}" + predefined.sorted().joined(separator: ",")
        if let known = checked.result(for: key, text: imported.yaml) { return known }
        var result = load(file, predefined: predefined)
        result.diagnostics = result.diagnostics.map { imported.locating($0, in: path) }
        checked.keep(result, for: key, text: imported.yaml)
        return result
    }

    /// Parses and checks `file`; `typings`, when given, receives its variables' types.
    public func load(_ file: SourceFile, predefined: Set<String> = [], typings: VariableTypings? = nil) -> (workflow: CheckedWorkflow?, diagnostics: [Diagnostic]) {
        let (parsed, parseDiagnostics) = WorkflowParser.parse(file, entityTypes: registry.entityTypes)
        guard let parsed else { return (nil, parseDiagnostics) }
        let (checked, checkDiagnostics) = Checker.check(parsed, registry: registry, predefined: predefined, typings: typings)
        var packageDiagnostics: [Diagnostic] = []
        for package in parsed.packages where !loadedPackages.contains(Self.packagePath(package.text, in: file.path)) {
            packageDiagnostics.append(
                .error(
                    "the package '\(package.text)' is not loaded", at: package.range,
                    notes: ["note: 'relay run' and 'relay check' load a workflow's packages; 'run-workflow' does not yet"]))
        }
        let diagnostics = parseDiagnostics + packageDiagnostics + checkDiagnostics
        let failed = diagnostics.contains { $0.severity == .error }
        return (failed ? nil : checked, diagnostics)
    }

    /// The absolute path of a `packages:` entry (or a `run-workflow` path) of the workflow at
    /// `workflowPath`: a relative one is relative to the workflow's folder, whatever the current
    /// folder (Docs/Packages.md).
    public static func packagePath(_ entry: String, in workflowPath: String) -> String {
        let expanded = HomeFolder.expandingTilde(in: entry)
        if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded).standardizedFileURL.path }
        let workflow = URL(fileURLWithPath: workflowPath, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        return workflow.deletingLastPathComponent().appendingPathComponent(expanded).standardizedFileURL.path
    }

    /// This loader with the packages that the workflow at `path` names in `packages:` loaded
    /// (built if needed) and registered. Nothing happens for a workflow without packages, or one
    /// that does not parse (loading it reports why).
    public func loadingPackages(
        of path: String, gate: AccessGate, progress: @escaping @Sendable (String) -> Void
    ) async throws(PackageLoadFailure) -> WorkflowLoader
    {
        guard let text = try? Self.readText(path, limit: Limits.workflowBytes), let parsed = WorkflowParser.parse(SourceFile(path: path, text: text)).workflow else {
            return self
        }
        var registry = registry
        var loaded = loadedPackages
        for entry in parsed.packages {
            let packagePath = Self.packagePath(entry.text, in: path)
            guard !loaded.contains(packagePath) else { continue }
            try await loadPackage(entry, at: packagePath, into: &registry, gate: gate, building: true, progress: progress)
            loaded.insert(packagePath)
        }
        return WorkflowLoader(registry: registry, loadedPackages: loaded, packages: packages)
    }

    /// This loader with those of `file`'s packages loaded that are trusted and built for their
    /// sources as they are now — nothing is built or asked, for an editor (Docs/Editors.md) —
    /// and why each other one is not.
    /// `@concurrent`: an editor's server asks from its actor, which it would hold up for the parse.
    @concurrent
    public func loadingBuiltPackages(of file: SourceFile, gate: AccessGate) async -> (loader: WorkflowLoader, failures: [PackageLoadFailure]) {
        guard let parsed = WorkflowParser.parse(file, entityTypes: registry.entityTypes).workflow, !parsed.packages.isEmpty else { return (self, []) }
        var registry = registry
        var loaded = loadedPackages
        var failures: [PackageLoadFailure] = []
        for entry in parsed.packages {
            let packagePath = Self.packagePath(entry.text, in: file.path)
            guard !loaded.contains(packagePath) else { continue }
            do throws(PackageLoadFailure) {
                try await loadPackage(entry, at: packagePath, into: &registry, gate: gate, building: false, progress: { _ in })
                loaded.insert(packagePath)
            } catch {
                failures.append(error)
            }
        }
        return (WorkflowLoader(registry: registry, loadedPackages: loaded, packages: packages), failures)
    }

    /// Registers the package a `packages:` entry names, once `gate` trusts it; built if
    /// `building` and it is not built for its sources yet.
    private func loadPackage(
        _ entry: Name, at packagePath: String, into registry: inout ActionRegistry, gate: AccessGate, building: Bool,
        progress: @escaping @Sendable (String) -> Void
    ) async throws(PackageLoadFailure) {
        let package = try await hostedPackage(entry, at: packagePath, gate: gate, building: building, progress: progress)
        do {
            try registry.register(hosted: package)
        } catch {
            throw PackageLoadFailure(diagnostic: .error("cannot load the package '\(entry.text)': \(error)", at: entry.range))
        }
    }

    private func hostedPackage(
        _ entry: Name, at packagePath: String, gate: AccessGate, building: Bool, progress: @escaping @Sendable (String) -> Void
    ) async throws(PackageLoadFailure) -> HostedPackage {
        // A path with no package is a mistake in the workflow, found before anything is built.
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: packagePath, isDirectory: &isFolder), isFolder.boolValue,
            FileManager.default.fileExists(atPath: packagePath + "/Package.swift")
        else {
            let why = FileManager.default.fileExists(atPath: packagePath) ? "it has no Package.swift" : "it does not exist"
            throw PackageLoadFailure(
                diagnostic: .error("cannot load the package '\(entry.text)': there is no Swift package at '\(packagePath)': \(why)", at: entry.range),
                isInvalidWorkflow: true)
        }
        // Nothing of a package is built or run before it is trusted (Docs/Security.md, "Packages").
        do throws(AccessDenied) {
            try await gate.authorize(Access(.packages, ResolvedPath.resolve(packagePath)))
        } catch {
            throw PackageLoadFailure(
                diagnostic: .error("the package '\(entry.text)' is not trusted: \(error.trustAdvice)", at: entry.range), denial: error)
        }
        gate.executes(.package(path: ResolvedPath.resolve(packagePath)))
        do {
            if building { return try await packages.package(at: packagePath, progress: progress) }
            guard let package = try await packages.builtPackage(at: packagePath) else {
                throw PackageLoadFailure(
                    diagnostic: .error(
                        "the package '\(entry.text)' is not built for its sources as they are now: 'relay check' of this workflow builds it, or 'relay package build \(ShellQuoting.quoted(entry.text))'",
                        at: entry.range), isNotBuilt: true)
            }
            return package
        } catch let error as PackageLoadFailure {
            throw error
        } catch {
            throw PackageLoadFailure(diagnostic: .error("cannot load the package '\(entry.text)': \(error)", at: entry.range))
        }
    }

    /// Reads a UTF-8 text file, with a message fit for users on failure: a folder, a FIFO, a
    /// device or a socket is refused without being read, a file over `limit` bytes without being
    /// read, and text that is not UTF-8 names the first bad byte's place.
    public static func readText(_ path: String, limit: Int? = nil) throws(FileReadError) -> String {
        let handle = try openRegularFile(path, limit: limit, what: "a workflow file")
        defer { try? handle.close() }
        let data: Data
        do {
            // Never more than the limit, even from a file that grows while it is read.
            data = try handle.read(upToCount: limit.map { $0 + 1 } ?? Int.max) ?? Data()
        } catch {
            throw FileReadError(message: "cannot read '\(path)': \(error.localizedDescription)")
        }
        if let limit, data.count > limit {
            throw FileReadError(message: "'\(path)' is over \(ByteCount.text(Int64(limit))), the most a workflow file may be")
        }
        return try decode(data, path: path)
    }

    /// The file at `path`, open for reading when it is a regular file of at most `limit` bytes.
    /// It is opened without waiting and then looked at, not looked at and then opened: a FIFO
    /// put in its place between the two would hold the open until something wrote to it.
    static func openRegularFile(_ path: String, limit: Int?, what: String) throws(FileReadError) -> FileHandle {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw FileReadError(message: "no such file: '\(path)'") }
            if errno == EISDIR { throw FileReadError(message: "'\(path)' is a folder, not \(what)") }
            throw FileReadError(message: "cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw FileReadError(message: "cannot read '\(path)': \(reason)")
        }
        let problem: String? =
            switch info.st_mode & S_IFMT {
            case S_IFREG: limit.flatMap { info.st_size > $0 ? "'\(path)' is \(ByteCount.text(Int64(info.st_size))); \(what) may be at most \(ByteCount.text(Int64($0)))" : nil }
            case S_IFDIR: "'\(path)' is a folder, not \(what)"
            case S_IFIFO: "'\(path)' is not a regular file (it is a FIFO)"
            case S_IFCHR, S_IFBLK: "'\(path)' is not a regular file (it is a device)"
            case S_IFSOCK: "'\(path)' is not a regular file (it is a socket)"
            default: "'\(path)' is not a regular file"
            }
        if let problem {
            close(descriptor)
            throw FileReadError(message: problem)
        }
        // A regular file's reads wait as ever.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// `data` as UTF-8 text, or an error at the first byte that is not.
    static func decode(_ data: Data, path: String) throws(FileReadError) -> String {
        // A UTF-8 byte order mark (which editors on Windows write) is no part of the text.
        let bytes = data.starts(with: [0xEF, 0xBB, 0xBF]) ? [UInt8](data.dropFirst(3)) : [UInt8](data)
        if let encoding = Self.unicodeEncoding(fromMark: bytes) {
            throw FileReadError(message: "'\(path)' is \(encoding) text (it starts with a byte order mark); save it as UTF-8")
        }
        guard let bad = UTF8Validation.firstInvalidByte(in: bytes) else { return String(decoding: bytes, as: UTF8.self) }
        let before = bytes[..<bad]
        let line = before.reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
        let lineStart = before.lastIndex(of: 10).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<bad], as: UTF8.self).count + 1
        let hex = String(bytes[bad], radix: 16, uppercase: true)
        throw FileReadError(
            message: "'\((path as NSString).lastPathComponent)' is not UTF-8 text: byte 0x\(hex.count == 1 ? "0" + hex : hex) at line \(line), column \(column) is not part of a UTF-8 character",
            position: (line, column), text: String(decoding: bytes, as: UTF8.self))
    }

    /// UTF-16 or UTF-32, when `bytes` start with their byte order mark.
    private static func unicodeEncoding(fromMark bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFF, 0xFE, 0, 0]) || bytes.starts(with: [0, 0, 0xFE, 0xFF]) { return "UTF-32" }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return "UTF-16" }
        return nil
    }
}

/// A package of a workflow's `packages:` that could not be loaded.
public struct PackageLoadFailure: Error, Sendable {
    public let diagnostic: Diagnostic
    /// Whether the workflow itself is wrong (a `packages:` path with no package: exit 2) rather
    /// than the package failing to build or start (exit 1).
    public var isInvalidWorkflow = false
    /// The trust that was not given, when that is why: exit status 4.
    public var denial: AccessDenied?
    /// Whether the package is trusted but not built for its sources (when nothing was to be built).
    public var isNotBuilt = false
}

/// A file that could not be read; for text that is not UTF-8, where the first bad byte is and the
/// text as best it decodes, so a diagnostic can show the line.
public struct FileReadError: Error, Sendable {
    public let message: String
    public var position: (line: Int, column: Int)?
    public var text: String?

    public init(message: String, position: (line: Int, column: Int)? = nil, text: String? = nil) {
        self.message = message
        self.position = position
        self.text = text
    }
}

/// The results of checking workflow files, kept with the text they were checked from (at most 64).
private final class CheckedFiles: @unchecked Sendable {
    typealias Result = (workflow: CheckedWorkflow?, diagnostics: [Diagnostic])
    private let lock = NSLock()
    private var results: [String: (text: String, result: Result)] = [:]

    func result(for key: String, text: String) -> Result? {
        lock.withLock {
            guard let known = results[key], known.text == text else { return nil }
            return known.result
        }
    }

    func keep(_ result: Result, for key: String, text: String) {
        lock.withLock {
            if results.count >= 64 { results.removeAll() }
            results[key] = (text, result)
        }
    }
}
