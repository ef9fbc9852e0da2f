import Foundation
import RelayKit
import RelayEngine

/// What a person allowed "always", and the packages they trust, kept between runs under
/// `$XDG_STATE_HOME/relay` (Docs/Security.md, "How grants are kept"). A workflow's grants are
/// pinned to its path and the hash of its content, a package's trust to its path and the hash of
/// its files: an edited workflow or package is asked about again.
public struct GrantStore: Sendable {
    public let root: URL

    public init(root: URL = UndoHistory.defaultRoot) { self.root = root }

    /// What is kept for one workflow.
    public struct WorkflowGrants: Codable, Sendable {
        public var workflow: String
        /// The hash of the workflow's content when the grants were given.
        public var content: String
        public var grants: [Grant]
        /// What the runs that gave the grants executed besides the workflow — the workflows
        /// `run-workflow` loaded and the packages it names — with their hashes then: the grants
        /// apply only while each is unchanged.
        public var pins: [Pin]? = nil
    }

    /// A sub-workflow or package a workflow's grants are pinned to, with its hash.
    public struct Pin: Codable, Sendable, Hashable {
        public var kind: String
        public var path: String
        public var hash: String

        /// The pin of `executed` as it is now; nil without a hash function.
        public static func of(_ executed: AccessGate.Executed) -> Pin? {
            switch executed {
            case .workflow(let path, let content): ContentHash.of(content).map { Pin(kind: "workflow", path: path, hash: $0) }
            case .package(let path): filesHash(ofPackageAt: path).map { Pin(kind: "package", path: path, hash: $0) }
            }
        }

        /// Whether the file or package it names is still what it was.
        public var holds: Bool {
            switch kind {
            case "workflow": GrantStore.contentHash(ofFile: path) == hash
            case "package": GrantStore.filesHash(ofPackageAt: path) == hash
            default: false
            }
        }
    }

    /// One remembered access.
    public struct Grant: Codable, Sendable, Hashable {
        public var capability: String
        public var target: String
        public var access: Access? { Capability(rawValue: capability).map { Access($0, target) } }
    }

    private struct PackageTrust: Codable {
        var package: String
        var files: String
    }

    // MARK: Workflows

    /// The grants kept for the workflow at `path`, whether or not its content still matches.
    public func entry(forWorkflow path: String) -> WorkflowGrants? {
        let resolved = ResolvedPath.resolve(path)
        return read(WorkflowGrants.self, at: file(for: resolved, in: "grants")).flatMap { $0.workflow == resolved ? $0 : nil }
    }

    /// The grants that apply to the workflow at `path` as it is now: none once its content, or
    /// that of a sub-workflow or package it is pinned to, changed.
    public func grants(forWorkflow path: String) -> [Access] {
        let resolved = ResolvedPath.resolve(path)
        guard let entry = entry(forWorkflow: resolved), let content = Self.contentHash(ofFile: resolved), entry.content == content,
            (entry.pins ?? []).allSatisfy(\.holds)
        else { return [] }
        return entry.grants.compactMap(\.access)
    }

    /// The pins of the grants kept for the workflow at `path`, by kind and path.
    public func pins(forWorkflow path: String) -> [String: String] {
        Dictionary((entry(forWorkflow: path)?.pins ?? []).map { ("\($0.kind) \($0.path)", $0.hash) }, uniquingKeysWith: { $1 })
    }

    /// Keeps `access` for the workflow at `path` as it is now, pinned also to `pins`: what the run
    /// has executed besides it.
    /// `content` is the hash of the workflow as the run read it, when known: a file changed while
    /// its question waited is not what the answer is kept for.
    public func remember(_ access: Access, forWorkflow path: String, pins: [Pin] = [], content: String? = nil) throws(FileOperationError) {
        try update(forWorkflow: path, content: content) { entry in
            let grant = Grant(capability: access.capability.rawValue, target: access.target)
            if !entry.grants.contains(grant) { entry.grants.append(grant) }
            entry.pins = Self.merged(entry.pins ?? [], pins)
        }
    }

    /// Pins the grants kept for the workflow at `path` to `pin` too (a sub-workflow or package the
    /// run executes after a grant was remembered).
    public func pin(_ pin: Pin, forWorkflow path: String) throws(FileOperationError) {
        try update(forWorkflow: path) { entry in entry.pins = Self.merged(entry.pins ?? [], [pin]) }
    }

    private func update(forWorkflow path: String, content known: String? = nil, _ change: (inout WorkflowGrants) -> Void) throws(FileOperationError) {
        let resolved = ResolvedPath.resolve(path)
        let content = try Self.required(known ?? Self.contentHash(ofFile: resolved))
        var entry = entry(forWorkflow: resolved) ?? WorkflowGrants(workflow: resolved, content: content, grants: [])
        if entry.content != content { entry = WorkflowGrants(workflow: resolved, content: content, grants: []) }
        change(&entry)
        try write(entry, to: file(for: resolved, in: "grants"))
    }

