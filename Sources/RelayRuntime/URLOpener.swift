import Foundation
import RelayKit

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

    public func open(_ url: URL) async throws {
        switch strategy {
        case .dryRun:
            report("open \(url.absoluteString)")
        case .command(let words):
            try run(words + [url.absoluteString])
        case .system:
            #if os(macOS)
                let opener = "/usr/bin/open"
            #else
                let opener = Self.find("xdg-open")
            #endif
            guard let opener, FileManager.default.isExecutableFile(atPath: opener) else {
                report("open \(url.absoluteString)")
                return
            }
            try run([opener, url.absoluteString])
        }
    }

    private func run(_ words: [String]) throws {
        guard let program = words.first else { throw IntentError("the opener command is empty") }
        let process = Process()
        if program.contains("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(words.dropFirst())
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = words
        }
        // The opener's own output is not the workflow's output.
        process.standardOutput = FileHandle.standardError
        process.standardError = FileHandle.standardError
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw IntentError("cannot start the opener '\(program)': \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw IntentError("the opener '\(words.dropLast().joined(separator: " "))' failed with exit status \(process.terminationStatus)")
        }
    }

    private static func find(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
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
