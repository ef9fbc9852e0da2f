import Foundation
import RelayKit

/// What a run may touch without asking, by capability: everywhere, or within some paths (for
/// `read` and `write`) or hosts (for `net`).
public enum GrantScope: Sendable, Equatable {
    case everywhere
    case only([String])
}

/// A need that was not granted: the step fails before it changes anything, and the run ends
/// with exit status 4 (Docs/Security.md, "At run time"). In a dry run, what the step would change,
/// send or open: the step is skipped and the run goes on.
public struct AccessDenied: Error, Sendable, CustomStringConvertible {
    /// Why a need was not met.
    public enum Reason: Sendable, Equatable {
        /// Not granted, and there is no terminal to ask on.
        case notAsked
        /// Refused at the prompt.
        case refused
        /// The kernel stopped the host of this package (Docs/Security.md, "What the kernel confines").
        case confined(package: String)
        /// A dry run changes, sends and opens nothing; `granted` says whether a real run could.
        case dryRun(granted: Bool)
        /// The step holds the secret `name`, which the workflow pins to `places`: its hosts, then
        /// its folders and programs as a person reads them (Docs/Runs.md, "Secrets").
        case secretPinned(name: String, places: [String])
    }

    public let access: Access
    public let reason: Reason
    /// Whether the advice may name `--allow-…` flags: not for a command that takes none (`relay check`).
    public var advisesFlags = true
    /// Whether the flag it suggests grants the need's place (its folder; Docs/Security.md, "Asking
    /// once") rather than the need itself: for a need found only at run time.
    public var suggestsPlace = true
    /// Whether what it names (the file, the folder, the host, the URL) is made from a secret: then
    /// it is shown as `•••`, in the flag it suggests too.
    public var hidesTarget = false

    public init(access: Access, reason: Reason) {
        self.access = access
        self.reason = reason
    }

    /// Whether a person refused it at the prompt.
    public var refused: Bool { reason == .refused }

    /// Whether this is a dry run's skip rather than a failure.
    public var isDryRun: Bool { if case .dryRun = reason { true } else { false } }

    /// For a package: how to trust it.
    public var trustAdvice: String {
        let why = refused ? "it was refused" : "nothing of it is built or run until it is"
        let trust = "run 'relay package trust \(ShellQuoting.quoted(access.shownTarget))'"
        return "\(why); to trust it, \(trust)" + (advisesFlags ? ", or run with --allow-packages" : "")
    }

    public var description: String {
        guard hidesTarget else { return plainDescription }
        var text = plainDescription
        for target in Set([access.target, access.shownTarget, access.place.target, access.place.shownTarget]).sorted(by: { $0.count > $1.count })
        where !target.isEmpty {
            text = text.replacingOccurrences(of: target, with: RunSecrets.mask)
        }
        return text
    }

