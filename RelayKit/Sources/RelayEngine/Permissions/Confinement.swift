import Foundation
import RelayKit

/// What a package's host process may touch, as the kernel enforces it (Docs/Security.md, "What
/// the kernel confines"): the folders and files it may read, those it may change, and whether it
/// may open network connections. Paths are resolved (`ResolvedPath`); `/` stands for everywhere.
public struct Confinement: Sendable, Equatable {
    /// Paths the host may read (and run programs from).
    public var read: Set<String>
    /// Paths the host may read and change.
    public var write: Set<String>
    /// Whether the host may open TCP connections (the kernel tells ports apart, not hosts).
    public var network: Bool
    /// Whether the host may change nothing at all, not even its own data: a dry run's host.
    public var changesNothing: Bool

    public init(read: Set<String> = [], write: Set<String> = [], network: Bool = false, changesNothing: Bool = false) {
        self.read = read
        self.write = write
        self.network = network
        self.changesNothing = changesNothing
    }

    /// Whether everything `other` allows, this allows too (and a host that may change nothing
    /// stands in only for another such).
    public func covers(_ other: Confinement) -> Bool {
        changesNothing == other.changesNothing
            && (network || !other.network)
            && other.write.allSatisfy { path in write.contains { ResolvedPath.path(path, isWithin: $0) } }
            && other.read.allSatisfy { path in (read.union(write)).contains { ResolvedPath.path(path, isWithin: $0) } }
    }

    /// What both allow; nothing may be changed if either says so.
    public func union(_ other: Confinement) -> Confinement {
        let both = Confinement(read: read.union(other.read), write: write.union(other.write), network: network || other.network)
        return changesNothing || other.changesNothing ? both.readOnly : both
    }

    /// The same, without the paths that do not exist (yet): the kernel confines by what it can
    /// open, so a host started with a path that did not exist has no rule for it; comparing
    /// what exists tells when a host must be started again for a path that does now.
    public var existing: Confinement {
        let exists = { (path: String) in path == "/" || FileManager.default.fileExists(atPath: path) }
        return Confinement(read: read.filter(exists), write: write.filter(exists), network: network, changesNothing: changesNothing)
    }

    /// The same places to read, and nothing to change or connect to.
    public var readOnly: Confinement {
        Confinement(read: read.union(write), changesNothing: true)
    }

    /// The same, without paths that another path of the same kind (or, for reading, a path that
    /// may be written) already covers: the fewest rules for the kernel.
    public var simplified: Confinement {
        func outermost(_ paths: Set<String>, besides others: Set<String> = []) -> Set<String> {
            paths.filter { path in
                !others.contains { ResolvedPath.path(path, isWithin: $0) }
                    && !paths.contains { $0 != path && ResolvedPath.path(path, isWithin: $0) }
            }
        }
        let written = outermost(write)
        return Confinement(read: outermost(read, besides: written), write: written, network: network, changesNothing: changesNothing)
    }
}

extension AccessGate {
    /// What this run may touch now without asking, as a confinement for a package's host: what
    /// was granted, what is free (the workflow's folder, the scratch folder, files named on the
    /// command line) and every file or host allowed at a prompt so far. In a dry run, all of it
    /// to read only.
    public var confinement: Confinement {
        var confinement = Confinement()
        let (granted, free, answered) = snapshot()
        for capability in [Capability.read, .write] {
            var paths: Set<String>
            switch granted[capability] {
            case .everywhere?: paths = ["/"]
            case .only(let targets)?: paths = Set(targets)
            case nil: paths = []
            }
            paths.formUnion(free[capability, default: []])
            paths.formUnion(answered.filter { $0.capability == capability }.map(\.target))
            if capability == .read { confinement.read = paths } else { confinement.write = paths }
        }
        confinement.network = granted[.net] != nil || answered.contains { $0.capability == .net }
        // A place allowed to write may also be read.
        confinement.read.formUnion(answered.filter { $0.capability == .write }.map(\.target))
        return (isDryRun ? confinement.readOnly : confinement).simplified
    }
}
