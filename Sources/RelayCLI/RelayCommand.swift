import ArgumentParser
import Foundation
import RelayKit
import RelayEngine
import RelayLanguage
import RelayRuntime

/// The `relay` command line (Docs/Language.md, "Output and exit status").
public struct RelayCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "relay",
        abstract: "Runs Shortcuts-style workflows written in YAML.",
        discussion: """
            Runs left unattended (Docs/Runs.md): every 'relay run' is kept in a history that 'relay runs' lists, \
            shows and runs again (--no-history keeps nothing); a step with 'retry: N' is tried again when it fails; \
            and the secrets a workflow declares in 'secrets:' (read as ${secrets.NAME}, kept with 'relay secrets set') \
            are shown as ••• everywhere and sent only to the hosts 'permissions:' pins them to.
            """,
        subcommands: [RunCommand.self, CheckCommand.self, ActionsCommand.self, DescribeCommand.self, SchemaCommand.self,
            UndoCommand.self, RunsCommand.self, SecretsCommand.self, PackageCommand.self, ReplCommand.self, PermissionsCommand.self, ServeGroup.self,
            ImportCommand.self, LspCommand.self, MCPCommand.self,
        ]
    )

    /// `--version`, read here rather than given to the configuration, which would work out the
    /// version (probing the kernel for sandboxing) at every start.
    @Flag(name: .long, help: "Show the version, and what the kernel gives Relay to confine programs.") var version = false

    public init() {}

    public func run() async throws {
        guard version else { throw CleanExit.helpRequest(self) }
        StandardStreams.writeOutput(Self.version + "\n")
    }

    /// What `relay --version` prints: Relay's version and the package protocol it speaks
    /// (Docs/PackageProtocol.md),
    /// and what the kernel gives it to confine programs and package hosts (Docs/Security.md).
    public static var version: String { "relay \(versionNumber) (package protocol \(HostProtocol.version))\n\(HostedPackage.sandboxSummary)" }
    static let versionNumber = "0.9.0"

    /// Packages linked into this executable by a custom runner.
    @TaskLocal static var linkedPackages: [any IntentPackage.Type] = []
    /// The command line as given (after the program's name): the run history keeps a run's, for
    /// `relay runs rerun`.
    @TaskLocal static var givenArguments: [String] = []

    /// Parses `arguments` (the process's by default), runs the command, and returns the exit status.
    /// A custom runner passes its own `packages` to run their actions in process.
    public static func main(arguments: [String]? = nil, linking packages: [any IntentPackage.Type]) async -> Int32 {
        // No process Relay started (an opener, a package build or host), nor anything it started,
        // outlives the command.
        defer { ChildProcesses.stopAll() }
        ProcessSignals.prepare()
        let given = arguments ?? Array(CommandLine.arguments.dropFirst())
        return await $linkedPackages.withValue(packages) {
            if let run = RunCommand.plainRun(given) {
                return await $givenArguments.withValue(given) { await run.run().status }
            }
            do {
                var command = try parse(PermissionOptions.completing(given))
                try await $givenArguments.withValue(given) {
                    if var asyncCommand = command as? any AsyncParsableCommand {
                        try await asyncCommand.run()
                    } else {
                        try command.run()
                    }
                }
                return ExitStatus.success.rawValue
            } catch let exit as ExitCode {
                return exit.rawValue
            } catch {
                var message = fullMessage(for: error)
                if exitCode(for: error) == .success {
                    // `relay serve --help` is also the help of `relay serve PATH…`, which is `relay serve workflows`.
                    if given == ["serve", "--help"] || given == ["serve", "-h"] || given == ["help", "serve"] {
                        message += "\n\n" + ServeGroup.options
                    }
                    StandardStreams.writeOutput(message + "\n")
                    return ExitStatus.success.rawValue
                }
                StandardStreams.writeError(message + "\n")
                return ExitStatus.invalid.rawValue
            }
        }
    }

    /// The command `arguments` name. `relay run FILE …` is parsed by `RunCommand` alone: the whole
    /// tree of commands, which `parseAsRoot` builds and reflects on first, costs about a
    /// millisecond of a run's start (Docs/Performance.md, "Start without the parser"). Anything that does not parse
    /// so — help, a mistake, another command — is parsed from the root, so its message is the root's.
    static func parse(_ arguments: [String]) throws -> any ParsableCommand {
        if arguments.first == "run", !arguments.contains(where: { $0 == "--version" }),
            let command = try? RunCommand.parseAsRoot(Array(arguments.dropFirst()))
        {
            return command
        }
        return try parseAsRoot(arguments)
    }

    /// The registry of built-in and linked actions, or an exit after reporting a bad declaration.
    static func registry() throws -> ActionRegistry {
        do {
            return try Registries.make(linking: linkedPackages)
        } catch {
            StandardStreams.writeError("error: \(error)\n")
            throw ExitStatus.invalid.exitCode
        }
    }

    /// Prints diagnostics to standard error.
    static func report(_ diagnostics: [Diagnostic], masking secrets: RunSecrets? = nil) {
        // The renderer shows each piece of a diagnostic visibly, and colours it.
        let text = DiagnosticRenderer(usesColor: StandardStreams.errorUsesColor).render(diagnostics)
        StandardStreams.writeStyled(secrets?.redact(text) ?? text)
    }
}
