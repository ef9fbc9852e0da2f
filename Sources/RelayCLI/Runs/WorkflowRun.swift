import ArgumentParser
import Foundation
import RelayKit
import RelayEngine
import RelayLanguage
import RelayRuntime

/// One run of a workflow file, from reading it to its record in the history: read → packages →
/// gate → load → secrets → asking → input → journal → scratch → environment → stopper → output →
/// history. Every front end that runs a file hands the run to this one type — `relay run`,
/// `relay runs rerun` — so that a run keeps the same promises however it was started
/// (Docs/Architecture.md, "One run pipeline"). The front end says what to run, with what input,
/// variables and grants, and how to ask; the run gives back its output and exit status.
struct WorkflowRun: Sendable {
    /// Where the workflow's input comes from.
    enum Input: Sendable {
        case none
        /// Text given on the command line (`--input`).
        case text(String)
        /// A file named on the command line (`--input-file`): the file itself when the workflow's
        /// input is a file, else its text.
        case file(String)
        /// Standard input, read to its end before the first step.
        case standardInput
        /// A file a watched folder gave: a plain file when the run starts, not a link (which
        /// could lead to any file, read freely as the input) nor a pipe or a device.
        case settledFile(String)
        /// A value a caller gave (a webhook's request body), and what it was, in words, for the
        /// history; a file given so is read freely, as a named input file is.
        case given(Value, String)
    }

    /// How the run ended: its exit status (Docs/Language.md, "Output and exit status"), the output
    /// as printed, and the run's ID in the history when it was kept.
    struct Outcome: Sendable {
        var status: Int32
        var output: String?
        var runID: Int64?
    }

    /// The workflow file, as given.
    var file: String
    var input: Input = .none
    /// Variables set before the run (`--set NAME=VALUE`).
    var variables: [String: Value] = [:]
    /// What the command line grants, and whether it grants what `permissions:` declares.
    var granted: [Capability: GrantScope] = [:]
    var grantsDeclared = false
    /// Whether a person at a terminal is asked what was not granted, and answers the steps'
    /// questions; without one, nothing is asked: a need is denied, a question unanswered.
    var asksOnTerminal = false
    /// Answers, confirmations, dry run, how URLs are opened, the library folders.
    var settings = RunSettings()
    /// The Swift packages of actions to load besides the workflow's own (`--package`).
    var packages: [String] = []
    /// The run's own time bound, in seconds; the workflow's `timeout:` may be shorter.
    var timeout: Double?
    var json = false
    var trace = false
    /// Whether the run is kept in the history, and the command line that gives it again
    /// (`relay runs rerun`); nil arguments: it cannot be run again.
    var keepsHistory = true
    var arguments: [String]?
    /// The command line shown in a denial without a terminal, to grant what was needed.
    var commandLine: [String] = []
    /// Set for a rerun that gives an earlier run's grants again: what that run executed, which
    /// the grants hold to.
    var rerun: RerunPins?
    /// Where the output and the errors are written.
    var console: any RunConsole = StandardConsole()
    /// Relay's state folder: the run history, the undo journal, the grants kept for workflows.
    var stateFolder = UndoHistory.defaultRoot
    /// What started the run, for the history: nil for a person at a command line, else the
    /// trigger's kind (`schedule`, `watch`, `webhook`).
    var trigger: String?
    /// Whether the run has the process to itself: signals stop it. A server's runs share it, and
    /// each is stopped by cancelling the task it runs in.
    var ownsProcess = true
    /// Told each path the run is let write.
    var onWrite: (@Sendable (String) -> Void)?
    /// The run's row in the history, written when a server acknowledged it before it could
    /// start; the run takes it over.
    var queuedID: Int64?
    /// Told the run's ID in the history once its start is written (nil when it is not recorded).
    var onRecorded: (@Sendable (Int64?) -> Void)?
    /// Whether a denial before the first step ends with the command line that grants it all (a
    /// front end that says how to grant in its own words turns it off).
    var showsGrantingCommand = true
    /// Why the run stopped when the task it runs in is cancelled (a server's signal, an
    /// assistant's cancellation); SIGTERM when nil.
    var stopReason: (@Sendable () -> RunStopper.Reason)?

