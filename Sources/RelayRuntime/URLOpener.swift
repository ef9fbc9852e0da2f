import Foundation
import RelayKit
import RelayEngine

/// Opens URLs for `open` (Docs/Language.md, "Opening URLs"): with `--open-with COMMAND`, else `$RELAY_OPEN`, else the
/// system's opener (`xdg-open` on Linux, `open` on macOS). With `--dry-run`, or when there is no
/// opener, it reports `open URL` on standard error instead and the run goes on.
public struct URLOpener: Sendable {
    public enum Strategy: Sendable, Equatable {
        /// Only report what would be opened.
        case dryRun
        /// Run this command with the URL as its last argument.
        case command([String])
        /// The system's opener, if there is one.
        case system
    }

    public let strategy: Strategy
    /// Where the opener reports (`open URL`) and where an opener command's own output goes.
    let report: @Sendable (String) -> Void

    public init(strategy: Strategy, report: @escaping @Sendable (String) -> Void) {
        self.strategy = strategy
        self.report = report
    }

    /// The strategy Docs/Language.md, "Opening URLs" prescribes for these settings.
    public static func strategy(dryRun: Bool, openWith: String?, environment: [String: String]) -> Strategy {
        if dryRun { return .dryRun }
        if let openWith, !openWith.isEmpty { return .command(CommandLineWords.split(openWith)) }
        if let fromEnvironment = environment["RELAY_OPEN"], !fromEnvironment.isEmpty {
            return .command(CommandLineWords.split(fromEnvironment))
        }
        return .system
    }

    /// `url` as it may be shown: one made from a secret not at all, however short its pieces.
    static func shown(_ url: URL) -> String {
        SecretLabels.step.isEmpty ? RunSecrets.masked(url.absoluteString) : RunSecrets.mask
    }

    public func open(_ url: URL) async throws {
        // Chosen by a secret, a dry run says nothing: that it would open tells which way it went.
        if strategy == .dryRun, !SecretLabels.context.isEmpty { return }
        // The opener gets the URL on its command line, which every user of this machine may read.
        if strategy != .dryRun, !SecretLabels.step.isEmpty || !RunSecrets.carried.isEmpty {
            throw IntentError(
                "a URL made from a secret is not opened: the opener would get it on its command line, which every user of this machine can read (ps)")
        }
        switch strategy {
        case .dryRun:
            report("open " + Self.shown(url))
        case .command(let words):
            try await run(words + [url.absoluteString])
        case .system:
            #if os(macOS)
                let opener = "/usr/bin/open"
            #else
                let opener = ChildProcess.find("xdg-open")
            #endif
            guard let opener, FileManager.default.isExecutableFile(atPath: opener) else {
                report("open " + Self.shown(url))
                return
            }
            try await run([opener, url.absoluteString])
        }
    }

    /// Runs the opener and waits for it without holding a thread; a step's `timeout:` or a
    /// signal stops it and everything it started (`ChildProcess`).
    private func run(_ words: [String]) async throws {
        guard let program = words.first else { throw IntentError("the opener command is empty") }
        guard let executable = ChildProcess.find(program) else {
            throw IntentError("cannot start the opener '\(program)': it is not on PATH")
        }
        let child: ChildProcess
        do throws(ChildProcessError) {
            // The opener's own output is not the workflow's output (a URL made from a secret is
            // never handed to it, so what it repeats of one holds none).
            // A desktop helper's small environment (Docs/Security.md, "Programs").
            let temporary = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
            child = try ChildProcess(
                executable: executable, arguments: Array(words.dropFirst()), input: .null, output: .standardError, errors: .standardError,
                environment: ProgramSandbox.environment(scratch: temporary, reachesDesktop: true), inheritsEnvironment: false)
        } catch {
            throw IntentError("cannot start the opener '\(program)': \(error.message)")
        }
        let (signalled, status) = await child.termination()
        try Task.checkCancellation()
        guard !signalled, status == 0 else {
            let how = signalled ? "was killed by signal \(status)" : "failed with exit status \(status)"
            throw IntentError("the opener '\(words.dropLast().joined(separator: " "))' \(how)")
        }
    }

}

/// Splits a command line into words: spaces separate, single or double quotes group, a backslash
/// escapes the next character. (No variables, globs or pipes: the words run directly, not in a shell.)
public enum CommandLineWords {
    public static func split(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" && quote != "'" {
                escaped = true
                inWord = true
            } else if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
