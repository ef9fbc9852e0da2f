/// What an action may touch outside the values it is given (Docs/Security.md): files to read or
/// to write (create, change, move, delete), hosts on the network, URLs handed to the system
/// opener, processes it starts, and packages whose code it builds and runs. An action declares its
/// capabilities with its parameters — `@Parameter(access: .write) var to: FileReference` says the
/// path in `to` is written — or, for what no parameter names, in `Intent.capabilities`.
public enum Capability: String, Sendable, CaseIterable, Comparable {
    case read, write, net, open, run, packages

    public static func < (lhs: Capability, rhs: Capability) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }

    /// Whether using it changes something outside the run — a file written, a request sent, a URL
    /// opened, a process started — which a dry run never does. Reading does not, and neither does
    /// loading a trusted package (its host is then confined to reading).
    public var hasEffects: Bool { [.write, .net, .open, .run].contains(self) }

    /// What the capability lets an action do, for people.
    public var summary: String {
        switch self {
        case .read: "read files"
        case .write: "create, change, move or delete files"
        case .net: "connect to hosts on the network"
        case .open: "hand URLs to the system opener"
        case .run: "start processes"
        case .packages: "build and run a package's code"
        }
    }
}