    /// Runs the workflow to its end, a signal or its time bound, prints its output and errors,
    /// and records it.
    func run() async -> Outcome {
        // Every run is kept in the history (Docs/Runs.md, "Run history") but a dry run's, which
        // leaves nothing, and one with --no-history.
        let recording =
            !keepsHistory || settings.dryRun
            ? nil
            : RunRecording(
                workflow: file, arguments: arguments, input: inputDescription(standardInput: nil), inputHoldsValues: inputHoldsValues,
                trigger: trigger, queued: queuedID,
                path: stateFolder.appendingPathComponent(RunHistory.fileName).path)
        if let onRecorded {
            if let recording { Task { onRecorded(await recording.recordedID()) } } else { onRecorded(nil) }
        }
        var outcome = Outcome(status: ExitStatus.success.rawValue)
        do {
            // The library folders travel with the run's tasks, not in the process's environment.
            outcome.output = try await settings.usingLibraryFolders { try await perform(recording) }
        } catch let exit as ExitCode {
            outcome.status = exit.rawValue
        } catch {
            fail("error: \(Interpreter.message(for: error))\n", recording)
            outcome.status = ExitStatus.runtimeError.rawValue
        }
        outcome.runID = await recording?.finish(exitStatus: outcome.status)
        return outcome
    }

    /// Read → load packages → check → ask once → run → report; returns what was printed.
    private func perform(_ recording: RunRecording?) async throws -> String {
        try await execute(try await prepare(recording), recording)
    }

    /// What a run is ready to start with: its workflow, checked, and the gate that asked for
    /// what it needs before its first step.
    private struct Prepared {
        var workflow: CheckedWorkflow
        var loader: WorkflowLoader
        var gate: AccessGate
        var prompt: GrantPrompt
        var variables: [String: Value]
        var questions: Questions
        var interactive: Bool
    }

    /// Reads and checks the workflow, looks up its secrets and asks once for what it needs.
    private func prepare(_ recording: RunRecording?) async throws -> Prepared {
        let base = try await PackageOptions.loader(packages: packages)
        let readsStandardInput = if case .standardInput = input { true } else { false }
        let interactive = asksOnTerminal && !readsStandardInput
        let (gate, prompt) = GrantPrompt.gate(
            for: file, granted: granted, interactive: interactive, dryRun: settings.dryRun, store: GrantStore(root: stateFolder),
            asker: settings.permissionAsker)
        recording?.observeExecution(of: gate)
        if let onWrite { gate.observeWrites(onWrite) }
        if let rerun { rerun.hold(gate) }
        let loader = try await PackageOptions.loading(packagesOf: file, into: base, gate: gate)
        let (workflow, diagnostics) = loader.load(path: file, predefined: Set(variables.keys))
        console.report(diagnostics, masking: nil)
        guard let workflow else {
            recording?.noteError(DiagnosticRenderer().render(diagnostics))
            throw ExitStatus.invalid.exitCode
        }
        // What started it: nothing when a person runs a workflow that has triggers.
        var given = variables
        if !workflow.triggers.isEmpty, given["trigger"] == nil { given["trigger"] = .nothing }
        let variables = given
        let unknownVariables = workflow.unknownVariables(variables.keys)
        if !unknownVariables.isEmpty {
            fail(unknownVariables.map { "error: \($0)\n" }.joined(), recording)
            throw ExitStatus.invalid.exitCode
        }
        // A misspelt --answer is found now, not when its question comes unanswered.
        let questions = Questions(workflow)
        let unknownAnswers = questions.unknownAnswers(settings.answers, workflowName: workflow.name)
        if !unknownAnswers.isEmpty {
            fail(unknownAnswers.map { "error: \($0)\n" }.joined(), recording)
            throw ExitStatus.invalid.exitCode
        }
        // The secrets it declares, looked up before anything is asked or run (Docs/Runs.md, "Secrets").
        let secrets = gate.secrets
        let secretProblems = await SecretBinding.bind(workflow, into: secrets, from: SecretStore.source)
        recording?.mask(secrets)
        if !secretProblems.isEmpty {
            fail(secretProblems, recording, masking: secrets)
            throw ExitStatus.invalid.exitCode
        }
        // A watched folder's file is read freely only when it is a plain file, reached by no link:
        // a link put in its place later then leads where nothing is free.
        if case .settledFile(let path) = input, !Self.isPlainFile(path) {
            fail("error: \(Excerpt.start(of: path)) is not a plain file now (a link, a pipe or a device is not read), or is gone\n", recording)
            throw ExitStatus.invalid.exitCode
        }
        gate.allowFreely(runOf: file, inputFiles: inputFiles)
        // A trusted package's own files (a cover it hands over) are read without asking.
        for package in loader.loadedPackages { gate.allowFreely(.read, package) }
        prompt.name(workflow.name)
        // Everything known before the first step is asked for at once (Docs/Security.md, "Asking once").
        let report = PermissionReport(workflow, entityTypes: loader.registry.entityTypes, variables: variables)
        if grantsDeclared { for (access, _) in report.declaredAccesses { gate.allow(access, fromCommandLine: true) } }
        if let (denials, shownCommand) = await prompt.askBeforeRunning(
            GrantPrompt.needs(
                of: report, gate: gate, subWorkflows: SubWorkflowReports.collect(workflow, loader: loader, variables: variables).map(\.report)),
            command: commandLine)
        {
            fail(denials, recording)
            if let shownCommand, showsGrantingCommand { console.error(shownCommand + "\n") }
            throw ExitStatus.permissionDenied.exitCode
        }
        return Prepared(
            workflow: workflow, loader: loader, gate: gate, prompt: prompt, variables: variables, questions: questions, interactive: interactive)
    }

