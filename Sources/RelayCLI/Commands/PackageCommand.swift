import ArgumentParser
import Foundation
import RelayKit
import RelayRuntime

/// `relay package …`: working with packages of actions.
struct PackageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "package", abstract: "Work with Swift packages of actions.", subcommands: [PackageInitCommand.self, PackageTrustCommand.self])
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
        guard FileManager.default.fileExists(atPath: source.appendingPathComponent("Sources/RelayKit").path) else {
            StandardStreams.writeError("error: no Relay checkout at '\(source.path)' (it has no Sources/RelayKit); pass --relay-source PATH\n")
            throw ExitStatus.runtimeError.exitCode
        }
        let files = PackageTemplate(name: name, relaySource: source.path).files
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

    /// The checkout this relay was built from.
    static let builtFrom = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}