    /// `old` with `new` added, a newer pin of the same file taking the place of an older one.
    private static func merged(_ old: [Pin], _ new: [Pin]) -> [Pin] {
        var pins = old
        for pin in new {
            pins.removeAll { $0.kind == pin.kind && $0.path == pin.path }
            pins.append(pin)
        }
        return pins.sorted { ($0.kind, $0.path) < ($1.kind, $1.path) }
    }

    /// Drops what is kept for the workflow at `path`; whether there was anything.
    @discardableResult
    public func revoke(workflow path: String) throws(FileOperationError) -> Bool {
        try remove(file(for: ResolvedPath.resolve(path), in: "grants"))
    }

    // MARK: Packages

    /// Whether the package at `path` is trusted as its files are now.
    public func trusts(package path: String) -> Bool {
        let resolved = ResolvedPath.resolve(path)
        guard let trust = read(PackageTrust.self, at: file(for: resolved, in: "packages")), trust.package == resolved else { return false }
        guard let files = Self.filesHash(ofPackageAt: resolved) else { return false }
        return trust.files == files
    }

    /// Trusts the package at `path` as its files are now.
    public func trust(package path: String) throws(FileOperationError) {
        let resolved = ResolvedPath.resolve(path)
        let files: String
        do throws(PackageSources.Failure) {
            files = try PackageSources.hash(ofPackageAt: resolved)
        } catch {
            throw FileOperationError(error.description)
        }
        try write(PackageTrust(package: resolved, files: files), to: file(for: resolved, in: "packages"))
    }

    /// Stops trusting the package at `path`; whether it was trusted.
    @discardableResult
    public func distrust(package path: String) throws(FileOperationError) -> Bool {
        try remove(file(for: ResolvedPath.resolve(path), in: "packages"))
    }

    // MARK: Hashes

    /// The hash of the file at `path`, or of nothing when it cannot be read; nil without a hash function.
    static func contentHash(ofFile path: String) -> String? {
        ContentHash.of(FileManager.default.contents(atPath: path) ?? Data())
    }

    /// `hash`, or an error saying nothing can be pinned without one.
    private static func required(_ hash: String?) throws(FileOperationError) -> String {
        guard let hash else {
            throw FileOperationError("cannot compute a SHA-256 hash (libcrypto.so.3 from Debian's libssl3 is missing), so nothing can be kept")
        }
        return hash
    }

    /// The hash of what the build of the package at `path` reads (`PackageSources`); nil when it
    /// cannot be trusted as it is (a link out of its folder) or there is no hash function.
    static func filesHash(ofPackageAt path: String) -> String? {
        try? PackageSources.hash(ofPackageAt: path)
    }

    // MARK: Storage

    /// Where what is kept for `path` goes: named by a `StableHash` of the path, which costs no
    /// library load on a run's start. The file holds the whole path, which is compared: two paths
    /// with one name would only take each other's place, never each other's grants.
    private func file(for path: String, in folder: String) -> URL {
        root.appendingPathComponent(folder).appendingPathComponent(String(StableHash.of(path), radix: 16) + ".json")
    }

    /// Why what is kept for the workflow at `path` is not believed (others may change it), with
    /// the `chmod` that fixes it; nil when it is its owner's alone or there is nothing.
    public func refusal(forWorkflow path: String) -> String? {
        PrivateState.problem(with: file(for: ResolvedPath.resolve(path), in: "grants").path, under: root.path)
    }

    /// The same of the trust kept for the package at `path`.
    public func refusal(forPackage path: String) -> String? {
        PrivateState.problem(with: file(for: ResolvedPath.resolve(path), in: "packages").path, under: root.path)
    }

    /// What is kept at `url`, if it is its owner's alone: a grant planted by another user, or in
    /// a folder others may write to, is not believed.
    private func read<T: Decodable>(_ type: T.Type, at url: URL) -> T? {
        guard PrivateState.problem(with: url.path, under: root.path) == nil, let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(type, from: data)
    }

    private func write<T: Encodable>(_ value: T, to url: URL) throws(FileOperationError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try PrivateState.makeFolder(url.deletingLastPathComponent().path)
            try AtomicFile.write(try encoder.encode(value), to: url.path, privateMode: true)
        } catch let error as FileOperationError {
            throw error
        } catch {
            throw FileOperationError("cannot keep the grant in '\(url.path)': \(error.localizedDescription)")
        }
    }

    private func remove(_ url: URL) throws(FileOperationError) -> Bool {
        guard FileManager.default.fileExists(atPath: url.path) else { return false }
        do {
            try FileManager.default.removeItem(at: url)
            return true
        } catch {
            throw FileOperationError("cannot remove '\(url.path)': \(error.localizedDescription)")
        }
    }
}
