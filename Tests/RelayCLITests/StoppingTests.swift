import Foundation
import RelayKit
import Testing

/// Every step can be stopped: a step's `timeout:`, the run's own bound, and signals stop what is
/// under way, children included (Docs/Language.md, "Stopping a run"; Docs/Reliability.md).
@Suite("Stopping steps and runs")
struct StoppingTests {
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-stop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// An opener script that notes its process id in `pids`, sleeps 120 s, then notes `finished`;
    /// with `stubborn`, it ignores SIGTERM too.
    private func slowOpener(in folder: URL, stubborn: Bool = false) throws -> String {
        let script = folder.appendingPathComponent("opener.sh")
        try "#!/bin/sh\n\(stubborn ? "trap '' TERM INT HUP\n" : "")echo $$ >> \(folder.path)/pids\nsleep 120\necho done > \(folder.path)/finished\n"
            .write(to: script, atomically: true, encoding: .utf8)
        return "/bin/sh \(script.path)"
    }

    /// Waits until the opener has started (and noted its pid), however slow a loaded machine is:
    /// a signal sent before then would test something else.
    private func waitForOpener(in folder: URL) async throws {
        let started = ContinuousClock.now
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("pids").path), ContinuousClock.now - started < .seconds(120) {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(FileManager.default.fileExists(atPath: folder.appendingPathComponent("pids").path), "the opener never started")
    }

