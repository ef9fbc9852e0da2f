import Foundation
import RelayKit
import RelayEngine
import Testing

@testable import RelayRuntime

#if canImport(Glibc)
import Glibc
#endif

/// `run-shell-script`: what it gives and reads, how it fails, and that it always stops.
@Suite("Shell scripts")
struct ShellScriptTests {
    let running: [Capability: GrantScope] = [.run: .everywhere]

    /// `running`, and reading the folder of the version manager whose shim `python3` is, when it
    /// is one in the home folder (pyenv's reads its own folder, which a run must grant).
    var runningPython: [Capability: GrantScope] {
        guard let python = ChildProcess.find("python3"), python.hasPrefix(HomeFolder.path + "/") else { return running }
        let tool = python.dropFirst(HomeFolder.path.count + 1).split(separator: "/").first.map { HomeFolder.path + "/" + $0 } ?? python
        return running.merging([.read: .only([tool])]) { $1 }
    }

    @Test("standard input, arguments, other interpreters; the output without its last line feed")
    func inputAndOutput() async throws {
        #expect(try await run("- text: hello\n- run-shell-script: tr a-z A-Z", granted: running) == "HELLO")
        #expect(try await run("- run-shell-script: 'printf \"a\\n\\n\"'", granted: running) == "a\n")
        let arguments = try await run(
            "- list: [a b, c]\n- run-shell-script: { script: 'for a in \"$@\"; do echo \"[$a]\"; done', input-mode: arguments }",
            granted: running)
        #expect(arguments == "[a b]\n[c]")
        // A list is its items' texts, a line each.
        #expect(try await run("- list: [x, y]\n- run-shell-script: \"wc -l | tr -d ' '\"", granted: running) == "2")
        if ChildProcess.find("python3") != nil {
            #expect(try await run("- run-shell-script: { script: 'print(6 * 7)', shell: python3 }", granted: runningPython) == "42")
        }
    }

