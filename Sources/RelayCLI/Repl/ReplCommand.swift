import ArgumentParser
import Foundation
import RelayKit
import RelayEngine
import RelayLanguage
import RelayRuntime

/// `relay repl`: steps typed one at a time, each result printed with its type.
struct ReplCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Type steps one at a time; each output is printed with its type and is the next step's input.",
        discussion: """
            Each line is a step in YAML flow form (change-case: upper). A line ending in ':' opens a \
            block, closed by an empty line. Commands start with ':' (:help lists them). Standard \
            input that is not a terminal is read line by line, so a session can be scripted.
            """)

    @OptionGroup var sessionOptions: SessionOptions
    @OptionGroup var packageOptions: PackageOptions
    @OptionGroup var permissionOptions: PermissionOptions

    func run() async throws {
        try await sessionOptions.settings.usingLibraryFolders { try await runSession() }
    }

    private func runSession() async throws {
        let loader = try await packageOptions.loader()
        let registry = loader.registry
        let interactive = isatty(0) == 1
        // One gate for the session: what is allowed at a prompt stays allowed until it ends.
        let (gate, _) = GrantPrompt.gate(for: nil, granted: permissionOptions.granted, interactive: interactive, dryRun: sessionOptions.dryRun)
        let settings = sessionOptions.settings
        let terminal = TerminalState()
        // One scratch folder for the session: a file one line makes there, the next finds.
        let scratch = ScratchFolder.forRun()
        let session = ReplSession(loader: loader, journalRoot: UndoHistory.defaultRoot) { journal in
            // Each entry's steps run in the environment a workflow's run would (Docs/Architecture.md, "One run pipeline").
            settings.environment(loader: loader, gate: gate, terminal: terminal, interactive: interactive, journal: journal, scratch: scratch)
        }
        var repl = Repl(session: session, registry: registry, interactive: interactive, terminal: terminal, secrets: gate.secrets)
        if interactive {
            let history = UndoHistory.defaultRoot.appendingPathComponent("repl-history").path
            repl.editor = LineEditor(historyFile: history) { [session, registry] line, word, start in
                ReplCompletion.candidates(line: line, word: word, start: start, registry: registry, variables: Array(session.shownVariables.keys))
            }
        }
        // Ctrl-C at the prompt is ignored (during a step it stops the step); SIGTERM and SIGHUP end it.
        await ProcessSignals.handling(with: { number in
            guard number != SIGINT else { return }
            ChildProcesses.stopAll()
            Foundation.exit(128 + number)
        }) { await repl.loop() }
    }
}

/// The read–evaluate–print loop over a session.
struct Repl {
    let session: ReplSession
    let registry: ActionRegistry
    let interactive: Bool
    /// Kept clear of progress bars while the prompt waits.
    var terminal = TerminalState()
    /// The secrets read with `:secret`, shown as •••.
    var secrets = RunSecrets()
    /// Line editing, history and completion, on a terminal with libedit.
    var editor: LineEditor?

    func loop() async {
        if interactive { StandardStreams.writeError("Relay \u{2014} one step a line; :help for commands, :quit to leave.\n") }
        while let entry = readEntry() {
            let trimmed = entry.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if trimmed.hasPrefix(":") {
                if await !command(trimmed) { return }
                continue
            }
            // `exit` and `quit` leave, as in other REPLs, unless an action has the name.
            if ["exit", "quit"].contains(trimmed), registry.action(named: trimmed) == nil { return }
            await evaluate(entry)
        }
    }

