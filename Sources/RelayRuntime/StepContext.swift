import Foundation
import RelayKit
import RelayEngine
import RelayLanguage

/// What an action sees of the run while it performs one step.
struct StepContext: IntentContext {
    let interpreter: Interpreter
    let step: PlannedStep
    /// The action being performed, when the context is an action's.
    var action: ActionDefinition?
    /// The folder relative paths resolve against, when not the workflow's (a given input's: the working folder).
    var base: URL?

    var mode: RunMode { interpreter.environment.interaction.mode }
    var baseDirectory: URL { base ?? interpreter.baseDirectory }
    var fileChanges: any FileChanges { GatedFileChanges(journal: interpreter.environment.journal, gate: interpreter.environment.gate) }
    var scratchFolder: ScratchFolder { interpreter.environment.scratchFolder }
    var entityTypes: EntityCatalog { interpreter.environment.loader.registry.entityTypes }

    func show(_ value: Value) async {
        // Chosen by a secret, it shows nothing: that it showed would tell which way the choice went.
        guard SecretLabels.context.isEmpty else { return }
        interpreter.environment.output.show(value)
    }

    /// A step chosen by a secret asks nothing: that it asked would tell which way the choice went.
    private func refuseAskingWhenChosen() throws {
        guard SecretLabels.context.isEmpty else {
            throw IntentError("a step chosen by a secret asks nothing: whether it asked would tell of the secret (Docs/Runs.md, \"Secrets\")")
        }
    }

    /// The names `--answer` may give this step's answers by, most particular first: the key the
    /// question gives, then the step's `as` name and its `label:` (the prompt itself comes first of all).
    private func answerKeys(_ key: String?, byStep: Bool = true) -> [String] {
        [key].compactMap { $0 } + (byStep ? [step.outputVariable, step.label].compactMap { $0 } : [])
    }

    func ask(_ question: Question) async throws -> Value {
        try refuseAskingWhenChosen()
        let answer = try await interpreter.environment.interaction.ask(question, keys: answerKeys(question.key))
        return try answer.coerced(to: question.type)
    }

    func choose(_ request: ChoiceRequest) async throws -> [Int] {
        try refuseAskingWhenChosen()
        return try await interpreter.environment.interaction.choose(request, keys: answerKeys(request.key, byStep: request.answeredByStep))
    }

    func requestConfirmation(_ prompt: String) async throws {
        try await requestConfirmation(prompt, key: nil)
    }

    func requestConfirmation(_ prompt: String, key: String?) async throws {
        try refuseAskingWhenChosen()
        guard try await interpreter.environment.interaction.confirm(prompt, keys: answerKeys(key)) else {
            throw RunCancelled("'\(prompt)' was declined")
        }
    }

    func registerUndo(action name: String, arguments: ValueDictionary) async throws {
        guard let journal = interpreter.environment.journal else { return }
        guard let action else { throw IntentError("only an action can register an undo") }
        let fullName = action.name == action.shortName ? name : "\(action.package).\(name)"
        do throws(FileOperationError) {
            let hash = action.source.flatMap { try? PackageSources.hash(ofPackageAt: $0) }
            try journal.recordUndo(package: action.source, packageHash: hash, action: fullName, arguments: arguments, title: "Undo \(action.title)")
        } catch {
            throw IntentError(error.message)
        }
    }

    func reportProgress(_ fraction: Double, _ label: String?) async {
        let shown = fraction < 0 || fraction.isNaN ? -1 : min(fraction, 1)
        interpreter.environment.output.progress(shown, label: label, step: step.displayName)
    }

    func warn(_ message: String) async {
        // Chosen by a secret, it warns of nothing: that it warned would tell which way the choice
        // went; given a value made from one, it does not say what, which may hold any piece of it.
        guard SecretLabels.context.isEmpty else { return }
        let said = SecretLabels.step.isEmpty ? Excerpt.cappingQuotes(in: message) : "what it says is not shown: the step was given a value made from a secret (\(RunSecrets.mask))"
        let place = "\(step.range.file.path):\(step.range.start.line):\(step.range.start.column)"
        interpreter.environment.output.trace("\(place): warning: \(step.displayName): \(said)")
    }

    func trace(_ detail: String) async {
        guard interpreter.environment.tracing else { return }
        interpreter.environment.output.trace("trace: \(step.range.file.path):\(step.range.start.line): \(step.displayName): \(detail)")
    }

    func open(_ url: URL) async throws {
        if url.isFileURL {
            // The opener would read the file, and run a program or a .desktop launcher.
            let path = ResolvedPath.resolve(url.path)
            try await authorize(.read(path))
            var info = stat()
            if path.lowercased().hasSuffix(".desktop")
                || (stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && (info.st_mode & 0o111) != 0)
            {
                throw IntentError("'\(shownPath(url.path))' is a program or a launcher: open hands files to the opener, never programs")
            }
        }
        // A dry run opens nothing, so it needs no grant.
        if interpreter.environment.opener.strategy != .dryRun { try await authorize(Access(.open, url.absoluteString)) }
        try await interpreter.environment.opener.open(url)
    }

