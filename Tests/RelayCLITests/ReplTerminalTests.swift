import Foundation
import RelayKit
import Testing

/// A REPL on a real terminal: tmux runs it in a pseudo-terminal, the test types keys and reads the screen.
final class TerminalSession: @unchecked Sendable {
    private let socket = "relay-tests-\(getpid())"
    private let name = "repl-\(UUID().uuidString.prefix(8))"

    init(_ command: String) throws {
        // Output not read: the tmux server this may start would hold the pipe open.
        try tmux(["new-session", "-d", "-s", name, "-x", "120", "-y", "40", command], readOutput: false)
    }

    deinit { _ = try? tmux(["kill-session", "-t", name], readOutput: false) }

    /// Types `keys` (tmux key names such as `Tab`, `Enter`, `Up`, or literal text).
    func send(_ keys: String...) async throws {
        let arguments = ["send-keys", "-t", name] + keys
        _ = try await BlockingWork.run { _ in try self.tmux(arguments, readOutput: false) }
    }

    /// The screen's text (tmux drops the spaces at the ends of lines).
    func screen() async throws -> String {
        let arguments = ["capture-pane", "-p", "-t", name]
        return try await BlockingWork.run { _ in try self.tmux(arguments) }
    }

    /// Waits until the screen shows `text`, returning the screen; fails after half a minute. Under
    /// the whole suite on two cores a debug build's first screen has taken more than 10 seconds
    /// (the permissions test then saw its one question, exit 0 and every file copied, just late).
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 30) async throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var shown = ""
        while Date() < deadline {
            shown = try await screen()
            if shown.contains(text) { return shown }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the screen never showed '\(text)'; it shows:\n\(shown)")
        return shown
    }

    @discardableResult
    private func tmux(_ arguments: [String], readOutput: Bool = true) throws -> String {
        // Through Python with close_fds: Foundation watches a child through a descriptor the child
        // inherits, and the tmux server that `new-session` starts would keep it open forever.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", "import subprocess, sys; sys.exit(subprocess.call(sys.argv[1:], close_fds=True))", "tmux", "-L", socket,
        ] + arguments
        let output = Pipe()
        process.standardOutput = readOutput ? output : FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = readOutput ? readAll(output.fileHandleForReading) : Data()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

@Suite("The REPL on a terminal", .serialized)
struct ReplTerminalTests {
    private let state = FileManager.default.temporaryDirectory.appendingPathComponent("relay-repl-tty-\(UUID().uuidString)")

    private func start() throws -> TerminalSession {
        try TerminalSession("env XDG_STATE_HOME=\(state.path) NO_COLOR=1 \(RelayProcess.executable.path) repl")
    }

    @Test("tab completes action names, parameter names inside {…}, variables after ${ and commands")
    func completion() async throws {
        let terminal = try start()
        try await terminal.waitFor("relay>")
        try await terminal.send("text: hello", "Enter")
        try await terminal.send("chan", "Tab")
        try await terminal.waitFor("relay> change-case")
        try await terminal.send(": upper", "Enter")
        try await terminal.waitFor("HELLO   # a text")
        try await terminal.send("replace-text: {fi", "Tab")
        try await terminal.waitFor("replace-text: {find:")
        try await terminal.send("L, with: l}", "Enter")
        try await terminal.waitFor("HEllO   # a text")
        try await terminal.send("{text: x, as: myvar}", "Enter")
        try await terminal.send("text: \"${my", "Tab")
        try await terminal.waitFor("text: \"${myvar}")
        try await terminal.send("\"", "Enter")
        try await terminal.send(":he", "Tab")
        try await terminal.waitFor("relay> :help")
        try await terminal.send("C-u", ":describe copy-f", "Tab")
        try await terminal.waitFor("relay> :describe copy-file")
        try await terminal.send("C-u", ":save \(state.path)/session.yaml", "Enter")
        try await terminal.waitFor("saved 5 steps")
        let rerun = try await RelayProcess.running(["run", state.appendingPathComponent("session.yaml").path])
        #expect(rerun.standardOutput == "x\n", "\(rerun.standardError)")
    }

