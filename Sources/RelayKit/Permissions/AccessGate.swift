import Foundation

/// What a run may touch without asking, by capability: everywhere, or within some paths (for
/// `read` and `write`) or hosts (for `net`).
public enum GrantScope: Sendable, Equatable {
    case everywhere
    case only([String])
}

/// A need that was not granted: the step fails before it changes anything, and the run ends
/// with exit status 4 (Docs/Security.md, "At run time").
public struct AccessDenied: Error, Sendable, CustomStringConvertible {
    public let access: Access
    /// Why: refused at the prompt, or no terminal to ask on.
    public let refused: Bool
    /// The package whose host the kernel stopped from doing it (Docs/Security.md, "What the
    /// kernel confines"), when that is how it was found.
    public let confinedPackage: String?

    public init(access: Access, refused: Bool, confinedPackage: String? = nil) {
        self.access = access
        self.refused = refused
        self.confinedPackage = confinedPackage
    }

    /// For a package: how to trust it.
    public var trustAdvice: String {
        let why = refused ? "it was refused" : "nothing of it is built or run until it is"
        return "\(why); to trust it, run 'relay package trust \(access.shownTarget)', or run with --allow-packages"
    }

    public var description: String {
        if access.capability == .packages { return "the package \(access.shownTarget) is not trusted: " + trustAdvice }
        let why =
            if let confinedPackage {
                "the kernel refused it: the package '\(confinedPackage)' may touch only what the run was granted"
            } else if refused { "it was refused" } else { "it was not granted and there is no terminal to ask on" }
        return "needs to \(access.phrase), and \(why); to grant it, run with \(access.grantingFlag)"
    }
}

/// How a person answers "Allow … ?".
public enum GrantAnswer: Sendable {
    /// For this run only.
    case once
    /// For this run, and remembered for this workflow while its content stays the same.
    case always
    case no
}

/// The one gate a run's file reads and writes, requests, opens, processes and packages go
/// through (Docs/Security.md, "At run time"). It holds what the command line granted, what is free
/// (the workflow's folder to read, the scratch folder, files named on the command line), what a
/// person answered at a prompt, and the last denial, which ends the run with exit status 4.
public final class AccessGate: @unchecked Sendable {
    /// Asks a person whether to allow `access`; nil when nobody can be asked.
    public typealias Asker = @Sendable (_ access: Access) async -> GrantAnswer?

    private let lock = NSLock()
    private var granted: [Capability: GrantScope]
    private var free: [Capability: [String]] = [:]
    private var answered: [Access: Bool] = [:]
    private var lastDenial: AccessDenied?
    private let asker: Asker?

    /// A gate that allows what `granted` says, plus what is added as free; it asks `asker`, when
    /// there is one, about the rest (the asker keeps an "always" answer for later runs).
    public init(granted: [Capability: GrantScope] = [:], asker: Asker? = nil) {
        var resolved: [Capability: GrantScope] = [:]
        for (capability, scope) in granted {
            switch (capability, scope) {
            case (.read, .only(let paths)), (.write, .only(let paths)):
                resolved[capability] = .only(paths.map(ResolvedPath.resolve))
            case (.net, .only(let hosts)):
                resolved[capability] = .only(hosts.map { $0.lowercased() })
            default:
                resolved[capability] = scope
            }
        }
        self.granted = resolved
        self.asker = asker
    }

    /// A gate that allows everything: for tools and tests that run no one else's workflow.
    public static var unrestricted: AccessGate {
        AccessGate(granted: Dictionary(uniqueKeysWithValues: Capability.allCases.map { ($0, GrantScope.everywhere) }))
    }

    /// Lets the run `capability` (`read`, `write` or `packages`) `path` and what is inside it without asking.
    public func allowFreely(_ capability: Capability, _ path: String) {
        let resolved = ResolvedPath.resolve(path)
        lock.withLock { free[capability, default: []].append(resolved) }
    }

    /// Allows exactly `access` for the rest of the run (a grant remembered from an earlier run).
    public func allow(_ access: Access) {
        lock.withLock { answered[access] = true }
    }

    /// What was granted, what is free, and what was allowed at a prompt, at this moment.
    func snapshot() -> (granted: [Capability: GrantScope], free: [Capability: [String]], allowed: [Access]) {
        lock.withLock { (granted, free, answered.filter(\.value).map(\.key)) }
    }

    /// Whether `access` is allowed without asking.
    public func allows(_ access: Access) -> Bool {
        lock.withLock { allowsLocked(access) }
    }

    private func allowsLocked(_ access: Access) -> Bool {
        if answered[access] == true { return true }
        let paths = [.read, .write, .packages].contains(access.capability)
        // Whatever may be written may also be read: an edit reads what it replaces.
        let relevant: [Capability] = access.capability == .read ? [.read, .write] : [access.capability]
        for capability in relevant {
            if paths, free[capability, default: []].contains(where: { ResolvedPath.path(access.target, isWithin: $0) }) { return true }
            switch granted[capability] {
            case .everywhere?: return true
            case .only(let targets)?:
                if paths, targets.contains(where: { ResolvedPath.path(access.target, isWithin: $0) }) { return true }
                if access.capability == .net, targets.contains(where: { Self.host($0, matches: access.target) }) { return true }
                if access.capability == .open, targets.contains(where: { access.target.hasPrefix($0) }) { return true }
                if access.capability == .run, targets.contains(access.target) { return true }
            case nil: break
            }
        }
        return false
    }

    /// Allows `access` or throws: granted, free or allowed earlier in the run goes through; else a
    /// person is asked when there is one. A denial is kept: the run ends with it.
    public func authorize(_ access: Access) async throws(AccessDenied) {
        if allows(access) { return }
        if lock.withLock({ answered[access] == false }) { throw deny(access, refused: true) }
        guard let asker, let answer = await asker(access) else { throw deny(access, refused: false) }
        switch answer {
        case .once:
            lock.withLock { answered[access] = true }
        case .always:
            lock.withLock { answered[access] = true }
        case .no:
            lock.withLock { answered[access] = false }
            throw deny(access, refused: true)
        }
    }

    /// The last need denied and not yet taken: an action may have retold the denial as an error of
    /// its own, and the run still ends with it.
    public func takeDenial() -> AccessDenied? {
        lock.withLock {
            defer { lastDenial = nil }
            return lastDenial
        }
    }

    private func deny(_ access: Access, refused: Bool) -> AccessDenied {
        let denial = AccessDenied(access: access, refused: refused)
        lock.withLock { lastDenial = denial }
        return denial
    }

    /// Whether a `--allow-net` entry covers `host`: the same name, on any port unless the entry names one.
    public static func host(_ entry: String, matches host: String) -> Bool {
        let bare = entry.hasSuffix("]") || !entry.contains(":")
        return entry == host || (bare && host.hasPrefix(entry + ":"))
    }
}