    /// Runs the prepared workflow with its journal, scratch folder and stopper; prints its output.
    private func execute(_ prepared: Prepared, _ recording: RunRecording?) async throws -> String {
        let (workflow, gate, prompt, variables) = (prepared.workflow, prepared.gate, prepared.prompt, prepared.variables)
        let secrets = gate.secrets
        let workflowInput = try readInput(declared: workflow.input?.type.type, recording)
        let history = UndoHistory(root: stateFolder)
        let journal = UndoJournal(root: history.root, workflow: URL(fileURLWithPath: file).standardizedFileURL.path)
        // A path made from a secret is kept as it is, to be undone, and shown masked.
        journal.shown = { [gate] in SecretLabels.shownPath($0, gate: gate) }
        defer { if journal.hasChanges { history.prune(keeping: 100) } }
        recording?.attach(journal: journal, gate: gate)
        let scratch = ScratchMentions(ScratchFolder.forRun())
        defer { scratch.finish() }
        let environment = settings.environment(
            loader: prepared.loader, gate: gate, terminal: prompt.terminal, interactive: prepared.interactive,
            questions: prepared.questions.prompts.map(\.prompt), json: json,
            tracing: trace, journal: journal, scratch: scratch.folder, mentions: scratch, recorder: recording?.recorder, silent: !console.showsSteps)
        // The run goes in a task that a signal or the run's own time bound stops.
        let stopper = RunStopper(position: environment.position, ownsProcess: ownsProcess)
        let outcome = ResultBox()
        let bound = [timeout, workflow.timeout].compactMap { $0 }.min()
        if let reason = await stopper.run(
            timeout: bound, cancelled: stopReason,
            {
                do {
                    let (value, labelled) = try await SecretLabels.collectingOutput {
                        try await Interpreter(workflow: workflow, environment: environment).run(input: workflowInput, variables: variables)
                    }
                    // An output made from a secret is shown as ••• whole, whatever its form (a number, a list).
                    outcome.set(.success(labelled ? .text(RunSecrets.mask) : value))
                } catch {
                    outcome.set(.failure(error))
                }
            })
        {
            prompt.terminal.endBar()
            let (message, status) = stopper.report(reason)
            fail(message, recording, masking: secrets)
            recording?.noteStopped()
            throw ExitCode(status)
        }
        // A bar a stopped loop left is erased before the output or the error.
        prompt.terminal.endBar()
        do {
            let output = secrets.redact(OutputFormatter.render(try outcome.get(), json: json))
            scratch.note(output)
            console.output(output)
            return output
        } catch let error as RuntimeError {
            // A shortcut's error names its action as well as the workflow's line.
            fail([ShortcutSource.locating(error.diagnostic, in: file, actions: prepared.loader.registry.actions)], recording, masking: secrets)
            throw (error.denial == nil ? ExitStatus.runtimeError : ExitStatus.permissionDenied).exitCode
        } catch let cancelled as RunCancelled {
            fail("cancelled: \(cancelled.reason)\n", recording, masking: secrets)
            throw ExitStatus.cancelled.exitCode
        }
    }

    /// The files named as the run's input, which it reads freely.
    private var inputFiles: [String] {
        switch input {
        case .text(let text): [text]
        case .file(let path), .settledFile(let path): [path]
        case .given(.file(let file), _): [file.path]
        case .none, .standardInput, .given: []
        }
    }

    /// Prints `text` to standard error and keeps it as the run's error in the history, with the
    /// run's secrets masked in both.
    private func fail(_ text: String, _ recording: RunRecording?, masking secrets: RunSecrets? = nil) {
        let shown = secrets?.redact(text) ?? text
        console.error(shown)
        recording?.noteError(shown)
    }

    /// Reports `diagnostics` and keeps them, without colour, as the run's error in the history.
    private func fail(_ diagnostics: [Diagnostic], _ recording: RunRecording?, masking secrets: RunSecrets? = nil) {
        console.report(diagnostics, masking: secrets)
        let plain = DiagnosticRenderer().render(diagnostics)
        recording?.noteError(secrets?.redact(plain) ?? plain)
    }

