import ArgumentParser
import Foundation
import RelayKit
import RelayLanguage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `relay secrets …`: the values a workflow reads as `${secrets.NAME}` (Docs/Runs.md, "Secrets").
struct SecretsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secrets",
        abstract: "Keep the secrets workflows read as ${secrets.NAME}, apart from the workflows.",
        discussion: """
            A run takes a secret from the environment variable of its name, else from the system keyring (the Secret \
            Service, where the session has one), else from $XDG_CONFIG_HOME/relay/secrets.json (default ~/.config/relay), \
            which must be readable by you alone (mode 0600). A secret is shown as ••• in output, traces, errors and the \
            run history, and 'permissions: { secrets: { NAME: [host] } }' pins it to hosts (Docs/Runs.md).
            """,
        subcommands: [SecretsSetCommand.self, SecretsListCommand.self, SecretsRemoveCommand.self])

    static func message(for error: any Error) -> String {
        (error as? SecretStoreError)?.message ?? "\(error)"
    }

    /// A secret's name, as `secrets:` takes it.
    static func validate(name: String) throws {
        guard WorkflowParser.isIdentifier(name) else {
            throw ValidationError("a secret's name is a plain word (letters, digits and _, as in GITHUB_TOKEN), not '\(name)'")
        }
    }
}

/// `relay secrets set NAME`: reads the value without echo on a terminal, else all of standard input.
struct SecretsSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Keep a secret: typed without echo on a terminal, else read whole from standard input.",
        discussion: "Kept in the system keyring when the session has one, else in Relay's secrets file (mode 0600).")

    @Argument(help: "The secret's name, as the workflow's 'secrets:' list names it.") var name: String

    func validate() throws { try SecretsCommand.validate(name: name) }

    func run() async throws {
        let value: String?
        if isatty(0) == 1 {
            value = try await Self.readWithoutEcho(prompt: "Value of \(name): ")
        } else {
            // The whole of standard input, but a final line break (`echo TOKEN | relay secrets set`).
            // Read on a thread of its own (`BlockingWork`), never a cooperative one, by a command
            // of its own: no step runs in `relay secrets`, and a signal ends it (its default action).
            let data = try await BlockingWork.run { _ in FileHandle.standardInput.readDataToEndOfFile() }
            var text = String(decoding: data, as: UTF8.self)
            if text.hasSuffix("\r\n") { text.removeLast(2) } else if text.hasSuffix("\n") { text.removeLast() }
            value = text
        }
        guard let value, !value.isEmpty else {
            StandardStreams.writeError("error: no value was given for '\(name)'; nothing was kept\n")
            throw ExitStatus.invalid.exitCode
        }
        let name = name
        do {
            // The keyring answers over the session's bus and the file waits its turn: off Swift's threads.
            let place = try await BlockingWork.run { _ in try SecretStore().set(name, value: value) }
            StandardStreams.writeOutput("kept \(name) in \(place)\n")
        } catch {
            StandardStreams.writeError("error: \(SecretsCommand.message(for: error))\n")
            throw ExitStatus.runtimeError.exitCode
        }
    }

    /// One line typed on the terminal with echo off; echo comes back however the command ends.
    private static func readWithoutEcho(prompt: String) async throws -> String? {
        var saved = termios()
        guard tcgetattr(0, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        StandardStreams.writeError(prompt)
        tcsetattr(0, TCSAFLUSH, &quiet)
        let original = saved
        defer {
            var restored = original
            tcsetattr(0, TCSAFLUSH, &restored)
            StandardStreams.writeError("\n")
        }
        return try await ProcessSignals.handling(with: { number in
            var restored = original
            tcsetattr(0, TCSAFLUSH, &restored)
            StandardStreams.writeError("\n")
            #if canImport(Glibc)
                Glibc.exit(128 + number)
            #else
                Darwin.exit(128 + number)
            #endif
        }) {
            try await BlockingWork.run { _ in readLine(strippingNewline: true) }
        }
    }
}

/// `relay secrets list`: the names, never the values.
struct SecretsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the names of the secrets 'relay secrets set' kept (never their values).")

    func run() async throws {
        do {
            let names = try await BlockingWork.run { _ in try SecretStore().names() }
            StandardStreams.writeOutput(names.map { $0 + "\n" }.joined())
        } catch {
            StandardStreams.writeError("error: \(SecretsCommand.message(for: error))\n")
            throw ExitStatus.runtimeError.exitCode
        }
    }
}

/// `relay secrets remove NAME`.
struct SecretsRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Forget a secret 'relay secrets set' kept.")

    @Argument(help: "The secret's name.") var name: String

    func validate() throws { try SecretsCommand.validate(name: name) }

    func run() async throws {
        let removed: Bool
        let name = name
        do {
            removed = try await BlockingWork.run { _ in try SecretStore().remove(name) }
        } catch {
            StandardStreams.writeError("error: \(SecretsCommand.message(for: error))\n")
            throw ExitStatus.runtimeError.exitCode
        }
        guard removed else {
            let names = (try? await BlockingWork.run { _ in try SecretStore().names() }) ?? []
            StandardStreams.writeError("error: no secret '\(name)' is kept\(Suggestions.didYouMean(name, in: names))\n")
            throw ExitStatus.runtimeError.exitCode
        }
        StandardStreams.writeOutput("removed \(name)\n")
    }
}
