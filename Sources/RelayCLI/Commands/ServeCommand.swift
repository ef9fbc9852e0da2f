import ArgumentParser
import Foundation
import RelayKit
import RelayEngine
import RelayLanguage
import RelayRuntime

/// `relay serve [PATH…]`: runs workflows on their own, when their triggers fire
/// (Docs/Automations.md).
struct ServeGroup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: ServeCommand.configuration.abstract,
        // Its options (`ServeGroup.options`) are added when its help is shown (`RelayCommand.main`):
        // made here, the help would be laid out at every start of every command.
        discussion: ServeCommand.configuration.discussion,
        subcommands: [ServeCommand.self, ServeTokenCommand.self],
        defaultSubcommand: ServeCommand.self)
}

extension ServeGroup {
    /// The options of `relay serve PATH…` (which is `relay serve workflows PATH…`), as its own
    /// help gives them: shown by `relay serve --help` too.
    static var options: String {
        let help = ServeCommand.helpMessage(columns: 80)
        guard let start = help.range(of: "OPTIONS:") else { return "" }
        return "'relay serve [PATH…] [OPTIONS]' is 'relay serve workflows …':\n" + help[start.lowerBound...].trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workflows",
        abstract: "Run workflows on their own: on a schedule, when a file lands in a folder, or when a webhook is called.",
        discussion: """
            Serves the workflow files named, and the .yaml and .yml files in the folders named (default: \
            $XDG_CONFIG_HOME/relay/workflows). A workflow's 'on:' list says when it runs: schedule: "30 7 * * 1-5" \
            (cron, in this machine's time zone; also @hourly, @daily, @weekly), schedule: { every: 10m }, or \
            watch: FOLDER (a file that settled there is the run's input), or webhook: NAME (POST /hooks/NAME with \
            'Authorization: Bearer TOKEN', the token made by 'relay serve token NAME'; the body is the input). \
            The page at http://127.0.0.1:8765/ lists the workflows, their next times and their runs; \
            /mcp offers them to assistants as tools, behind the token 'relay serve token --mcp' makes (Docs/Assistants.md). \
            A served run never asks: it runs with what was allowed always for its file ('relay permissions FILE \
            --grant') and the --allow flags given here; a workflow that needs more is listed as needing grants and \
            does not run. Each run is kept in 'relay runs', with what started it. SIGTERM or SIGINT: no run starts, \
            runs under way finish for --grace seconds, then are stopped; exit 143 or 130 (Docs/Automations.md).
            """)

    @Argument(help: ArgumentHelp("Workflow files and folders of them (default: $XDG_CONFIG_HOME/relay/workflows).", valueName: "path"))
    var paths: [String] = []
    @Flag(help: "Print each workflow's triggers, their next times and the grants it needs, then exit.") var check = false
    @Flag(help: "Print a systemd user unit that runs this server at login, then exit (Docs/Automations.md).") var printUnit = false
    @Option(help: ArgumentHelp("After SIGTERM or SIGINT, how long runs under way may finish before they are stopped.", valueName: "seconds"))
    var grace: Double = 30
    @Option(help: ArgumentHelp("The port of the page and the webhooks (0: one the system chooses, said in the log).", valueName: "port"))
    var port: Int = 8765
    @Option(help: ArgumentHelp("The address to listen on; one other than loopback needs --token-file.", valueName: "address"))
    var listen: String = "127.0.0.1"
    @Option(help: ArgumentHelp("A file holding the token the page asks for (at least 16 characters).", valueName: "file"))
    var tokenFile: String?
    @OptionGroup var packageOptions: PackageOptions
    @OptionGroup var permissionOptions: PermissionOptions

    func validate() throws {
        if check && printUnit { throw ValidationError("--check and --print-unit cannot be given together") }
        if let problem = Limits.durationProblem(grace) { throw ValidationError("--grace: \(problem)") }
        if grace < 0 { throw ValidationError("--grace takes a number of seconds from 0") }
        if !(0...65_535).contains(port) { throw ValidationError("--port takes a port from 0 to 65535") }
        if !WebServer.isLoopback(listen), tokenFile == nil {
            throw ValidationError("--listen \(listen) lets other machines reach the page: give it a token with --token-file FILE")
        }
    }

