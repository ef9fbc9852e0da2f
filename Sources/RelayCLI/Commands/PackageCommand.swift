import ArgumentParser
import Foundation
import RelayKit

/// `relay package …`: working with packages of actions.
struct PackageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "package", abstract: "Work with Swift packages of actions.", subcommands: [PackageInitCommand.self])
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