    private var plainDescription: String {
        if case .secretPinned(let name, let places) = reason {
            let pinned = places.isEmpty ? "to no host" : "to \(places.joined(separator: ", "))"
            return "refused to \(access.phrase) in a step given the secret \(name): the workflow's 'permissions:' pins it \(pinned), "
                + "and what is made from a pinned secret goes only where its pin says, never to another host, file, program or package"
        }
        if access.capability == .packages { return "the package \(access.shownTarget) is not trusted: " + trustAdvice }
        let why: String
        switch reason {
        case .notAsked: why = "it was not granted and there is no terminal to ask on"
        case .refused: why = "it was refused"
        case .confined(let package): why = "the kernel refused it: the package '\(package)' may touch only what the run was granted"
        case .dryRun(let granted):
            return "would \(access.phrase)" + (granted ? "" : " (not granted: a real run needs \(access.grantingFlag))")
        case .secretPinned: why = ""
        }
        // Not asked: the flag grants the place, so the next run does not stop at the next file.
        let flag = reason == .notAsked && suggestsPlace ? access.place.grantingFlag : access.grantingFlag
        return "needs to \(access.phrase), and \(why); to grant it, run with \(flag)"
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
    /// The gate of the run under way, bound for its tasks: what a package's host may be let at
    /// when it is asked for something outside any step's context (a file property a filter reads).
    @TaskLocal public static var running: AccessGate?

    /// Asks a person whether to allow `access`; nil when nobody can be asked.
    public typealias Asker = @Sendable (_ access: Access) async -> GrantAnswer?

    private let lock = NSLock()
    private var granted: [Capability: GrantScope]
    private var free: [Capability: [String]] = [:]
    /// The places a person allowed at a prompt, or that were allowed for the run (each covers what
    /// is inside it: `Access.covers`), and the needs a person refused.
    private var allowedPlaces: [Access] = []
    /// Which of `allowedPlaces` the command line allowed (`withdrawCommandLine`).
    private var commandLinePlaces: Set<Access> = []
    private var refused: Set<Access> = []
    /// What was allowed "always" in an earlier run of this workflow: it holds only while the run
    /// executes what it executed then (`executes`).
    private var remembered: [Access] = []
    private var executionObservers: [@Sendable (Executed) -> Void] = []
    private var writeObservers: [@Sendable (String) -> Void] = []
    private var lastDenial: AccessDenied?
    /// The grants that let an access through (`grantsUsed`).
    private var used: Set<Access> = []
    private let asker: Asker?
    /// Whether this is a dry run's gate: it lets nothing be changed, sent or opened
    /// (Docs/Security.md, "A dry run").
    public let isDryRun: Bool
    /// Whether the command this gate belongs to takes `--allow-…` flags, which denials then name.
    public let advisesFlags: Bool

    /// A gate that allows what `granted` says, plus what is added as free; it asks `asker`, when
    /// there is one, about the rest (the asker keeps an "always" answer for later runs). A dry
    /// run's gate refuses every change, request, opening and process, without asking.
    /// The run's secrets: where each may be sent is checked here.
    public let secrets = RunSecrets()

    public init(granted: [Capability: GrantScope] = [:], asker: Asker? = nil, dryRun: Bool = false, advisesFlags: Bool = true) {
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
        isDryRun = dryRun
        self.advisesFlags = advisesFlags
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

    /// Allows `place` — a file or folder and what is inside it, a host, a scheme — for the rest of
    /// the run (a yes to the question asked before the first step; or what the command line's
    /// `--allow-declared` grants, `fromCommandLine`).
    public func allow(_ place: Access, fromCommandLine: Bool = false) {
        lock.withLock {
            allowedPlaces.append(place)
            if fromCommandLine { commandLinePlaces.insert(place) }
        }
    }

    /// Stops allowing what the command line granted (its `--allow-…` flags): a run started again
    /// with an earlier run's flags executes something that run did not (`relay runs rerun`).
    /// What was answered at a prompt, and what is free, stays.
    public func withdrawCommandLine() {
        lock.withLock {
            granted = [:]
            allowedPlaces.removeAll { commandLinePlaces.contains($0) }
        }
    }

    /// Allows `accesses`, remembered from an earlier run, until `withdrawRemembered`.
    public func allowRemembered(_ accesses: [Access]) {
        lock.withLock { remembered += accesses }
    }

    /// Stops allowing what was remembered from earlier runs: the run executes something that is
    /// not what those grants were given for. What was granted otherwise stays.
    public func withdrawRemembered() {
        lock.withLock { remembered = [] }
    }

    /// Whether grants remembered from an earlier run are in force.
    public var hasRemembered: Bool { lock.withLock { !remembered.isEmpty } }

    /// Code a run executes besides the workflow it was started with: a workflow `run-workflow`
    /// loads, with the text it runs, or a package the workflow names. Remembered grants are pinned
    /// to all of it (Docs/Security.md, "How grants are kept").
    public enum Executed: Sendable {
        case workflow(path: String, content: Data)
        case package(path: String)
    }

    /// Calls `observer` with everything the run executes from now on (the grants' pins, and the
    /// run history's, which `relay runs rerun` checks).
    public func observeExecution(_ observer: @escaping @Sendable (Executed) -> Void) {
        lock.withLock { executionObservers.append(observer) }
    }

    /// Calls `observer` with each path the run is let write, as it is let (a server that watches
    /// a folder knows a file the run itself wrote there).
    public func observeWrites(_ observer: @escaping @Sendable (String) -> Void) {
        lock.withLock { writeObservers.append(observer) }
    }

    private func allowedWrite(_ access: Access) {
        guard access.capability == .write else { return }
        for observer in lock.withLock({ writeObservers }) { observer(access.target) }
    }

    /// Tells the gate that the run is about to execute `executed` (before its first step runs).
    public func executes(_ executed: Executed) {
        for observer in lock.withLock({ executionObservers }) { observer(executed) }
    }

    /// What was granted, what is free, and what was allowed at a prompt, at this moment.
    func snapshot() -> (granted: [Capability: GrantScope], free: [Capability: [String]], allowed: [Access]) {
        lock.withLock { (granted, free, allowedPlaces + remembered) }
    }

    /// Whether `access` is allowed without asking.
    public func allows(_ access: Access) -> Bool {
        lock.withLock { allowsLocked(access) }
    }

    private func allowsLocked(_ access: Access) -> Bool { coverLocked(access) != nil }

    /// What lets `access` through: a place that is free, or a grant.
    private enum Cover {
        case free
        case grant(Access)
    }

    private func coverLocked(_ access: Access) -> Cover? {
        // One rule for what a place covers (`Access.covers`), whether it was granted on the command
        // line, is free, was answered at a prompt or was remembered; writing a place covers reading it.
        if let place = allowedPlaces.first(where: { $0.covers(access) }) ?? remembered.first(where: { $0.covers(access) }) {
            return .grant(place)
        }
        let relevant: [Capability] = access.capability == .read ? [.read, .write] : [access.capability]
        for capability in relevant {
            if free[capability, default: []].contains(where: { Access(capability, $0).covers(access) }) { return .free }
            switch granted[capability] {
            case .everywhere?: return .grant(Access(capability, "*"))
            case .only(let targets)?:
                if let target = targets.first(where: { Access(capability, $0).covers(access) }) { return .grant(Access(capability, target)) }
            case nil: break
            }
        }
        return nil
    }

    /// The folder (or file) granted or free for `capability` that holds `path`, as the grant
    /// names it; nil when none does, or the grant is for everywhere.
    public func place(holding path: String, for capability: Capability) -> String? {
        let access = Access(capability, path)
        let cover: Cover? = lock.withLock { coverLocked(access) }
        switch cover {
        case .grant(let place)? where place.target != "*": return place.target
        case .free?:
            return lock.withLock { free[capability, default: []].filter { Access(capability, $0).covers(access) }.max { $0.count < $1.count } }
        default: return nil
        }
    }

    /// The grants that let this run's accesses through so far — each grant once, whether given on
    /// the command line, at a prompt or remembered (`*` for a capability granted everywhere) —
    /// for the run history. What is free is not among them.
    public var grantsUsed: [Access] {
        lock.withLock { used.sorted { ($0.capability.rawValue, $0.target) < ($1.capability.rawValue, $1.target) } }
    }

    /// Allows `access` or throws: granted, free or allowed earlier in the run goes through; else a
    /// person is asked when there is one. A denial is kept: the run ends with it.
    public func authorize(_ access: Access) async throws(AccessDenied) {
        var carried = RunSecrets.carried
        if secrets.hasLabelledFiles, let reads = RunSecrets.stepReads {
            // A file the run wrote from a secret is that secret's: what the step makes from it,
            // writes or sends is held to its pins — whether it reads it, or moves or renames it
            // (a change of the file, which takes its secrets where it goes).
            if access.capability == .read || access.capability == .write { reads.add(SecretNames(secrets.names(readingFrom: access.target))) }
            // A program reads what it likes within the run's grants: it is given every such file.
            if access.capability == .run { reads.add(SecretNames(labelledSecretsReadable())) }
            let read = reads.all
            if !read.isEmpty { carried.formUnion(read.names) }
        }
        // A dry run holds a secret to its pins as a real run does; what it would touch, made
        // from a secret, it names as •••.
        if !carried.isEmpty { try refusePinned(carried, access) }
        if isDryRun, access.capability.hasEffects, !isRelaysOwn(access) {
            var denial = deny(access, reason: .dryRun(granted: allows(access)))
            denial.hidesTarget = !carried.isEmpty
            throw denial
        }
        if !carried.isEmpty, access.capability == .write { secrets.noteWritten(access.target, names: carried) }
        let allowed: Bool = lock.withLock {
            switch coverLocked(access) {
            case .free?: return true
            case .grant(let grant)?:
                used.insert(grant)
                return true
            case nil: return false
            }
        }
        if allowed {
            allowedWrite(access)
            return
        }
        // A need found only now is asked for its place: the folder of a file, so that the files
        // beside it are not asked about one by one (Docs/Security.md, "At run time").
        let place = access.place
        if lock.withLock({ refused.contains(place) }) { throw deny(access, reason: .refused) }
        guard let asker, let answer = await asker(place) else { throw deny(access, reason: .notAsked) }
        switch answer {
        case .once, .always:
            lock.withLock {
                allowedPlaces.append(place)
                used.insert(place)
            }
            allowedWrite(access)
        case .no:
            lock.withLock { _ = refused.insert(place) }
            throw deny(access, reason: .refused)
        }
    }

    /// The secrets of the files the run wrote from them that a program or a package's host could
    /// read now: those still there within what the run may read (its grants, its scratch folder,
    /// what is free), where the kernel lets it read as the run may (Docs/Security.md, "Programs").
    public func labelledSecretsReadable() -> Set<String> {
        var names: Set<String> = []
        for file in secrets.existingLabelledFiles() where !file.names.isSubset(of: names) {
            let readable = lock.withLock { coverLocked(Access(.read, file.path)) != nil }
            if readable { names.formUnion(file.names) }
        }
        return names
    }

    /// Refuses `access` by a step that holds the secrets `carried` when one of them is pinned to
    /// hosts and the access would send it elsewhere (Docs/Runs.md, "Secrets").
    public func refuseCarried(_ carried: Set<String>, to access: Access) throws(AccessDenied) {
        try refusePinned(carried, access)
    }

    /// Refuses `access` by a step that holds a pinned secret, when the access takes it elsewhere
    /// than the pin says: to another host, a file outside the run's own and the pin's folders, a
    /// program the pin does not name, or a package.
    private func refusePinned(_ carried: Set<String>, _ access: Access) throws(AccessDenied) {
        guard access.capability != .read, !isRelaysOwn(access) else { return }
        for name in carried.sorted() {
            guard let pin = secrets.pins(of: name) else { continue }
            let allowed: Bool
            switch access.capability {
            case .net: allowed = pin.hosts.contains { Access.host($0, matches: access.target) }
            case .open:
                let host = URL(string: access.target).flatMap(Access.hostTarget)
                allowed = host.map { host in pin.hosts.contains { Access.host($0, matches: host) } } ?? false
            case .write: allowed = pin.folders.contains { Access(.write, $0).covers(access) }
            case .run:
                let program = (access.target as NSString).lastPathComponent
                allowed = pin.programs.contains { $0 == access.target || $0 == program }
            case .read, .packages: allowed = false
            }
            if allowed { continue }
            throw deny(access, reason: .secretPinned(name: name, places: pin.places))
        }
    }

    /// Whether `path` is where the run keeps its own files (the scratch folder).
    public func isRunsOwn(_ path: String) -> Bool { isRelaysOwn(Access(.write, path)) }

    /// Whether `access` writes where the run keeps its own files (the scratch folder), which a
    /// dry run writes as a real run does: nothing of the person's changes.
    private func isRelaysOwn(_ access: Access) -> Bool {
        access.capability == .write && lock.withLock { free[.write, default: []] }.contains { ResolvedPath.path(access.target, isWithin: $0) }
    }

    /// The last need denied and not yet taken: an action may have retold the denial as an error of
    /// its own, and the run still ends with it.
    public func takeDenial() -> AccessDenied? {
        lock.withLock {
            defer { lastDenial = nil }
            return lastDenial
        }
    }

    private func deny(_ access: Access, reason: AccessDenied.Reason) -> AccessDenied {
        var denial = AccessDenied(access: access, reason: reason)
        denial.advisesFlags = advisesFlags
        lock.withLock { lastDenial = denial }
        return denial
    }
}