    @Test("Ctrl-C during a step stops that step and returns to the prompt with the session intact, every time")
    func interrupt() async throws {
        let terminal = try start()
        try await terminal.waitFor("relay>")
        try await terminal.send("text: kept", "Enter")
        try await terminal.waitFor("kept   # a text")
        for round in 1...2 {
            try await terminal.send("wait: 30", "Enter")
            try await Task.sleep(for: .milliseconds(500))
            try await terminal.send("C-c")
            let deadline = Date().addingTimeInterval(10)
            var screen = ""
            while Date() < deadline {
                screen = try await terminal.screen()
                if screen.components(separatedBy: "stopped by SIGINT\nrelay>").count - 1 == round { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(screen.components(separatedBy: "stopped by SIGINT\nrelay>").count - 1 == round, "SCREEN<<\(screen)>>")
        }
        try await terminal.send("change-case: upper", "Enter")
        try await terminal.waitFor("KEPT   # a text")
    }

    @Test("a loop stopped part way leaves no progress bar: the error and the next prompt start on lines of their own")
    func barErasedBeforePrompt() async throws {
        let terminal = try start()
        try await terminal.waitFor("relay>")
        try await terminal.send("list: [1, 2, 3]", "Enter")
        try await terminal.send("for-each:", "Enter")
        try await terminal.send("do:", "Enter")
        try await terminal.send("  - wait: 0.6", "Enter")
        try await terminal.send("  - if: ${item == 3}", "Enter")
        try await terminal.send("    then:", "Enter")
        try await terminal.send("      - fail: three", "Enter")
        try await terminal.send("", "Enter")
        try await terminal.waitFor("for-each [")
        // The error itself: "three" alone is on the screen already, in the step as typed.
        let screen = try await terminal.waitFor("error: step 'fail': three")
        try await Task.sleep(for: .milliseconds(300))
        let after = try await terminal.screen()
        #expect(!after.contains("for-each ["), "SCREEN<<\(after)>>")
        #expect(after.hasSuffix("relay>") || after.contains("\nrelay>"), "SCREEN<<\(screen)>>")
    }

    @Test("history is kept between sessions; an error does not end a session")
    func history() async throws {
        do {
            let first = try start()
            try await first.waitFor("relay>")
            try await first.send("chnage-case: upper", "Enter")
            try await first.waitFor("did you mean 'change-case'?")
            try await first.send("text: remembered", "Enter")
            try await first.waitFor("remembered   # a text")
            try await first.send(":quit", "Enter")
            try await Task.sleep(for: .milliseconds(300))
        }
        let second = try start()
        try await second.waitFor("relay>")
        try await second.send("Up", "Up")
        try await second.waitFor("relay> text: remembered")
        try await second.send("Enter")
        try await second.waitFor("remembered   # a text")
    }
}

@Suite("Prompts on a terminal", .serialized)
struct PromptTerminalTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-prompts-\(UUID().uuidString)")

    /// Runs `workflow` with `relay run` in a terminal, its output then a marker kept on screen.
    private func run(_ workflow: String) throws -> TerminalSession {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("w.yaml")
        try workflow.write(to: file, atomically: true, encoding: .utf8)
        return try TerminalSession("env NO_COLOR=1 \(RelayProcess.executable.path) run \(file.path); echo \"[exit $?]\"; sleep 30")
    }

    @Test("ask re-asks until the answer fits the type: number, date, url; an empty answer takes the default")
    func typedQuestions() async throws {
        let terminal = try run("steps:\n  - ask: How many?\n    type: number\n  - calculate: \"${previous} * 2\"\n")
        try await terminal.waitFor("How many?")
        try await terminal.send("lots", "Enter")
        try await terminal.waitFor("try again")
        try await terminal.send("21", "Enter")
        try await terminal.waitFor("42\n[exit 0]")

        let date = try run("steps:\n  - ask: When?\n    type: date\n  - format-date: yyyy-MM-dd\n")
        try await date.waitFor("When?")
        try await date.send("someday", "Enter")
        try await date.waitFor("try again")
        try await date.send("2026-12-24", "Enter")
        try await date.waitFor("2026-12-24\n[exit 0]")

        let url = try run("steps:\n  - ask: Where?\n    type: url\n    default: https://example.com\n")
        try await url.waitFor("Where? [https://example.com]")
        try await url.send("not a url", "Enter")
        try await url.waitFor("try again")
        try await url.send("Enter")
        try await url.waitFor("https://example.com\n[exit 0]")
    }

    @Test("a step given a value made from a secret shows its prompt, its default and its options as •••, however short their pieces")
    func promptsFromSecret() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("w.yaml")
        try """
            secrets: [API_TOKEN]
            steps:
              - split-text: { text: "${secrets.API_TOKEN}", by: characters }
                as: c
              - ask: "Q ${c[1]}${c[2]}${c[3]}"
                default: "${c[4]}${c[5]}"
              - get-item: { from: 1, to: 3 }
                input: "${c}"
              - choose-from-list: Which?
            """.write(to: file, atomically: true, encoding: .utf8)
        let terminal = try TerminalSession(
            "env NO_COLOR=1 API_TOKEN=qzx_7kw XDG_STATE_HOME=\(folder.path)/state \(RelayProcess.executable.path) run \(file.path); echo \"[exit $?]\"; sleep 30")
        let asked = try await terminal.waitFor("•••]")
        try await terminal.send("Enter")
        try await terminal.waitFor("3. •••")
        try await terminal.send("2", "Enter")
        let screen = try await terminal.waitFor("[exit 0]")
        for piece in ["qzx", "Q q", "_7", "1. q", "2. z"] {
            #expect(!asked.contains(piece) && !screen.contains(piece), "\(piece): \(screen)")
        }
    }