    @Test("a file is read on standard input; output that is not text becomes a file")
    func filesInAndOut() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "one\ntwo\nthree\n".write(to: folder.appendingPathComponent("lines.txt"), atomically: true, encoding: .utf8)
        let workflow = folder.appendingPathComponent("w.yaml").path
        #expect(try await run("- read-file: lines.txt\n- run-shell-script: wc -l | tr -d ' '", path: workflow, granted: running) == "3")
        let made = try await run("- run-shell-script: \"printf '\\\\377\\\\330\\\\377'\"", granted: running)
        guard case .file(let file) = made else {
            Issue.record("not a file: \(made)")
            return
        }
        #expect(try file.contents() == Data([0xFF, 0xD8, 0xFF]))
    }

    @Test("a status other than 0 is a step error with the status and the end of standard error")
    func failures() async throws {
        await expectFailure("- run-shell-script: 'echo first >&2; echo oops >&2; exit 3'", "the script exited with status 3: first\noops")
        await expectFailure("- run-shell-script: 'kill -9 $$'", "was ended by signal 9")
        await expectFailure("- run-shell-script: { script: 'echo hi', shell: fish }", "there is no program 'fish' on PATH", unlessFound: "fish")
        // A long standard error is cut to its end.
        await expectFailure("- run-shell-script: 'head -c 5000 /dev/zero | tr \"\\\\0\" x >&2; echo END >&2; exit 1'", "xxxxEND")
        await expectFailure("- run-shell-script: 'head -c 100000 /dev/zero | tr \"\\\\0\" x >&2; exit 1'", "status 1: …xxxx", shorterThan: 1_100)
    }

    @Test("an argument holding a NUL starts nothing: exec would cut it there, and the script would get another argument")
    func argumentWithNul() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let keep = folder.appendingPathComponent("keep")
        try "kept".write(to: keep, atomically: true, encoding: .utf8)
        await expectFailure(
            "- text: \"\(keep.path)\\0.tmp\"\n- run-shell-script: { script: 'rm -f -- \"$1\"', input-mode: arguments }",
            "an argument cannot hold a NUL character")
        await expectFailure("- run-shell-script: \"echo a\\0; echo b\"", "an argument cannot hold a NUL character")
        #expect(FileManager.default.fileExists(atPath: keep.path))
    }

    @Test("without a run grant nothing starts, and the denial names sh")
    func needsGrant() async throws {
        do {
            _ = try await run("- run-shell-script: echo hi")
            Issue.record("ran without a grant")
        } catch let error as RuntimeError {
            #expect(error.denial != nil)
            #expect(error.message.contains("start sh"), "\(error.message)")
        }
    }

    @Test("a timeout stops the script and what it started in the background")
    func timeoutStopsChildren() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let finished = folder.appendingPathComponent("finished").path
        // A sleep known by its length: the script sees its own process numbers, not this process's.
        let mark = Self.mark()
        await expectFailure(
            "- run-shell-script: 'sleep \(mark) & sleep 60; touch \(finished)'\n  timeout: 1", "timed out",
            granted: running.merging([.write: .only([folder.path])]) { $1 })
        // Stopped, not waited for: the script never got to its end.
        #expect(!FileManager.default.fileExists(atPath: finished))
        // The background sleep went with the script (killed, then reaped by whoever adopted it).
        #expect(try await Self.ends(marked: mark), "the background sleep \(mark) still runs")
    }

    @Test("a timeout asks the script to stop first (SIGTERM), so that it can tidy up")
    func timeoutTerminates() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tidied = folder.appendingPathComponent("tidied").path
        await expectFailure(
            "- run-shell-script: \"trap 'echo tidied > \(tidied); exit 3' TERM; sleep 60 & wait\"\n  timeout: 1", "timed out",
            granted: running.merging([.write: .only([folder.path])]) { $1 })
        // The trap ran: the script got SIGTERM before any SIGKILL.
        #expect((try? String(contentsOfFile: tidied, encoding: .utf8)) == "tidied\n")
    }

    @Test("a script that ends leaves nothing running behind it")
    func endingStopsChildren() async throws {
        let mark = Self.mark()
        let started = try await run("- run-shell-script: 'sleep \(mark) > /dev/null 2>&1 & echo started'", granted: running)
        #expect(started.textValue == "started")
        #expect(try await Self.ends(marked: mark), "the background sleep \(mark) outlived its script")
    }

    @Test("output past the limit stops the program with an error; memory stays bounded")
    func outputLimit() async throws {
        guard let sh = ChildProcess.find("sh") else { return }
        do {
            _ = try await ProgramRunner.run(
                executable: sh, ProgramRun(program: "sh", arguments: ["-c", "yes"], outputLimit: 1 << 20), confinement: nil, environment: Self.path)
            Issue.record("endless output was accepted")
        } catch let error as IntentError {
            #expect(error.message.contains("wrote more than 1 MiB"), "\(error.message)")
        }
        // Standard input a program never reads is no error.
        let outcome = try await ProgramRunner.run(
            executable: sh, ProgramRun(program: "sh", arguments: ["-c", "exit 0"], input: Data(count: 4 << 20)), confinement: nil, environment: Self.path)
        #expect(outcome.succeeded)
    }

    private static let path = ["PATH": "/usr/bin:/bin"]

    @Test("a script runs inside the run's grants: a file, a folder to write, a connection each need theirs")
    func confined() async throws {
        guard HostSandbox.version >= 4 else {
            print("skipped: this kernel's Landlock (version \(HostSandbox.version)) cannot confine a script's files and connections")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-confined-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = folder.appendingPathComponent("secret.txt")
        try "private".write(to: secret, atomically: true, encoding: .utf8)
        let read = "- run-shell-script: 'cat \(secret.path) 2>&1 || true'"
        #expect(try await run(read, granted: running).textValue.contains("Permission denied"))
        #expect(try await run(read, granted: running.merging([.read: .only([folder.path])]) { $1 }) == "private")
        let made = folder.appendingPathComponent("made.txt").path
        let write = "- run-shell-script: 'echo x > \(made) 2>&1; test -e \(made) && echo made || echo refused'"
        #expect(try await run(write, granted: running) == "refused")
        #expect(try await run(write, granted: running.merging([.write: .only([folder.path])]) { $1 }) == "made")
        // Its temporary files go to the run's scratch folder, which it may write.
        #expect(try await run("- run-shell-script: 'f=$(mktemp) && echo ok > \"$f\" && cat \"$f\"'", granted: running) == "ok")
        if ChildProcess.find("python3") != nil {
            let connect = "- run-shell-script: { shell: python3, script: \"import socket\\ntry:\\n  socket.socket()\\n  print('socket')\\nexcept OSError as e:\\n  print(e.errno)\" }"
            #expect(try await run(connect, granted: runningPython) == .text("\(EACCES)"))
            #expect(try await run(connect, granted: runningPython.merging([.net: .everywhere]) { $1 }) == "socket")
            // The kernel's keyrings, where a session keeps keys and tokens: refused.
            #if arch(x86_64)
                let keyctl = 250
            #else
                let keyctl = 219
            #endif
            let keyring = "- run-shell-script: { shell: python3, script: \"import ctypes\\nlibc = ctypes.CDLL(None, use_errno=True)\\nlibc.syscall(\(keyctl), 0, -3, 0)\\nprint(ctypes.get_errno())\" }"
            #expect(try await run(keyring, granted: runningPython) == .text("\(EACCES)"))
        }
    }

    @Test("a program's environment is small and fixed: Relay's tokens and sockets never reach it; a desktop helper gets the display")
    func environment() {
        let relay = ["PATH": "/bin", "HOME": "/home/me", "LANG": "C.UTF-8", "GITHUB_TOKEN": "t0ken", "SSH_AUTH_SOCK": "/run/agent", "DISPLAY": ":0"]
        let script = ProgramSandbox.environment(scratch: "/tmp/scratch", reachesDesktop: false, from: relay)
        #expect(script == ["PATH": "/bin", "HOME": "/home/me", "LANG": "C.UTF-8", "TMPDIR": "/tmp/scratch"])
        let helper = ProgramSandbox.environment(scratch: "/tmp/scratch", reachesDesktop: true, from: relay)
        #expect(helper["DISPLAY"] == ":0" && helper["GITHUB_TOKEN"] == nil && helper["SSH_AUTH_SOCK"] == nil)
    }

    /// Whether `pid` is gone, or a zombie, within five seconds.
    /// A new empty folder of the test's own, to remove when it is done.
    private static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-shell-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A number of seconds no other test sleeps for (60 and a random fraction): a process running
    /// `sleep` for it is found by its command line.
    private static func mark() -> String { "60.\(UInt32.random(in: 100_000...999_999))" }

    /// Whether every process whose command line holds `mark` ends (or is a zombie) within 5 s.
    private static func ends(marked mark: String) async throws -> Bool {
        for _ in 0..<100 {
            if ProcessMarks.running(marked: mark).isEmpty { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    private func expectFailure(
        _ steps: String, _ fragment: String, unlessFound program: String? = nil, shorterThan limit: Int = .max, granted: [Capability: GrantScope]? = nil
    ) async {
        if let program, ChildProcess.find(program) != nil { return }
        do {
            let value = try await run(steps, granted: granted ?? running)
            Issue.record("\(steps) gave \(value)")
        } catch let error as RuntimeError {
            #expect(error.message.contains(fragment), "\(error.message)")
            #expect(error.message.count < limit)
        } catch {
            Issue.record("\(steps): \(error)")
        }
    }
}
