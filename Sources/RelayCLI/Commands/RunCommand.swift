import ArgumentParser
import Foundation
import RelayKit
import RelayLanguage
import RelayActions
import RelayRuntime

/// `relay run FILE`: runs a workflow and prints its output.
struct RunCommand: AsyncParsableCommand {
    /// Set by `relay runs rerun` when the run gets an earlier run's flags: what that run executed,
    /// which the flags hold to.
    @TaskLocal static var rerun: RerunPins?

    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a workflow file and print its output.",
        discussion: """
            Reading the workflow's folder, the scratch folder and the input files named here is free; anything else \
            is asked on a terminal and denied without one (Docs/Security.md). \
            Exit status: 0 success, 1 runtime error, 2 invalid workflow or usage, 3 cancelled, 4 permission denied. \
            A step with 'retry: N' is tried up to N more times when it fails (never after a denial or a stop); \
            --trace shows each failed attempt (Docs/Runs.md).
            """
    )

    @Argument(help: "The workflow file (YAML).") var file: String
    @Argument(help: "'-' to read the workflow's input from standard input.") var standardInputMarker: String?
    @Option(help: "The workflow's input, as text.") var input: String?
    @Option(help: "Read the workflow's input from this file.") var inputFile: String?
    @Option(name: .customLong("set"), help: "Set a variable before the run: NAME=VALUE (repeatable).")
    var assignments: [String] = []
    @Flag(help: "Print the output as JSON.") var json = false
    @Flag(help: "Print each step, its output type and its time to standard error, and each failed attempt of a step with 'retry:'.") var trace = false
    @Flag(help: "Keep nothing of this run in the run history ('relay runs').") var noHistory = false
    @OptionGroup var session: SessionOptions
    @Option(help: ArgumentHelp("Stop the run after this many seconds (exit 1); the workflow's own 'timeout:' may be shorter.", valueName: "seconds"))
    var timeout: Double?
    @OptionGroup var packageOptions: PackageOptions
    @OptionGroup var permissionOptions: PermissionOptions

    func validate() throws {
        if let marker = standardInputMarker, marker != "-" {
            throw ValidationError("unexpected argument '\(marker)'; only '-' (read input from standard input) may follow the file")
        }
        let sources = [input != nil, inputFile != nil, standardInputMarker != nil].filter { $0 }.count
        if sources > 1 { throw ValidationError("give the input one way: --input, --input-file or -") }
        for assignment in assignments {
            let name = assignment.prefix { $0 != "=" }
            if name == "secrets" || name.hasPrefix("secrets.") {
                throw ValidationError(
                    "--set cannot give a secret ('\(name)'): a workflow declares its secrets in 'secrets:' and each value comes from the environment variable of its name or 'relay secrets set NAME' (Docs/Runs.md, \"Secrets\")")
            }
            guard let equals = assignment.firstIndex(of: "="),
                WorkflowParser.isIdentifier(String(assignment[..<equals]))
            else {
                throw ValidationError("--set takes NAME=VALUE with NAME a variable name, not '\(assignment)'")
            }
        }
        if let timeout {
            if let problem = Limits.durationProblem(timeout) { throw ValidationError("--timeout: \(problem)") }
            if timeout == 0 { throw ValidationError("--timeout takes a number of seconds greater than 0") }
        }
    }

    func run() async throws {
        // Every run is kept in the history (Docs/Runs.md, "Run history") but a dry run's, which
        // leaves nothing, and one with --no-history.
        let recording =
            noHistory || session.dryRun
            ? nil : RunRecording(workflow: file, arguments: Self.rerunArguments(), input: inputDescription(standardInput: nil))
        do {
            // The flags' library folders travel with the run's tasks, not in the process's environment.
            try await session.usingLibraryFolders { try await runWorkflow(recording) }
            await recording?.finish(exitStatus: ExitStatus.success.rawValue)
        } catch let exit as ExitCode {
            await recording?.finish(exitStatus: exit.rawValue)
            throw exit
        } catch {
            await recording?.finish(exitStatus: ExitStatus.runtimeError.rawValue)
            throw error
        }
    }

    /// Read → load packages → check → ask once → run → report.
    private func runWorkflow(_ recording: RunRecording?) async throws {
        let base = try await packageOptions.loader()
        let variables = Self.variables(from: assignments)
        let interactive = isatty(0) == 1 && standardInputMarker == nil
        let (gate, prompt) = GrantPrompt.gate(for: file, granted: permissionOptions.granted, interactive: interactive, dryRun: session.dryRun)
        recording?.observeExecution(of: gate)
        if let rerun = Self.rerun { rerun.hold(gate) }
        let loader = try await PackageOptions.loading(
            packagesOf: file, into: base, gate: gate)
        let (workflow, diagnostics) = loader.load(path: file, predefined: Set(variables.keys))
        RelayCommand.report(diagnostics)
        guard let workflow else {
            recording?.noteError(DiagnosticRenderer().render(diagnostics))
            throw ExitStatus.invalid.exitCode
        }
        let unknownVariables = workflow.unknownVariables(variables.keys)
        if !unknownVariables.isEmpty {
            Self.fail(unknownVariables.map { "error: \($0)\n" }.joined(), recording)
            throw ExitStatus.invalid.exitCode
        }
        // A misspelt --answer is found now, not when its question comes unanswered.
        let questions = Questions(workflow)
        let unknownAnswers = questions.unknownAnswers(session.answers, workflowName: workflow.name)
        if !unknownAnswers.isEmpty {
            Self.fail(unknownAnswers.map { "error: \($0)\n" }.joined(), recording)
            throw ExitStatus.invalid.exitCode
        }
        // The secrets it declares, looked up before anything is asked or run (Docs/Runs.md, "Secrets").
        let secrets = gate.secrets
        let secretProblems = await SecretBinding.bind(workflow, into: secrets, from: SecretStore.source)
        recording?.mask(secrets)
        if !secretProblems.isEmpty {
            Self.fail(secretProblems, recording, masking: secrets)
            throw ExitStatus.invalid.exitCode
        }
        gate.allowFreely(runOf: file, inputFiles: [inputFile, input].compactMap { $0 })
        // A trusted package's own files (a cover it hands over) are read without asking.
        for package in loader.loadedPackages { gate.allowFreely(.read, package) }
        prompt.name(workflow.name)
        // Everything known before the first step is asked for at once (Docs/Security.md, "Asking once").
        let report = PermissionReport(workflow, entityTypes: loader.registry.entityTypes, variables: variables)
        if permissionOptions.declared { for (access, _) in report.declaredAccesses { gate.allow(access, fromCommandLine: true) } }
        if let (denials, commandLine) = await prompt.askBeforeRunning(
            GrantPrompt.needs(
                of: report, gate: gate, subWorkflows: SubWorkflowReports.collect(workflow, loader: loader, variables: variables).map(\.report)),
            command: Array(CommandLine.arguments.dropFirst()))
        {
            Self.fail(denials, recording)
            if let commandLine { StandardStreams.writeError(commandLine + "\n") }
            throw ExitStatus.permissionDenied.exitCode
        }
        let workflowInput = try readInput(declared: workflow.input?.type.type, recording)
        let history = UndoHistory(root: UndoHistory.defaultRoot)
        let journal = UndoJournal(root: history.root, workflow: URL(fileURLWithPath: file).standardizedFileURL.path)
        // A path made from a secret is kept as it is, to be undone, and shown masked.
        journal.shown = { [secrets] in secrets.redact($0) }
        defer { if journal.hasChanges { history.prune(keeping: 100) } }
        recording?.attach(journal: journal, gate: gate)
        let scratch = ScratchMentions(ScratchFolder.forRun())
        defer { scratch.finish() }
        let environment = RunEnvironment(
            interaction: session.interaction(interactive: interactive, questions: questions.prompts.map(\.prompt)),
            output: TerminalRunOutput(json: json, scratch: scratch, terminal: prompt.terminal, secrets: secrets), loader: loader, tracing: trace,
            journal: journal, scratchFolder: scratch.folder, opener: session.opener(), gate: gate, recorder: recording?.recorder,
            secretSource: SecretStore.source)
        // The run goes in a task that a signal or the run's own time bound stops.
        let stopper = RunStopper(position: environment.position)
        let outcome = ResultBox()
        let bound = [timeout, workflow.timeout].compactMap { $0 }.min()
        if let reason = await stopper.run(timeout: bound, {
            do {
                let (value, labelled) = try await SecretLabels.collectingOutput {
                    try await Interpreter(workflow: workflow, environment: environment).run(input: workflowInput, variables: variables)
                }
                // An output made from a secret is shown as ••• whole, whatever its form (a number, a list).
                outcome.set(.success(labelled ? .text(RunSecrets.mask) : value))
            } catch {
                outcome.set(.failure(error))
            }
        }) {
            prompt.terminal.endBar()
            let (message, status) = stopper.report(reason)
            Self.fail(message, recording, masking: secrets)
            recording?.noteStopped()
            throw ExitCode(status)
        }
        // A bar a stopped loop left is erased before the output or the error.
        prompt.terminal.endBar()
        do {
            let output = secrets.redact(OutputFormatter.render(try outcome.get(), json: json))
            scratch.note(output)
            StandardStreams.writeOutput(output)
        } catch let error as RuntimeError {
            Self.fail([error.diagnostic], recording, masking: secrets)
            throw (error.denial == nil ? ExitStatus.runtimeError : ExitStatus.permissionDenied).exitCode
        } catch let cancelled as RunCancelled {
            Self.fail("cancelled: \(cancelled.reason)\n", recording, masking: secrets)
            throw ExitStatus.cancelled.exitCode
        }
    }

    /// Prints `text` to standard error and keeps it as the run's error in the history, with the
    /// run's secrets masked in both.
    private static func fail(_ text: String, _ recording: RunRecording?, masking secrets: RunSecrets? = nil) {
        let shown = secrets?.redact(text) ?? text
        StandardStreams.writeError(shown)
        recording?.noteError(shown)
    }

    /// Reports `diagnostics` and keeps them, without colour, as the run's error in the history.
    private static func fail(_ diagnostics: [Diagnostic], _ recording: RunRecording?, masking secrets: RunSecrets? = nil) {
        RelayCommand.report(diagnostics, masking: secrets)
        let plain = DiagnosticRenderer().render(diagnostics)
        recording?.noteError(secrets?.redact(plain) ?? plain)
    }

    /// The command line after `relay run`, as given: what `relay runs rerun` runs again.
    static func rerunArguments() -> [String] {
        Array(RelayCommand.givenArguments.drop { $0 != "run" }.dropFirst())
    }

    /// What the run's input is, in words, for the history; `standardInput` is the text read from
    /// standard input, once it is.
    private func inputDescription(standardInput: String?) -> String? {
        if let input { return "text, \(Self.bytes(input)), from --input" }
        if let inputFile { return "the file \(URL(fileURLWithPath: inputFile).standardizedFileURL.path) (--input-file)" }
        if let standardInput { return "text, \(Self.bytes(standardInput)), from standard input" }
        return nil
    }

    private static func bytes(_ text: String) -> String {
        let count = text.utf8.count
        return "\(count) byte\(count == 1 ? "" : "s")"
    }

    /// Keeps text read from standard input in the history's command line, in place of `-`, so that
    /// `relay runs rerun` gives it again; text too long to keep makes the run not rerunnable.
    private func noteStandardInput(_ text: String, _ recording: RunRecording?) {
        guard let recording else { return }
        var arguments: [String]? = Self.rerunArguments()
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

    /// The run's input. A workflow whose input is a file gets the file `--input-file` names, not
    /// its contents read as a path.
    private func readInput(declared: ValueType?, _ recording: RunRecording?) throws -> Value {
        if let input { return .text(input) }
        if let inputFile, declared == .file {
            let file = FileReference(path: inputFile)
            guard file.exists else {
                Self.fail("error: --input-file: there is no file '\(Excerpt.start(of: inputFile))'\n", recording)
                throw ExitStatus.invalid.exitCode
            }
            return .file(file)
        }
        if let inputFile {
            do {
                return .text(try WorkflowLoader.readText(inputFile))
            } catch {
                Self.fail("error: --input-file: \(error.message)\n", recording)
                throw ExitStatus.invalid.exitCode
            }
        }
        if standardInputMarker != nil {
            // Before the run starts, so no step can be waiting behind it, and no child is running
            // yet: a signal still ends Relay meanwhile (its default action), so nothing hangs.
            let data = FileHandle.standardInput.readDataToEndOfFile()
            let text = String(decoding: data, as: UTF8.self)
            noteStandardInput(text, recording)
            return .text(text)
        }
        return .nothing
    }

    /// `--set NAME=VALUE` values, read as YAML scalars (`5` is a number, `true` a boolean).
    static func variables(from assignments: [String]) -> [String: Value] {
        var variables: [String: Value] = [:]
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            let text = String(assignment[assignment.index(after: equals)...])
            let value: Value =
                switch ScalarResolver.resolvePlain(text) {
                case .null: .text(text)
                case .boolean(let flag): .boolean(flag)
                case .number(let number): .number(number)
                case .text(let string): .text(string)
                }
            variables[String(assignment[..<equals])] = value
        }
        return variables
    }
}