    @Test("choose-from-list and menu show numbered options, take a number or a name and re-ask otherwise; text is taken as typed; confirm takes y or n")
    func choicesAndConfirmations() async throws {
        let choose = try run("steps:\n  - list: [apples, pears, plums]\n  - choose-from-list: Which fruit?\n")
        try await choose.waitFor("3. plums")
        try await choose.send("figs", "Enter")
        try await choose.waitFor("try again")
        try await choose.send("2", "Enter")
        try await choose.waitFor("pears\n[exit 0]")

        let menu = try run("\(try String(contentsOf: RelayProcess.root.appendingPathComponent("workflows/menu-driven.yaml"), encoding: .utf8))")
        try await menu.waitFor("2. Miles to kilometres")
        try await menu.send("3", "Enter")
        try await menu.waitFor("try again")
        try await menu.send("miles to kilometres", "Enter")
        try await menu.waitFor("10 mi = 16.09 km\n[exit 0]")

        let text = try run("steps:\n  - ask: Your name?\n  - text: \"Hello, ${previous}\"\n")
        try await text.waitFor("Your name?")
        try await text.send("Ada Lovelace", "Enter")
        try await text.waitFor("Hello, Ada Lovelace\n[exit 0]")

        let confirm = try run("steps:\n  - text: done\n  - confirm: Go on?\n")
        try await confirm.waitFor("Go on? [y/N]")
        try await confirm.send("maybe", "Enter")
        try await confirm.waitFor("answer y or n")
        try await confirm.send("n", "Enter")
        try await confirm.waitFor("[exit 3]")
    }

    @Test("a for-each shows a progress bar on a terminal while it runs, and clears it when done")
    func progressBar() async throws {
        let terminal = try run("steps:\n  - list: [1, 2, 3]\n  - for-each:\n    do:\n      - wait: 0.6\n  - count\n")
        try await terminal.waitFor("for-each [")
        let done = try await terminal.waitFor("[exit 0]")
        #expect(!done.contains("for-each ["), "\(done)")
        #expect(done.contains("3\n[exit 0]"))
    }
}