    /// `path` as the workflow would write it: relative to its folder when inside it.
    private func shownPath(_ path: String) -> String {
        let folder = interpreter.baseDirectory.standardizedFileURL.path
        return path.hasPrefix(folder + "/") ? String(path.dropFirst(folder.count + 1)) : path
    }

    func authorize(_ access: Access) async throws {
        try await interpreter.environment.gate.authorize(access)
    }

    func runProgram(_ program: ProgramRun) async throws -> ProgramOutcome {
        // Asked by the name the workflow gave (a dry run stops here, saying what it would start).
        try await authorize(Access(.run, program.program))
        guard let executable = ChildProcess.find(program.program) else {
            throw IntentError("there is no program '\(program.program)' on PATH; install it, or name another")
        }
        // Inside the run's grants, with a small environment and its temporary files in the
        // run's scratch folder (Docs/Security.md, "Programs").
        let scratch = interpreter.environment.scratchFolder
        do throws(FileOperationError) {
            try scratch.make()
        } catch {
            throw IntentError("cannot make the run's scratch folder for '\(program.program)': \(error.message)")
        }
        let confinement = program.reachesDesktop
            ? nil : ProgramSandbox.confinement(executable: executable, granted: interpreter.environment.gate.confinement)
        defer {
            // A program given a secret may have written it anywhere it may write: what is read
            // from there later carries the secret (Docs/Runs.md, "Secrets follow what is made from them").
            let carried = RunSecrets.carried.union(RunSecrets.stepReads?.all.names ?? [])
            if !carried.isEmpty {
                let secrets = interpreter.environment.secrets
                for place in [scratch.folder.path] + (confinement?.write.sorted() ?? []) { secrets.noteWritten(place, names: carried) }
            }
        }
        return try await ProgramRunner.run(
            executable: executable, program, confinement: confinement,
            environment: ProgramSandbox.environment(scratch: scratch.folder.path, reachesDesktop: program.reachesDesktop))
    }

    /// Asked for by name, as `convert` and `get-text` do: through the run's conversions. A path
    /// made a file tells what is there (its size, dates and type): that is reading it.
    func convert(_ value: Value, to representation: Representation) async throws -> Value {
        let converted = try await interpreter.conversions.convert(value, to: ConversionTarget(representation), in: self)
        let given = Set(Interpreter.files(in: value))
        for path in Interpreter.files(in: converted) where !given.contains(path) && !path.hasPrefix(scratchFolder.folder.path + "/") {
            try await authorize(.read(path))
        }
        return converted
    }

    func runWorkflow(at path: String, input: Value) async throws -> Value {
        let environment = interpreter.environment
        let resolved = path.hasPrefix("/") ? path : interpreter.baseDirectory.appendingPathComponent(path).standardizedFileURL.path
        try await authorize(.read(resolved))
        let chain = interpreter.callStack + [resolved]
        guard interpreter.callStack.count < environment.maximumDepth else {
            let shown = chain.suffix(4).map { ($0 as NSString).lastPathComponent }.joined(separator: " → ")
            throw IntentError(
                "run-workflow nested more than \(environment.maximumDepth) deep (… → \(shown)); does a workflow run itself without a way to stop?")
        }
        guard environment.workflowCalls.increment() <= Limits.workflowCalls else {
            var error = RuntimeError(
                "this run has started \(Limits.workflowCalls) workflows with run-workflow, the most one run may; "
                    + "does a workflow run itself in a loop (… → \((resolved as NSString).lastPathComponent))?",
                step: step.displayName, at: step.range)
            error.endsRun = true
            throw error
        }
        let (workflow, diagnostics) = environment.loader.load(path: resolved)
        guard let workflow else {
            let rendered = DiagnosticRenderer().render(diagnostics)
            throw RuntimeError(
                "'\(shownPath(path))' is not a valid workflow", step: step.displayName, at: step.range,
                notes: rendered.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty })
        }
        environment.gate.executes(.workflow(path: resolved, content: Data(workflow.file.text.utf8)))
        let child = Interpreter(workflow: workflow, environment: environment, callStack: interpreter.callStack)
        do {
            return try await child.run(input: input)
        } catch var error as RuntimeError {
            let place = "\(step.range.file.path):\(step.range.start.line):\(step.range.start.column)"
            let note = "note: in the workflow run by '\(step.displayName)' at \(place)"
            if !error.notes.contains(note) { error.notes.append(note) }
            throw error
        }
    }
}

/// A context whose run has an access gate: what a package's host is confined to comes from it.
protocol GatedContext {
    var gate: AccessGate { get }
}

extension StepContext: GatedContext {
    var gate: AccessGate { interpreter.environment.gate }
}