    /// Whether the input's words hold the values given (an assistant's arguments), which may be a
    /// secret's: kept once the secrets are known.
    private var inputHoldsValues: Bool {
        if case .given = input { true } else { false }
    }

    /// What the run's input is, in words, for the history; `standardInput` is the text read from
    /// standard input, once it is.
    private func inputDescription(standardInput: String?) -> String? {
        switch input {
        case .text(let text): "text, \(Self.bytes(text)), from --input"
        case .file(let path): "the file \(URL(fileURLWithPath: path).standardizedFileURL.path) (--input-file)"
        case .settledFile(let path): "the file \(path), from the watched folder"
        case .standardInput: standardInput.map { "text, \(Self.bytes($0)), from standard input" }
        case .none: nil
        case .given(_, let description): description
        }
    }

    private static func bytes(_ text: String) -> String {
        let count = text.utf8.count
        return "\(count) byte\(count == 1 ? "" : "s")"
    }

    /// Keeps text read from standard input in the history's command line, in place of `-`, so that
    /// `relay runs rerun` gives it again; text too long to keep makes the run not rerunnable.
    private func noteStandardInput(_ text: String, _ recording: RunRecording?) {
        guard let recording else { return }
        var arguments = self.arguments
        if let marker = arguments?.lastIndex(of: "-") { arguments?.remove(at: marker) }
        if text.utf8.count <= RunHistory.keptInputBytes { arguments? += ["--input", text] } else { arguments = nil }
        recording.noteInput(inputDescription(standardInput: text), arguments: arguments)
    }

    /// The run's result, handed out of its task.
    private final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<Value, any Error> = .success(.nothing)
        func set(_ result: Result<Value, any Error>) { lock.withLock { self.result = result } }
        func get() throws -> Value { try lock.withLock { result }.get() }
    }

    /// Whether `path` is a plain file, not a link: looked at, then resolved (a link put in its
    /// place between the two resolves elsewhere than the file's place in its folder).
    static func isPlainFile(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        let folder = ResolvedPath.resolve((path as NSString).deletingLastPathComponent)
        return ResolvedPath.resolve(path) == (folder == "/" ? "" : folder) + "/" + (path as NSString).lastPathComponent
    }

    /// The text of the input file at `path`.
    private func textOfInput(_ path: String, _ recording: RunRecording?) throws -> String {
        do {
            return try WorkflowLoader.readText(path)
        } catch {
            fail("error: --input-file: \(error.message)\n", recording)
            throw ExitStatus.invalid.exitCode
        }
    }

    /// The run's input. A workflow whose input is a file gets the file `--input-file` names, not
    /// its contents read as a path.
    private func readInput(declared: ValueType?, _ recording: RunRecording?) throws -> Value {
        switch input {
        case .none:
            return .nothing
        case .given(let value, _):
            return value
        case .text(let text):
            return .text(text)
        case .file(let path) where declared == .file:
            let file = FileReference(path: path)
            guard file.exists else {
                fail("error: --input-file: there is no file '\(Excerpt.start(of: path))'\n", recording)
                throw ExitStatus.invalid.exitCode
            }
            return .file(file)
        case .file(let path):
            return .text(try textOfInput(path, recording))
        case .settledFile(let path):
            return declared == .file || declared == nil ? .file(FileReference(path: path)) : .text(try textOfInput(path, recording))
        case .standardInput:
            // Before the run starts, so no step can be waiting behind it, and no child is running
            // yet: a signal still ends Relay meanwhile (its default action), so nothing hangs.
            let data = FileHandle.standardInput.readDataToEndOfFile()
            let text = String(decoding: data, as: UTF8.self)
            noteStandardInput(text, recording)
            return .text(text)
        }
    }
}

/// Where a run writes its output and its errors: the standard streams for a command, a caller's
/// own place for a front end that hands them on.
protocol RunConsole: Sendable {
    /// The workflow's output, as rendered.
    func output(_ text: String)
    /// An error or a note, for people.
    func error(_ text: String)
    /// Whether what the steps show (`show`, traces, warnings, progress) is printed as they go.
    var showsSteps: Bool { get }
    /// The checker's diagnostics, with `secrets` masked.
    func report(_ diagnostics: [Diagnostic], masking secrets: RunSecrets?)
}

extension RunConsole {
    /// Whether what the steps show (`show`, traces, warnings, progress) is printed as they go.
    var showsSteps: Bool { true }
}

/// Standard output and standard error, diagnostics coloured on a terminal.
struct StandardConsole: RunConsole {
    func output(_ text: String) { StandardStreams.writeOutput(text) }
    func error(_ text: String) { StandardStreams.writeError(text) }
    func report(_ diagnostics: [Diagnostic], masking secrets: RunSecrets?) { RelayCommand.report(diagnostics, masking: secrets) }
}
