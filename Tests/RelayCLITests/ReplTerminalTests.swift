import Foundation
import Testing

/// A REPL on a real terminal: tmux runs it in a pseudo-terminal, the test types keys and reads the screen.
final class TerminalSession {
    private let socket = "relay-tests-\(getpid())"
    private let name = "repl-\(UUID().uuidString.prefix(8))"

    init(_ command: String) throws {
        // Output not read: the tmux server this may start would hold the pipe open.
        try tmux(["new-session", "-d", "-s", name, "-x", "120", "-y", "40", command], readOutput: false)
    }

    deinit { _ = try? tmux(["kill-session", "-t", name], readOutput: false) }

    /// Types `keys` (tmux key names such as `Tab`, `Enter`, `Up`, or literal text).
    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys, readOutput: false) }

    /// The screen's text (tmux drops the spaces at the ends of lines).
    func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", name]) }

    /// Waits until the screen shows `text`, returning the screen; fails after a few seconds.
    @discardableResult
    func waitFor(_ text: String, seconds: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var shown = ""
        while Date() < deadline {
            shown = try screen()
            if shown.contains(text) { return shown }
            Thread.sleep(forTimeInterval: 0.05)
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
        let data = readOutput ? output.fileHandleForReading.readDataToEndOfFile() : Data()
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
    func completion() throws {
        let terminal = try start()
        try terminal.waitFor("relay>")
        try terminal.send("text: hello", "Enter")
        try terminal.send("chan", "Tab")
        try terminal.waitFor("relay> change-case")
        try terminal.send(": upper", "Enter")
        try terminal.waitFor("HELLO   # a text")
        try terminal.send("replace-text: {fi", "Tab")
        try terminal.waitFor("replace-text: {find:")
        try terminal.send("L, with: l}", "Enter")
        try terminal.waitFor("HEllO   # a text")
        try terminal.send("{text: x, as: myvar}", "Enter")
        try terminal.send("text: \"${my", "Tab")
        try terminal.waitFor("text: \"${myvar}")
        try terminal.send("\"", "Enter")
        try terminal.send(":he", "Tab")
        try terminal.waitFor("relay> :help")
        try terminal.send("C-u", ":save \(state.path)/session.yaml", "Enter")
        try terminal.waitFor("saved 5 steps")
        let rerun = try RelayProcess.run(["run", state.appendingPathComponent("session.yaml").path])
        #expect(rerun.standardOutput == "x\n", "\(rerun.standardError)")
    }

    @Test("Ctrl-C during a step stops that step and returns to the prompt with the session intact, every time")
    func interrupt() throws {
        let terminal = try start()
        try terminal.waitFor("relay>")
        try terminal.send("text: kept", "Enter")
        try terminal.waitFor("kept   # a text")
        for round in 1...2 {
            try terminal.send("wait: 30", "Enter")
            Thread.sleep(forTimeInterval: 0.5)
            try terminal.send("C-c")
            let deadline = Date().addingTimeInterval(10)
            var screen = ""
            while Date() < deadline {
                screen = try terminal.screen()
                if screen.components(separatedBy: "stopped by SIGINT\nrelay>").count - 1 == round { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            #expect(screen.components(separatedBy: "stopped by SIGINT\nrelay>").count - 1 == round, "SCREEN<<\(screen)>>")
        }
        try terminal.send("change-case: upper", "Enter")
        try terminal.waitFor("KEPT   # a text")
    }

    @Test("history is kept between sessions; an error does not end a session")
    func history() throws {
        do {
            let first = try start()
            try first.waitFor("relay>")
            try first.send("chnage-case: upper", "Enter")
            try first.waitFor("did you mean 'change-case'?")
            try first.send("text: remembered", "Enter")
            try first.waitFor("remembered   # a text")
            try first.send(":quit", "Enter")
            Thread.sleep(forTimeInterval: 0.3)
        }
        let second = try start()
        try second.waitFor("relay>")
        try second.send("Up", "Up")
        try second.waitFor("relay> text: remembered")
        try second.send("Enter")
        try second.waitFor("remembered   # a text")
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
    func typedQuestions() throws {
        let terminal = try run("steps:\n  - ask: How many?\n    type: number\n  - calculate: \"${previous} * 2\"\n")
        try terminal.waitFor("How many?")
        try terminal.send("lots", "Enter")
        try terminal.waitFor("try again")
        try terminal.send("21", "Enter")
        try terminal.waitFor("42\n[exit 0]")

        let date = try run("steps:\n  - ask: When?\n    type: date\n  - format-date: yyyy-MM-dd\n")
        try date.waitFor("When?")
        try date.send("someday", "Enter")
        try date.waitFor("try again")
        try date.send("2026-12-24", "Enter")
        try date.waitFor("2026-12-24\n[exit 0]")

        let url = try run("steps:\n  - ask: Where?\n    type: url\n    default: https://example.com\n")
        try url.waitFor("Where? [https://example.com]")
        try url.send("not a url", "Enter")
        try url.waitFor("try again")
        try url.send("Enter")
        try url.waitFor("https://example.com\n[exit 0]")
    }

    @Test("choose-from-list and menu show numbered options, take a number or a name and re-ask otherwise; text is taken as typed; confirm takes y or n")
    func choicesAndConfirmations() throws {
        let choose = try run("steps:\n  - list: [apples, pears, plums]\n  - choose-from-list: Which fruit?\n")
        try choose.waitFor("3. plums")
        try choose.send("figs", "Enter")
        try choose.waitFor("try again")
        try choose.send("2", "Enter")
        try choose.waitFor("pears\n[exit 0]")

        let menu = try run("\(try String(contentsOf: RelayProcess.root.appendingPathComponent("workflows/menu-driven.yaml"), encoding: .utf8))")
        try menu.waitFor("2. Miles to kilometres")
        try menu.send("3", "Enter")
        try menu.waitFor("try again")
        try menu.send("miles to kilometres", "Enter")
        try menu.waitFor("10 mi = 16.09 km\n[exit 0]")

        let text = try run("steps:\n  - ask: Your name?\n  - text: \"Hello, ${previous}\"\n")
        try text.waitFor("Your name?")
        try text.send("Ada Lovelace", "Enter")
        try text.waitFor("Hello, Ada Lovelace\n[exit 0]")

        let confirm = try run("steps:\n  - text: done\n  - confirm: Go on?\n")
        try confirm.waitFor("Go on? [y/N]")
        try confirm.send("maybe", "Enter")
        try confirm.waitFor("answer y or n")
        try confirm.send("n", "Enter")
        try confirm.waitFor("[exit 3]")
    }

    @Test("a for-each shows a progress bar on a terminal while it runs, and clears it when done")
    func progressBar() throws {
        let terminal = try run("steps:\n  - list: [1, 2, 3]\n  - for-each:\n    do:\n      - wait: 0.6\n  - count\n")
        try terminal.waitFor("for-each [")
        let done = try terminal.waitFor("[exit 0]")
        #expect(!done.contains("for-each ["), "\(done)")
        #expect(done.contains("3\n[exit 0]"))
    }
}
