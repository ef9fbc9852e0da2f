import ArgumentParser
import Foundation
import RelayKit
import RelayEngine
import RelayRuntime

/// `--allow-read[=PATH,…]`, `--allow-write[=PATH,…]`, `--allow-net[=HOST,…]`, `--allow-open[=SCHEME,…]`,
/// `--allow-run`, `--allow-packages`, `--allow-declared`, `--allow-all`: what a run may touch beyond what is free
/// (Docs/Security.md, "Granting on the command line"). Alone, a path or host flag grants everywhere.
struct PermissionOptions: ParsableArguments {
    @Option(name: .customLong("allow-read"), help: ArgumentHelp("Let the run read these files and folders (comma-separated; alone: any).", valueName: "path,…"))
    var read: [String] = []
    @Option(name: .customLong("allow-write"), help: ArgumentHelp("Let the run create, change, move and delete files in these paths (alone: anywhere).", valueName: "path,…"))
    var write: [String] = []
    @Option(name: .customLong("allow-net"), help: ArgumentHelp("Let the run connect to these hosts, HOST or HOST:PORT (alone: any).", valueName: "host,…"))
    var net: [String] = []
    @Option(name: .customLong("allow-open"), help: ArgumentHelp("Let the run hand URLs of these schemes to the system opener (https,mailto…; alone: any).", valueName: "scheme,…"))
    var open: [String] = []
    @Flag(name: .customLong("allow-run"), help: "Let the run start processes.") var run = false
    @Flag(name: .customLong("allow-packages"), help: "Let the run build and run the packages its workflow names.") var packages = false
    @Flag(name: .customLong("allow-declared"), help: "Let the run touch exactly what its workflow's 'permissions:' block declares.") var declared = false
    @Flag(name: .customLong("allow-all"), help: "Let the run touch anything (only for workflows you trust).") var all = false

    /// The value a bare `--allow-read` stands for, and `--allow-read=*` too: everywhere.
    static let everywhere = "*"

    /// The flags that take an optional value: written alone, they are given `everywhere`, so
    /// that the parser, which has no options with optional values, sees `--allow-read=*`.
    static let optionalValueFlags: Set<String> = ["--allow-read", "--allow-write", "--allow-net", "--allow-open"]

    /// `arguments` with each bare path or host flag given its "everywhere" value.
    static func completing(_ arguments: [String]) -> [String] {
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { return result + arguments[index...] }
            result.append(optionalValueFlags.contains(argument) ? argument + "=" + everywhere : argument)
        }
        return result
    }

    func validate() throws {
        for entry in (read + write).flatMap(Self.entries) where entry.contains("\u{0}") {
            throw ValidationError("a path to allow may not contain a NUL byte")
        }
        for host in net.flatMap(Self.entries) where host != Self.everywhere && Access.hostEntry(host) == nil {
            throw ValidationError("--allow-net takes host names, HOST:PORT or URLs, not '\(host)'")
        }
        for scheme in open.flatMap(Self.entries) where scheme != Self.everywhere && Access.scheme(scheme) == nil {
            throw ValidationError("--allow-open takes URL schemes such as https or mailto, not '\(scheme)'")
        }
    }

    /// What these flags grant.
    var granted: [Capability: GrantScope] {
        var granted: [Capability: GrantScope] = [:]
        func grant(_ capability: Capability, _ values: [String], _ normalize: (String) -> String?) {
            guard !values.isEmpty else { return }
            if all || values.contains(Self.everywhere) {
                granted[capability] = .everywhere
            } else {
                granted[capability] = .only(values.flatMap(Self.entries).compactMap(normalize))
            }
        }
        grant(.read, read) { $0 }
        grant(.write, write) { $0 }
        grant(.net, net, Access.hostEntry)
        grant(.open, open, Access.scheme)
        for (capability, on) in [(Capability.run, run), (.packages, packages)] where on || all {
            granted[capability] = .everywhere
        }
        if all { for capability in Capability.allCases { granted[capability] = .everywhere } }
        return granted
    }

    private static func entries(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