    /// The next entry: a line, or a line ending in ':' and the lines after it up to an empty one.
    private func readEntry() -> String? {
        guard let first = line(prompt: "relay> ") else { return nil }
        guard first.trimmingCharacters(in: .whitespaces).hasSuffix(":"), !first.hasPrefix(":") else { return first }
        var lines = [first]
        while let line = line(prompt: "  ...  "), !line.trimmingCharacters(in: .whitespaces).isEmpty {
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// One line: edited, with history, on a terminal with libedit; else read plainly (with the
    /// prompt only on a terminal).
    private func line(prompt: String) -> String? {
        // No bar is drawn over the prompt, and one a step left behind is erased first.
        terminal.prompting(true)
        defer { terminal.prompting(false) }
        if let editor {
            let line = editor.readLine(prompt: prompt)
            if let line, !line.trimmingCharacters(in: .whitespaces).isEmpty { editor.remember(line) }
            return line
        }
        if interactive { StandardStreams.writeOutput(prompt) }
        return readLine(strippingNewline: true)
    }

    /// Runs one entry; Ctrl-C during it stops that step (and what it started) and keeps the session.
    private func evaluate(_ entry: String) async {
        nonisolated(unsafe) let session = session
        let (outcome, interrupted) = await RunStopper.interruptible { await session.run(entry) }
        terminal.endBar()
        if interrupted {
            StandardStreams.writeError("stopped by SIGINT\n")
            return
        }
        switch outcome {
        case .value(let value):
            // Made from a secret, in whatever form: shown as ••• whole.
            StandardStreams.writeOutput(session.previousIsLabelled ? RunSecrets.mask + "\n" : secrets.redact(Self.printed(value)))
        case .invalid(let diagnostics):
            RelayCommand.report(diagnostics, masking: secrets)
        case .failed(let error):
            RelayCommand.report([error.diagnostic], masking: secrets)
        case .cancelled(let reason):
            StandardStreams.writeError(secrets.redact("cancelled: \(reason)\n"))
        }
    }

    /// A value as the REPL prints it: as `relay run` would, with its type as a YAML comment.
    static func printed(_ value: Value) -> String {
        let type = "# \(value.type.withArticle)" + (value.asList.count > 1 || value.type == .list ? " of \(value.asList.count)" : "")
        let rendered = OutputFormatter.render(value, json: false)
        if rendered.isEmpty { return type + "\n" }
        // One line (ending in LF, CR LF …) takes the type after it; more take it on a line of its own.
        if TextSplitting.lines(rendered).count <= 1 { return rendered.dropLast() + "   " + type + "\n" }
        return rendered + type + "\n"
    }

    // MARK: - Commands

    /// Runs a `:command`; false to end the session.
    private func command(_ line: String) async -> Bool {
        let parts = line.dropFirst().split(separator: " ", maxSplits: 1).map(String.init)
        let name = parts.first ?? ""
        let argument = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        switch name {
        case "quit", "q", "exit": return false
        case "help", "h": StandardStreams.writeOutput(Self.help)
        case "actions": StandardStreams.writeOutput(ActionCatalog.list(ActionCatalog.matching(argument, in: registry)))
        case "describe":
            guard let argument else {
                StandardStreams.writeError("error: :describe takes an action's, control step's or entity type's name\n")
                return true
            }
            switch Describing.text(for: argument, in: registry) {
            case .success(let text): StandardStreams.writeOutput(text)
            case .failure(let error): StandardStreams.writeError("error: \(error.message)\n")
            }
        case "vars":
            let shown = session.shownVariables
            let names = shown.keys.sorted()
            func described(_ name: String) -> String {
                SecretLabels.isLabelled(name, in: session.variables) ? RunSecrets.mask : shown[name]?.briefDescription ?? ""
            }
            StandardStreams.writeOutput(
                secrets.redact(names.isEmpty ? "no variables yet\n" : names.map { "\($0) = \(described($0))" }.joined(separator: "\n") + "\n"))
        // The type of a value made from a secret would tell which way a branch on it went.
        case "type": StandardStreams.writeOutput(session.previousIsLabelled ? RunSecrets.mask + "\n" : "\(session.previous.type.withArticle)\n")
        case "reset":
            session.reset()
            StandardStreams.writeOutput("session cleared\n")
        case "save": save(to: argument)
        case "load": await load(argument)
        case "undo": await undo()
        case "secret": await readSecret(argument)
        default:
            let commands = ["help", "actions", "describe", "vars", "type", "undo", "load", "save", "reset", "secret", "quit"]
            StandardStreams.writeError("error: unknown command ':\(name)'\(Suggestions.didYouMean(name, in: commands)); :help lists them\n")
        }
        return true
    }

    /// `:secret NAME`: looks the secret up as a run would, for `${secrets.NAME}` (Docs/REPL.md).
    private func readSecret(_ name: String?) async {
        guard let name, WorkflowParser.isIdentifier(name) else {
            StandardStreams.writeError("error: :secret takes a secret's name, as in :secret GITHUB_TOKEN\n")
            return
        }
        switch await SecretStore.source([name])[name] ?? .missing {
        case .found(let value):
            secrets.add(name, value: value)
            session.addSecret(name, value: value)
            StandardStreams.writeOutput("${secrets.\(name)} is set (shown as \(RunSecrets.mask))\n")
        case .missing:
            StandardStreams.writeError("error: the secret '\(name)' is not set; set it with 'relay secrets set \(name)', or in the environment variable \(name)\n")
        case .problem(let why):
            StandardStreams.writeError("error: the secret '\(name)' cannot be read: \(why)\n")
        }
    }

    private func save(to path: String?) {
        guard let path else {
            StandardStreams.writeError("error: :save takes a file name\n")
            return
        }
        do throws(FileOperationError) {
            let destination = FileReference(path: path).originalPath
            var status = stat()
            if lstat(destination, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
                StandardStreams.writeError("error: :save: '\(path)' is not a regular file\n")
                return
            }
            let text = session.workflowText(savedIn: (destination as NSString).deletingLastPathComponent)
            try AtomicFile.write(Data(text.utf8), to: destination)
            StandardStreams.writeOutput("saved \(session.entries.count) step\(session.entries.count == 1 ? "" : "s") to \(path)\n")
        } catch {
            StandardStreams.writeError("error: :save: \(error.message)\n")
        }
    }

    /// Runs a workflow file's steps in the session, one entry per step.
    private func load(_ path: String?) async {
        guard let path else {
            StandardStreams.writeError("error: :load takes a workflow file\n")
            return
        }
        let text: String
        do {
            text = try WorkflowLoader.readText(FileReference(path: path).originalPath, limit: Limits.workflowBytes)
        } catch {
            StandardStreams.writeError("error: :load: \(error.message)\n")
            return
        }
        // The workflow's pins hold in the session from now on, as in a run of it.
        if let workflow = session.loader.load(SourceFile(path: FileReference(path: path).path, text: text)).workflow {
            SecretBinding.pin(workflow, into: secrets)
        }
        for entry in ReplEntries.steps(ofWorkflow: text) {
            await evaluate(entry)
        }
    }

    private func undo() async {
        let history = UndoHistory(root: UndoHistory.defaultRoot)
        let undoer = IntentUndoer(registry: registry, packages: session.loader.packages)
        // Only what this session's entries changed: an earlier run is `relay undo`'s.
        guard let outcome = await history.undoLatest(among: session.journalFolders, performing: undoer.perform) else {
            StandardStreams.writeOutput("nothing to undo: no entry of this session changed a file that is not undone ('relay undo' undoes earlier runs)\n")
            return
        }
        StandardStreams.writeOutput("undid \(outcome.reverted) change\(outcome.reverted == 1 ? "" : "s")\n")
        for skipped in outcome.skipped { StandardStreams.writeError("note: \(skipped)\n") }
        for failure in outcome.failed { StandardStreams.writeError("error: not reverted: \(failure)\n") }
    }

    static let help = """
        Type a step as in a workflow, in YAML flow form:  change-case: upper   {replace-text: {find: a, with: b}}
        Its output is printed with its type and becomes the next step's input; 'as: NAME' keeps it in a variable.
        A line ending in ':' (for-each:, if: ...) opens a block; an empty line closes it.
          :help              this text
          :actions [FILTER]  list the actions
          :describe ACTION   one action's parameters
          :vars              the variables and their values
          :type              the type of the last output
          :undo              revert the last step's file changes
          :load FILE         run a workflow's steps in this session
          :secret NAME       read a secret for ${secrets.NAME} (shown as •••)
          :save FILE         write the session's steps as a workflow that relay run reproduces
          :reset             forget variables and steps
          :quit              leave (or end of input)

        """
}

/// The steps of a workflow file, each as the text a person would type (for `:load`).
enum ReplEntries {
    static func steps(ofWorkflow text: String) -> [String] {
        var steps: [String] = []
        var current: [String] = []
        var inSteps = false
        var indent = 0
        // Lines end where `relay run` ends them (LF, CR LF, CR …): a file saved with CR LF loads too.
        for line in TextSplitting.lines(text) {
            if !inSteps {
                if line.hasPrefix("steps:") { inSteps = true }
                continue
            }
            if !line.isEmpty, !line.hasPrefix(" "), !line.hasPrefix("-") { break }
            let stripped = line.drop { $0 == " " }
            if stripped.hasPrefix("- "), current.isEmpty || line.count - stripped.count <= indent {
                if !current.isEmpty { steps.append(current.joined(separator: "\n")) }
                indent = line.count - stripped.count
                current = [String(stripped.dropFirst(2))]
            } else if !current.isEmpty, !stripped.isEmpty {
                current.append(String(line.dropFirst(min(indent + 2, line.count - stripped.count))))
            }
        }
        if !current.isEmpty { steps.append(current.joined(separator: "\n")) }
        return steps
    }
}