    /// The page's token, from `--token-file`.
    private func pageToken() throws -> String? {
        guard let tokenFile else { return nil }
        let path = FileReference(path: tokenFile).originalPath
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            StandardStreams.writeError("error: --token-file: cannot read '\(tokenFile)'\n")
            throw ExitStatus.invalid.exitCode
        }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard token.count >= 16, !token.contains(where: { $0.isWhitespace || $0 == ";" || $0 == "," }) else {
            StandardStreams.writeError("error: --token-file: the token is one word of at least 16 characters, without spaces, ';' or ','\n")
            throw ExitStatus.invalid.exitCode
        }
        return token
    }

    func run() async throws {
        if printUnit {
            if paths.isEmpty, (try? ServedWorkflow.files(in: [ServedWorkflow.defaultFolder])) == nil {
                StandardStreams.writeError("warning: the unit serves \(ServedWorkflow.defaultFolder), which is not there yet: make it and put workflows there, or name what to serve\n")
            }
            StandardStreams.writeOutput(unit)
            return
        }
        let given = paths.isEmpty ? [ServedWorkflow.defaultFolder] : paths
        let files = try ServedWorkflow.files(named: paths, doing: "serve")
        let token = try pageToken()
        let base = try await packageOptions.loader()
        let stateFolder = UndoHistory.defaultRoot
        var served: [ServedWorkflow] = []
        for file in files {
            var workflow = await ServedWorkflow.load(
                file, base: base, granted: permissionOptions.granted, grantsDeclared: permissionOptions.declared, stateFolder: stateFolder)
            // A webhook's name is one workflow's: the first served has it.
            workflow.refuseHooks(takenBy: served)
            served.append(workflow)
        }
        let tokens = HookTokens(stateFolder: stateFolder)
        if check {
            StandardStreams.writeOutput(Self.report(served, now: Date(), tokens: tokens))
            if served.contains(where: { $0.problem != nil }) { throw ExitStatus.invalid.exitCode }
            if served.contains(where: { !$0.needs.isEmpty }) { throw ExitStatus.permissionDenied.exitCode }
            return
        }
        let log = Server.ServeLog()
        for workflow in served {
            if let problem = workflow.problem {
                log.note("\(workflow.file) does not check, and is not served:\n\(problem)", error: true)
            } else if workflow.triggers.isEmpty {
                log.note("\(workflow.file) has no triggers ('on:'): only an assistant's call at /mcp runs it")
            } else if !workflow.needs.isEmpty {
                log.note("\(workflow.file) needs grants, and is not served: \(Self.needs(of: workflow))", error: true)
            }
        }
        for workflow in served where workflow.isArmed {
            for (name, _) in workflow.hooks where !tokens.exists(name) {
                log.note("\(workflow.file): webhook '\(name)' has no token yet, and answers every call 401: make one with 'relay serve token \(name)'", error: true)
            }
        }
        let armed = served.filter(\.isArmed)
        let offered = served.filter { $0.problem == nil }.count
        let armedNote =
            "serving \(armed.count) workflow\(armed.count == 1 ? "" : "s")" + (flags.isEmpty ? "" : ", each granted \(flags.joined(separator: " "))")
            + "; \(offered) offered to assistants at /mcp"
            + (tokens.exists(AssistantEndpoint.tokenName) ? "" : " (no token yet: make one with 'relay serve token --mcp')")
        let granted = permissionOptions.granted, declared = permissionOptions.declared, packages = packageOptions.paths
        let state = stateFolder
        let server = Server(
            workflows: served, folders: ServedWorkflow.folders(in: given), log: log,
            reload: { file in
                await ServedWorkflow.load(file, base: base, granted: granted, grantsDeclared: declared, stateFolder: state)
            }
        ) { workflow, firing in
            var run = WorkflowRun(file: workflow.file)
            run.variables = ["trigger": Self.triggerValue(firing)]
            // A watched folder's file is the run's input: the file itself, or its path once removed.
            if let file = firing.file { run.input = firing.event == .removed ? .text(file) : .settledFile(file) }
            // A webhook's body; its caller gets the output as JSON.
            if let request = firing.request {
                run.input = request.body
                run.json = true
            }
            run.granted = granted
            run.grantsDeclared = declared
            run.packages = packages
            // Run again, a watched folder's run gets its file again (as --input-file).
            // A webhook's run is not: its body is not kept.
            run.arguments =
                firing.request != nil ? nil : [workflow.file] + (firing.file.map { firing.event == .removed ? ["--input", $0] : ["--input-file", $0] } ?? [])
            run.commandLine = ["run", workflow.file]
            run.console = ServeConsole()
            run.trigger = firing.word
            run.ownsProcess = false
            run.stateFolder = stateFolder
            // A caller that waits is told what went wrong.
            if let watcher = firing.watcher { run.console = WatchedConsole(watcher: watcher) }
            return run
        }
        // `/mcp`: the served workflows as an assistant's tools, each call a run like the triggers' (Docs/Assistants.md).
        let assistant = AssistantServer(
            offered: { [names = ToolNames()] in names.offered(server.served, actions: [], server: "relay serve") },
            options: ToolRunOptions(
                granted: granted, grantsDeclared: declared, packages: packages, stateFolder: stateFolder, paths: paths,
                ended: { file, outcome, began in
                    log.note(WorkflowQueue.line(outcome, of: file, startedBy: "mcp", began: began), error: outcome.status != 0)
                }),
            assumeYes: false, yesFlag: nil, asksPermissions: false, callFolder: stateFolder.appendingPathComponent("mcp-calls"), calls: server.runs,
            resources: EntityResources(base.registry.entityTypes))
        let web = WebServer(
            server: server, tokens: tokens, stateFolder: stateFolder, log: log, host: listen, port: port, pageToken: token, flags: flags,
            assistants: AssistantEndpoint(assistant: assistant))
        let status = await server.serve(grace: grace, lastRuns: Self.lastScheduledRuns(of: armed, stateFolder: stateFolder), web: web, armedNote: armedNote)
        throw ExitCode(status)
    }

    /// A systemd user unit that runs `relay serve` with these paths and flags, by absolute paths.
    var unit: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        let absolute = { (path: String) in URL(fileURLWithPath: FileReference(path: path).originalPath).standardizedFileURL.path }
        let served = paths.map(absolute)
        var options: [String] = []
        // The flags as parsed, paths made absolute: a unit runs in another folder.
        let places = { (entries: [String]) in entries.flatMap { $0.split(separator: ",").map(String.init) } }
        for (flag, entries, isPath) in [
            ("--allow-read", permissionOptions.read, true), ("--allow-write", permissionOptions.write, true), ("--allow-net", permissionOptions.net, false),
            ("--allow-open", permissionOptions.open, false),
        ] where !entries.isEmpty {
            let values = places(entries).map { $0 == PermissionOptions.everywhere || !isPath ? $0 : absolute($0) }
            options.append(values.contains(PermissionOptions.everywhere) ? flag : "\(flag)=\(values.joined(separator: ","))")
        }
        for (flag, on) in [("--allow-run", permissionOptions.run), ("--allow-packages", permissionOptions.packages),
            ("--allow-declared", permissionOptions.declared), ("--allow-all", permissionOptions.all)] where on {
            options.append(flag)
        }
        if grace != 30 { options.append("--grace=\(NumberFormatting.text(grace))") }
        if port != 8765 { options.append("--port=\(port)") }
        if listen != "127.0.0.1" { options.append("--listen=\(listen)") }
        if let tokenFile { options.append("--token-file=\(absolute(tokenFile))") }
        options += packageOptions.paths.flatMap { ["--package", absolute($0)] }
        let words = [executable, "serve"] + served + options
        // Where this server keeps its state and finds its workflows, as here.
        let environment = ["XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"].compactMap { name in
            ProcessInfo.processInfo.environment[name].flatMap { $0.hasPrefix("/") ? "Environment=\(Self.systemdQuoted("\(name)=\($0)"))\n" : nil }
        }.joined()
        return """
            [Unit]
            Description=Relay automations (relay serve)

            [Service]
            \(environment)ExecStart=\(words.map(Self.systemdQuoted).joined(separator: " "))
            Restart=on-failure
            KillSignal=SIGTERM
            TimeoutStopSec=\(Int(grace.rounded(.up)) + 15)

            [Install]
            WantedBy=default.target

            """
    }

    /// A word of a systemd command line: quoted when it holds a space, a quote, a backslash or `%` / `$`.
    static func systemdQuoted(_ word: String) -> String {
        let escaped = word.replacingOccurrences(of: "%", with: "%%").replacingOccurrences(of: "$", with: "$$")
        guard escaped.contains(where: { " \t\"'\\;".contains($0) }) else { return escaped }
        return "\"" + escaped.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The `--allow-…` flags given, as written, for the log.
    private var flags: [String] {
        Array(RelayCommand.givenArguments.drop { $0 != "serve" }.dropFirst()).filter { $0.hasPrefix("--allow-") }
    }

    /// `${trigger}`: what started the run.
    static func triggerValue(_ firing: Server.Firing) -> Value {
        var value: ValueDictionary = ["kind": .text(firing.word), "time": .date(firing.time)]
        if let file = firing.file {
            value["file"] = firing.event == .removed ? .text(file) : .file(FileReference(path: file))
            value["event"] = firing.event.map { .text($0.rawValue) } ?? .nothing
        }
        if let request = firing.request {
            let (request, query) = request.value
            value["request"] = request
            value["query"] = query
        }
        if case .schedule(let schedule) = firing.trigger?.kind {
            switch schedule {
            case .cron(let cron): value["schedule"] = .text(cron.text)
            case .every(let seconds): value["every"] = .number(seconds)
            }
        }
        return .dictionary(value)
    }

    /// When each workflow last ran on a schedule, from the history: what `catch-up:` looks at.
    static func lastScheduledRuns(of workflows: [ServedWorkflow], stateFolder: URL) -> [String: Date] {
        guard workflows.contains(where: { $0.triggers.contains(where: \.catchUp) }),
            let history = try? RunHistory(path: stateFolder.appendingPathComponent(RunHistory.fileName).path)
        else { return [:] }
        var last: [String: Date] = [:]
        for workflow in workflows where workflow.triggers.contains(where: \.catchUp) {
            let runs = (try? history.runs(matching: RunHistory.Filter(workflow: workflow.file, status: nil, since: nil, limit: 100))) ?? []
            if let run = runs.first(where: { $0.trigger == "schedule" }) { last[workflow.file] = run.started }
        }
        return last
    }

    /// What `--check` prints.
    static func report(_ served: [ServedWorkflow], now: Date, tokens: HookTokens) -> String {
        var text = ""
        for workflow in served {
            if let problem = workflow.problem {
                text += "\(workflow.file): does not check, and is not served\n" + problem.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }.joined(separator: "\n") + "\n"
                continue
            }
            if workflow.triggers.isEmpty {
                text += "\(workflow.file): no triggers ('on:'), runs only when an assistant calls it at /mcp\n"
                continue
            }
            text += !workflow.needs.isEmpty ? "\(workflow.file): needs grants, and does not run until it has them\n" : "\(workflow.file): served\n"
            for trigger in workflow.triggers {
                var next = trigger.nextFire(after: now, started: now).map { " — next \(DateFormatting.iso8601($0))" } ?? ""
                if case .webhook(let hook) = trigger.kind, !tokens.exists(hook.name.text) {
                    next = " — no token yet: make one with 'relay serve token \(hook.name.text)'"
                }
                text += "  \(trigger.summary)\(next)\(trigger.concurrency == .queue ? "" : " (concurrency: \(trigger.concurrency.rawValue))")\n"
            }
            if !workflow.needs.isEmpty { text += "  needs: \(needs(of: workflow))\n" }
        }
        return text
    }

    /// What a workflow needs beyond its grants, and how to give it.
    static func needs(of workflow: ServedWorkflow, server: String = "relay serve") -> String {
        // Shown in a log line and an assistant's error: a line break or an escape in a path shows as a sign.
        let listed = TerminalText.visible(workflow.needs.map { "\($0.access.description) (\($0.reason))" }.joined(separator: ", "))
        let flags = TerminalText.visible(workflow.needs.map(\.access.grantingFlag).joined(separator: " "))
        let file = ShellQuoting.quoted(workflow.file)
        // What `permissions:` declares is granted in one command; anything else is declared first.
        let declared = workflow.needs.allSatisfy { $0.step == nil }
        let grant = declared ? "run 'relay permissions \(file) --grant'" : "declare them in its 'permissions:' and run 'relay permissions \(file) --grant'"
        let arms = server == "relay serve" ? " (the server arms it within seconds)" : ""
        return "\(listed); \(grant)\(arms), or give \(server) \(flags)"
    }
}