    /// Whether any process noted in `folder/pids` still runs.
    private func openersRunning(in folder: URL) -> [Int32] {
        let pids = ((try? String(contentsOf: folder.appendingPathComponent("pids"), encoding: .utf8)) ?? "")
            .split(separator: "\n").compactMap { Int32($0) }
        return pids.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
                return false
            }
            return !stat[stat.index(after: close)...].hasPrefix(" Z")
        }
    }

    private func write(_ yaml: String, to folder: URL) throws {
        try yaml.write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
    }

    /// A workflow that fetches `url` four times in a `parallel: 4` loop, the `get-contents-of-url`
    /// step given the keys `lines` (its parameters and modifiers), then runs the step `last`.
    private func writeFourFetches(of url: String, with lines: [String], then last: String, to folder: URL) throws {
        let keys = lines.map { "        \($0)\n" }.joined()
        try write(
            "steps:\n  - list: [1, 2, 3, 4]\n  - for-each:\n    parallel: 4\n    do:\n      - url: \(url)\n      - get-contents-of-url:\n"
                + keys + "  - \(last)\n", to: folder)
    }

    /// Starts `relay ARGUMENTS` in `folder`, its standard error collected.
    private func start(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = RelayProcess.executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.environment = ["HOME": folder.appendingPathComponent("home").path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1"]
            .merging(environment) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, errors)
    }

    @Test("a script's child that leaves its session (setsid, a double fork) does not outlive the run")
    func detachedChildEnds() async throws {
        let root = try folder()
        // The escaped script notes that it started in the workflow's folder, which the run may write.
        let detached = root.appendingPathComponent("detached.sh")
        try "echo started > \(root.path)/pids\nexec sleep 300\n".write(to: detached, atomically: true, encoding: .utf8)
        try write(
            "steps:\n  - run-shell-script: \"setsid sh -c 'sh \(detached.path) &' > /dev/null 2>&1 < /dev/null & while [ ! -s \(root.path)/pids ]; do sleep 0.05; done; echo started\"\n",
            to: root)
        let result = try await RelayProcess.running(
            ["run", "w.yaml", "--allow-run", "--allow-write=\(root.path)"], in: root, environment: ["HOME": root.appendingPathComponent("home").path])
        #expect(result.status == 0 && result.standardOutput == "started\n", "\(result.standardError)")
        // Gone (or a zombie its new parent has yet to reap) once relay has exited.
        #expect(ProcessMarks.running(marked: detached.path).isEmpty, "the detached script outlived the run")
    }

    @Test("a chain of processes, each starting the next and ending at once, ends with the run", .enabled(if: ProcessTrees.contained))
    func forkChainEnds() async throws {
        let root = try folder()
        // Each link notes itself, starts the next in the background and ends: no process of the
        // chain lives long enough to be found by a search. It ends by itself after 20,000 links.
        let chain = root.appendingPathComponent("chain.sh")
        try "n=$1\n[ \"$n\" -gt 0 ] || exit 0\necho $$ >> \(root.path)/pids\nsh \(chain.path) $((n - 1)) > /dev/null 2>&1 < /dev/null &\n"
            .write(to: chain, atomically: true, encoding: .utf8)
        try write(
            "steps:\n  - run-shell-script: \"sh \(chain.path) 20000 > /dev/null 2>&1 < /dev/null & while [ ! -s \(root.path)/pids ]; do sleep 0.05; done; echo started\"\n",
            to: root)
        let result = try await RelayProcess.running(
            ["run", "w.yaml", "--allow-run", "--allow-write=\(root.path)"], in: root, environment: ["HOME": root.appendingPathComponent("home").path])
        #expect(result.status == 0 && result.standardOutput == "started\n", "\(result.standardError)")
        let links = { ((try? String(contentsOf: root.appendingPathComponent("pids"), encoding: .utf8)) ?? "").split(separator: "\n").count }
        let atEnd = links()
        // A chain still running adds a link every few milliseconds; one that ended adds none.
        try await Task.sleep(for: .milliseconds(500))
        #expect(ProcessMarks.running(marked: chain.path).isEmpty, "the chain outlived the run")
        #expect(links() == atEnd, "the chain went on after the run: \(atEnd) links, then \(links())")
        #expect(atEnd < 20_000, "the chain ran to its end before the run did")
    }

    @Test(
        "a script that starts a thousand processes is stopped at the bound of processes a program may have",
        .enabled(if: ProcessTrees.contained && (getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"))))
    func processBound() async throws {
        // The bound does not hold for root: as root, the run is made as another user.
        // In /tmp itself: the test's own temporary folder may be closed to another user.
        let root = URL(fileURLWithPath: "/tmp/relay-bound-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: root.path)
        try write("steps:\n  - run-shell-script: \"for i in $(seq 1000); do sleep 60 & done; echo all started\"\n", to: root)
        let arguments = ["run", "w.yaml", "--allow-run"]
        let asOther = getuid() == 0
        let result = try await BlockingWork.run { _ in
            try RelayProcess.run(
                asOther ? ["--reuid=65534", "--regid=65534", "--clear-groups", RelayProcess.executable.path] + arguments : arguments, in: root,
                environment: [
                    "HOME": root.path, "TMPDIR": root.path, "XDG_STATE_HOME": root.path + "/state", "XDG_CONFIG_HOME": root.path + "/config",
                ],
                program: asOther ? URL(fileURLWithPath: "/usr/bin/setpriv") : RelayProcess.executable)
        }
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        // The shell's words for a fork the kernel refused.
        #expect(result.standardError.contains("Cannot fork") || result.standardError.contains("temporarily unavailable"), "\(result.standardError)")
        #expect(!result.standardOutput.contains("all started"))
    }

    @Test("a script's processes share one memory bound: four of 100 MB each under a bound of 256 MiB fail the step")
    func treeMemoryBound() async throws {
        let version = try await RelayProcess.running(["--version"], in: try folder())
        guard version.standardOutput.contains("memory bounded per process tree") else {
            print("skipped: no control group of Relay's own here: \(version.standardOutput)")
            return
        }
        let root = try folder()
        // The text is really written (not merely reserved), so each shell uses its 100 MB.
        try write(
            "steps:\n  - run-shell-script: |\n      for i in 1 2 3 4; do ( x=$(head -c 100000000 /dev/zero | tr '\\0' a); sleep 1 ) & done\n"
                + "      wait\n      echo all done\n", to: root)
        let result = try await RelayProcess.running(["run", "w.yaml", "--allow-run"], in: root, environment: ["RELAY_PROGRAM_MEMORY": "256M"])
        #expect(result.status == 1, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardError.contains("'sh' ran out of memory: it and the processes it started were using all the 256 MiB"), "\(result.standardError)")
        #expect(!result.standardOutput.contains("all done"))
        // Within the bound, the same script runs.
        let within = try await RelayProcess.running(["run", "w.yaml", "--allow-run"], in: root, environment: ["RELAY_PROGRAM_MEMORY": "1G"])
        #expect(within.status == 0, "\(within.standardError)")
        #expect(within.standardOutput.contains("all done"))
    }

    @Test("a run past its scratch folder's quota is stopped at the step under way, which on-error cannot keep going, and its folder is removed; a file removed but held open counts")
    func scratchQuota() async throws {
        let root = try folder()
        let scratchRoot = root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratchRoot, withIntermediateDirectories: true)
        let environment = ["RELAY_SCRATCH_QUOTA": "64M", "TMPDIR": scratchRoot.path]
        // A script fills the folder, then takes its time: the watch stops it, on-error or not. A
        // file removed while the script holds it open takes the disk all the same.
        for (script, after) in [
            ("      for i in 1 2 3; do head -c 40000000 /dev/zero > \"$TMPDIR/part$i\"; done\n", "    on-error: continue\n  - text: after\n"),
            ("      exec 3>\"$TMPDIR/hidden\"\n      rm \"$TMPDIR/hidden\"\n      head -c 80000000 /dev/zero >&3\n", ""),
        ] {
            try write("steps:\n  - run-shell-script: |\n" + script + "      sleep 30\n      echo finished\n" + after, to: root)
            let stopped = try await RelayProcess.running(["run", "w.yaml", "--allow-run"], in: root, environment: environment)
            #expect(stopped.status == 1, "\(stopped.standardOutput)\(stopped.standardError)")
            #expect(
                stopped.standardError.contains("w.yaml:2:5: error: step 'run-shell-script': the run's scratch folder holds more than 64 MiB"),
                "\(stopped.standardError)")
            #expect(!stopped.standardOutput.contains("finished") && !stopped.standardOutput.contains("after"))
        }
        // A file of the scratch folder written over or deleted again and again is not kept in the
        // undo journal, where the quota would not see it.
        let state = root.appendingPathComponent("state")
        try write(
            "steps:\n  - set: { s: \"0123456789abcdef\" }\n  - repeat: 20\n    do: [ { set: { s: \"${s}${s}\" } } ]\n  - repeat: 6\n    do:\n"
                + "      - text: \"${s}\"\n      - save-file: { to: \"${scratch}/f.txt\", overwrite: true }\n      - delete-file: ${previous}\n", to: root)
        let churned = try await RelayProcess.running(
            ["run", "w.yaml"], in: root, environment: environment.merging(["XDG_STATE_HOME": state.path]) { $1 })
        #expect(churned.status == 0, "\(churned.standardError)")
        let kept = (FileManager.default.enumerator(atPath: state.path)?.allObjects as? [String] ?? []).reduce(0) { total, name in
            total + (((try? FileManager.default.attributesOfItem(atPath: state.appendingPathComponent(name).path))?[.size] as? Int) ?? 0)
        }
        #expect(kept < 8 << 20, "the state folder holds \(kept) bytes")
        // One that fills it and ends at once is caught when the run ends.
        try write("steps:\n  - run-shell-script: head -c 80000000 /dev/zero > \"$TMPDIR/all\"\n", to: root)
        let ended = try await RelayProcess.running(["run", "w.yaml", "--allow-run"], in: root, environment: environment)
        #expect(ended.status == 1)
        #expect(ended.standardError.contains("holds more than 64 MiB"), "\(ended.standardError)")
        let left = try FileManager.default.subpathsOfDirectory(atPath: scratchRoot.path).filter { $0.hasSuffix("part1") || $0.hasSuffix("all") }
        #expect(left.isEmpty, "\(left)")
        // Within the quota, the same run goes on.
        try write("steps:\n  - run-shell-script: head -c 8000000 /dev/zero > \"$TMPDIR/all\"; echo made\n", to: root)
        let within = try await RelayProcess.running(["run", "w.yaml", "--allow-run"], in: root, environment: environment)
        #expect(within.status == 0, "\(within.standardError)")
        #expect(within.standardOutput == "made\n")
    }

    @Test("a step's timeout stops an opener that would take two minutes, and the opener with it")
    func openerTimeout() async throws {
        let root = try folder()
        try write("steps:\n  - url: https://example.com\n  - open:\n    timeout: 2\n    on-error: continue\n  - text: after\n", to: root)
        let result = try await RelayProcess.running(["run", "w.yaml", "--allow-open", "--open-with", try slowOpener(in: root)], in: root)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "after\n")
        // Stopped, not waited for: it never got to its end, and it is gone.
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("finished").path))
        #expect(openersRunning(in: root).isEmpty)
    }

    @Test("four requests to a server that never answers, in parallel, end at their step's timeout")
    func silentServer() async throws {
        let root = try folder()
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-c", """
            import os, signal, socket, sys, time
            # The test process blocks signals, and a child inherits that: terminate() must reach it.
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            parent = os.getppid()
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
            print(s.getsockname()[1], flush=True)
            held = []
            s.settimeout(1)
            end = time.time() + 600
            # It ends with the test process too, whatever way that ends.
            while time.time() < end and os.getppid() == parent:
                try: held.append(s.accept())
                except socket.timeout: pass
            """]
        let output = Pipe()
        server.standardOutput = output
        // Not the test process's standard error: a server left running would hold it open, and
        // `swift test` waits for it to close.
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate() }
        let reader = output.fileHandleForReading
        let said = try await BlockingWork.run { _ in reader.availableData }
        let port = try #require(String(decoding: said, as: UTF8.self).split(separator: "\n").first)
        try writeFourFetches(of: "http://127.0.0.1:\(port)/slow", with: ["timeout: 2", "on-error: continue"], then: "text: done", to: root)
        let result = try await RelayProcess.running(["run", "w.yaml", "--allow-net=127.0.0.1"], in: root)
        #expect(result.standardOutput == "done\n", "\(result.standardError)")
        // The requests ended at their timeouts, while the server still held them open (it holds
        // them ten minutes, and is stopped when the test ends: a loaded machine is no reason to fail).
        #expect(server.isRunning)
    }

    @Test("parallel: 4 runs four requests at once, whatever the number of cores: each finds the other three there")
    func parallelRequests() async throws {
        let root = try folder()
        // Each request is answered only once all four are at the server together: one after
        // another, or two at a time, they would each wait out the server's 30 s and be "alone".
        try write(
            "steps:\n  - list: [1, 2, 3, 4]\n  - for-each:\n    parallel: 4\n    do:\n"
                + "      - url: \(await LocalHTTPServer.base())/together/4\n      - get-contents-of-url:\n        timeout: 60\n", to: root)
        let result = try await RelayProcess.running(["run", "w.yaml", "--allow-net=127.0.0.1"], in: root)
        #expect(result.standardOutput == "together\ntogether\ntogether\ntogether\n", "\(result.standardOutput)\(result.standardError)")
    }

    @Test("a signal stops the run and its children, says where, and exits 128 + the signal", arguments: [
        (SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGHUP, "SIGHUP"),
    ])
    func signals(signal: Int32, name: String) async throws {
        let root = try folder()
        try write("steps:\n  - text: one\n    as: first\n  - url: https://example.com\n  - open\n", to: root)
        let (process, errors) = try start(["run", "w.yaml", "--allow-open", "--open-with", try slowOpener(in: root)], in: root)
        // Once the opener has started.
        try await waitForOpener(in: root)
        kill(process.processIdentifier, signal)
        await RelayProcess.waitForExit(process)
        let message = String(decoding: readAll(errors.fileHandleForReading), as: UTF8.self)
        #expect(process.terminationStatus == 128 + signal)
        let first = signal == SIGINT ? "stopping… (Ctrl-C again to stop at once)\n" : ""
        #expect(message == first + "stopped at step 3 (open at w.yaml:5:5) by \(name)\n")
        #expect(openersRunning(in: root).isEmpty)
    }

    @Test("a second SIGINT ends the run at once, even while a child ignores SIGTERM")
    func secondInterrupt() async throws {
        let root = try folder()
        try write("steps:\n  - url: https://example.com\n  - open\n", to: root)
        // A grace period far longer than the test: only the second SIGINT can end the run soon.
        let (process, errors) = try start(
            ["run", "w.yaml", "--allow-open", "--open-with", try slowOpener(in: root, stubborn: true)], in: root, environment: ["RELAY_STOP_GRACE": "30"])
        try await waitForOpener(in: root)
        kill(process.processIdentifier, SIGINT)
        // Once Relay has taken the first (two signals sent before it reads the first are one).
        let reader = errors.fileHandleForReading
        let said = try await BlockingWork.run { _ in reader.availableData }
        #expect(String(decoding: said, as: UTF8.self) == "stopping… (Ctrl-C again to stop at once)\n")
        kill(process.processIdentifier, SIGINT)
        await RelayProcess.waitForExit(process)
        #expect(process.terminationStatus == 130)
        #expect(String(decoding: readAll(reader), as: UTF8.self) == "stopped at once by a second SIGINT\n")
        try await Task.sleep(for: .milliseconds(200))
        // The stubborn opener, whose grace is 30 s, was killed at once: gone, never finished.
        #expect(openersRunning(in: root).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("finished").path))
    }

    @Test("relay run --timeout and a workflow's timeout: bound the whole run; on-error cannot catch it")
    func runTimeout() async throws {
        let root = try folder()
        try write("steps:\n  - text: a\n  - wait: 30\n    on-error: continue\n", to: root)
        let flag = try await RelayProcess.running(["run", "w.yaml", "--timeout", "1"], in: root)
        #expect(flag.status == 1)
        #expect(flag.standardError == "error: the run timed out after 1 s, at step 2 (wait at w.yaml:3:5)\n")
        try write("timeout: 1.5\nsteps:\n  - repeat: 100\n    do:\n      - wait: 0.1\n", to: root)
        let own = try await RelayProcess.running(["run", "w.yaml", "--timeout", "60"], in: root)
        #expect(own.status == 1)
        // Stopped by the workflow's own bound inside the loop, not by --timeout 60 or the loop's end.
        #expect(own.standardError.hasPrefix("error: the run timed out after 1.5 s, at step 1 (wait at w.yaml:5:9)"), "\(own.standardError)")
        try write("timeout: 0\nsteps:\n  - text: a\n", to: root)
        let zero = try await RelayProcess.running(["check", "w.yaml"], in: root)
        #expect(zero.status == 2)
        #expect(zero.standardError.hasPrefix("w.yaml:1:10: error: 'timeout' takes a number of seconds greater than 0"))
    }

    @Test("a timeout stops loops that never wait, however many run at once in a parallel for-each")
    func busyParallelLoops() async throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        // Eight iterations at once, each a loop of steps that never wait: more than the machine
        // has threads for tasks. Each loop's `timeout:` must still get a thread to stop it.
        try write(
            "steps:\n  - list: [1, 2, 3, 4, 5, 6, 7, 8]\n  - for-each:\n    parallel: 8\n    do:\n      - repeat: 1000000000\n        do:\n          - number: 1\n        timeout: 1\n",
            to: root)
        // `timeout` only keeps a hang from lasting: the run ends after a second when it is right.
        let result = try await RelayProcess.tool(
            ["timeout", "600", RelayProcess.executable.path, "run", "w.yaml"], in: root)
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("w.yaml:6:9: error: step 'repeat': timed out after 1 second"), "\(result.standardError)")
    }
}
