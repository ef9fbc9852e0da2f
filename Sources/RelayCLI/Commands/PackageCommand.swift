import ArgumentParser
import Foundation
import RelayKit
import RelayLanguage
import RelayRuntime

/// `relay package …`: working with packages of actions.
struct PackageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "package", abstract: "Work with Swift packages of actions.", subcommands: [PackageInitCommand.self, PackageBuildCommand.self, PackageTrustCommand.self])
}

/// `relay package build PATH`: builds a package's host now, optimized by default, so that later
/// runs start it at once and each call costs less (Docs/Packages.md, "Building").
struct PackageBuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build a package's host now: optimized, which every later run uses until the sources change.",
        discussion: """
            A run builds the debug host by itself, which is quick to build and to rebuild after an edit. \
            Build the optimized one before a package runs unattended or in loops of many calls.
            """)

    @Argument(help: "The package's folder.") var path: String
    @Flag(help: "Build the debug host instead, as a run would.") var debug = false

    func run() async throws {
        let folder = ResolvedPath.resolve(FileReference(path: path).originalPath)
        let host: URL
        do throws(HostError) {
            host = try await PackageBuilder.build(packageAt: folder, as: debug ? .debug : .release, progress: PackageOptions.showProgress)
        } catch {
            StandardStreams.writeError("error: \(error)\n")
            throw ExitStatus.runtimeError.exitCode
        }
        // Its actions' examples go into `relay describe` and the docs: each must check, with the
        // package loaded, as a workflow of its steps would.
        let loader = try await PackageOptions.loader(packages: [folder], namedByFlag: false)
        let problems = Self.exampleProblems(of: loader, package: folder)
        await loader.packages.closeAll()
        guard problems.isEmpty else {
            StandardStreams.writeError(problems.joined(separator: "\n") + "\n")
            StandardStreams.writeError("error: \(problems.count) example\(problems.count == 1 ? "" : "s") of the package do\(problems.count == 1 ? "es" : "") not check\n")
            throw ExitStatus.invalid.exitCode
        }
        StandardStreams.writeOutput("built: \(host.path)\n")
    }

    /// Each example of the package's actions that does not check: where it is written, which it
    /// is, and what `relay check` says of it.
    static func exampleProblems(of loader: WorkflowLoader, package folder: String) -> [String] {
        var problems: [String] = []
        for action in loader.registry.actions where action.source == folder {
            for (index, example) in action.examples.enumerated() {
                let text = "steps:\n" + example.steps.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n") + "\n"
                let (_, diagnostics) = loader.load(SourceFile(path: "example \(index + 1) of '\(action.name)'", text: text))
                for diagnostic in diagnostics where diagnostic.severity == .error {
                    let place = example.place.map { Self.shown($0, in: folder) + ": " } ?? ""
                    problems.append("\(place)error: example \(index + 1) of '\(action.name)' does not check: \(diagnostic.message)")
                }
            }
        }
        return problems
    }

    /// A Swift file's place, relative to the package's folder when it is inside it.
    private static func shown(_ place: String, in folder: String) -> String {
        place.hasPrefix(folder + "/") ? String(place.dropFirst(folder.count + 1)) : place
    }
}

/// `relay package trust PATH`: lets the workflows that name the package in `packages:` build and
/// run it, as its files are now (Docs/Security.md, "Packages").
struct PackageTrustCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract: "Trust a package of actions as its files are now, so that workflows naming it may build and run it.",
        discussion: "A changed file makes the package untrusted again. Nothing of the package is built or run by this command.")

    @Argument(help: "The package's folder.") var path: String
    @Flag(help: "Stop trusting the package.") var revoke = false

    func run() async throws {
        let folder = ResolvedPath.resolve(FileReference(path: path).originalPath)
        let store = GrantStore()
        guard revoke || FileManager.default.fileExists(atPath: folder + "/Package.swift") else {
            StandardStreams.writeError("error: there is no Swift package at '\(folder)' (it has no Package.swift)\n")
            throw ExitStatus.invalid.exitCode
        }
        do throws(FileOperationError) {
            if revoke {
                let was = try store.distrust(package: folder)
                StandardStreams.writeOutput(was ? "no longer trusted: \(folder)\n" : "was not trusted: \(folder)\n")
                return
            }
            try store.trust(package: folder)
            StandardStreams.writeOutput("trusted: \(folder) (until one of its files changes)\n")
        } catch {
            StandardStreams.writeError("error: \(error)\n")
            throw ExitStatus.runtimeError.exitCode
        }
    }
}

/// `relay package init NAME`: a ready-to-build package that `relay run --package NAME` uses at once.
struct PackageInitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Make a new package of actions: a manifest depending on RelayKit, one intent, one entity, a test and a README.")

    @Argument(help: "The package's name, a Swift type name such as BirdKit; also the folder made.") var name: String
    @Option(help: ArgumentHelp("The Relay checkout the package depends on (default: the one this relay was built from).", valueName: "path"))
    var relaySource: String?

    func validate() throws {
        guard let first = name.unicodeScalars.first, CharacterSet.letters.contains(first),
            name.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) })
        else {
            throw ValidationError("the name must be letters and digits, starting with a letter, such as BirdKit; not '\(name)'")
        }
    }

    func run() async throws {
        let folder = URL(fileURLWithPath: name).standardizedFileURL
        guard !FileManager.default.fileExists(atPath: folder.path) else {
            StandardStreams.writeError("error: '\(folder.path)' already exists; choose another name or remove it\n")
            throw ExitStatus.runtimeError.exitCode
        }
        let source = relaySource.map { URL(fileURLWithPath: FileReference(path: $0).originalPath).standardizedFileURL } ?? Self.builtFrom
        let relayKit = source.appendingPathComponent("RelayKit")
        guard FileManager.default.fileExists(atPath: relayKit.appendingPathComponent("Package.swift").path) else {
            StandardStreams.writeError("error: no Relay checkout at '\(source.path)' (it has no RelayKit/Package.swift); pass --relay-source PATH\n")
            throw ExitStatus.runtimeError.exitCode
        }
        let files = PackageTemplate(name: name, relayKitPath: Self.relativePath(of: relayKit.path, from: folder.path)).files
        do {
            for (path, text) in files {
                let file = folder.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: file, atomically: true, encoding: .utf8)
            }
        } catch {
            StandardStreams.writeError("error: cannot write the package: \(error.localizedDescription)\n")
            throw ExitStatus.runtimeError.exitCode
        }
        StandardStreams.writeOutput(
            "Made \(name)/ (\(files.count) files). Try it:\n  relay describe \(PackageTemplate.kebab(name)).greet --package \(name)\n")
    }

    /// `target` written relative to the folder `base` (both absolute): `../../src/relay/RelayKit`.
    static func relativePath(of target: String, from base: String) -> String {
        let to = URL(fileURLWithPath: target).standardizedFileURL.pathComponents
        let from = URL(fileURLWithPath: base).standardizedFileURL.pathComponents
        let shared = zip(to, from).prefix { $0 == $1 }.count
        let path = Array(repeating: "..", count: from.count - shared) + to[shared...]
        return path.isEmpty ? "." : path.joined(separator: "/")
    }

    /// The checkout this relay was built from.
    static let builtFrom = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}