/// A served run's console when someone waits for the run (a webhook's caller): its errors are
/// kept for them.
struct WatchedConsole: RunConsole {
    let watcher: RunWatcher
    var showsSteps: Bool { false }
    func output(_ text: String) {}
    func error(_ text: String) { watcher.noteError(text) }
    func report(_ diagnostics: [Diagnostic], masking secrets: RunSecrets?) {
        let text = DiagnosticRenderer().render(diagnostics)
        watcher.noteError(secrets?.redact(text) ?? text)
    }
}

/// `relay serve token NAME`: makes a webhook's token.
struct ServeTokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Make the token a webhook's callers give (Authorization: Bearer TOKEN), or /mcp's (--mcp), replacing its old one.",
        discussion: """
            Prints the new token once: keep it as a password. Only its digest is kept, in Relay's state folder; \
            a running server takes the new token at its next call (Docs/Automations.md, "Webhooks").
            """)

    @Argument(help: ArgumentHelp("The webhook's name, as in its workflow's 'webhook:'.", valueName: "name")) var name: String?
    @Flag(help: "Make the token of /mcp, where assistants call the served workflows as tools (Docs/Assistants.md).") var mcp = false

    func validate() throws {
        if mcp {
            if name != nil { throw ValidationError("give a webhook's name or --mcp, not both") }
            return
        }
        guard let name else { throw ValidationError("name the webhook whose token to make (or --mcp for /mcp's)") }
        guard Trigger.isWebhookName(name) else {
            throw ValidationError("'\(name)' is not a webhook name: letters, digits, '-' and '_', starting with a letter or digit, up to 64")
        }
    }

    func run() throws {
        do {
            let token = try HookTokens(stateFolder: UndoHistory.defaultRoot).make(for: name ?? AssistantEndpoint.tokenName)
            StandardStreams.writeOutput(token + "\n")
            StandardStreams.writeError(
                name.map {
                    "made a token for webhook '\($0)'; it is shown only now, and replaces any before it. Callers send it as 'Authorization: Bearer TOKEN' to POST /hooks/\($0)\n"
                }
                    ?? "made the token of /mcp; it is shown only now, and replaces any before it. An assistant's client sends it as 'Authorization: Bearer TOKEN' (Docs/Assistants.md)\n")
        } catch {
            StandardStreams.writeError("error: \(error)\n")
            throw ExitStatus.runtimeError.exitCode
        }
    }
}

/// A served run's console: its output is kept in the history's preview, not printed; its errors
/// are in the history, and the server's log says how it ended.
struct ServeConsole: RunConsole {
    var showsSteps: Bool { false }
    func output(_ text: String) {}
    func error(_ text: String) {}
    func report(_ diagnostics: [Diagnostic], masking secrets: RunSecrets?) {}
}
