import Foundation
import RelayKit
import RelayEngine
import RelayLanguage

/// How a block of steps ended: normally with an output, or through `stop` with the workflow's output.
enum Completion: Sendable {
    case normal(Value)
    case stopped(Value)
}

/// Runs checked workflows: chaining, control flow, variables, modifiers and actions (Docs/Language.md, "Steps" and "Variables and expressions").
public final class Interpreter: Sendable {
    let environment: RunEnvironment
    /// The workflow files being run, outermost first (for `run-workflow` depth and recursion).
    let callStack: [String]
    let workflow: CheckedWorkflow
    let baseDirectory: URL

    /// An interpreter for `workflow`, nested inside the workflows of `callStack`.
    public init(workflow: CheckedWorkflow, environment: RunEnvironment, callStack: [String] = []) {
        self.workflow = workflow
        self.environment = environment
        self.callStack = callStack + [workflow.file.path]
        let path = URL(fileURLWithPath: workflow.file.path)
        self.baseDirectory = path.deletingLastPathComponent().standardizedFileURL
    }

    /// Runs the workflow with `input` and `variables` (from `--set`) and returns its output.
    /// Throws `RuntimeError`, or `RunCancelled` when a person declined.
    public func run(input: Value, variables: [String: Value] = [:]) async throws -> Value {
        try refuseUnanswerable()
        try await bindSecrets()
        // Deferred properties are fetched once per entity in the run, sub-workflows included; the
        // registry's content types and file properties are the run's.
        return try await AccessGate.$running.withValue(environment.gate) {
            try await environment.loader.registry.declarations.using {
                try await FetchedProperties.run {
                    // A workflow a step runs is held to the quota by the run it is part of.
                    guard callStack.count == 1 else { return try await runHeaderAndSteps(input: input, variables: variables) }
                    return try await ScratchQuota.holding(environment.scratchFolder, position: environment.position) {
                        try await self.runHeaderAndSteps(input: input, variables: variables)
                    }
                }
            }
        }
    }

    /// An action that may need a person, in a run with no terminal and no answers given, is an
    /// error before the first step runs, not after earlier steps have changed things.
    private func refuseUnanswerable() throws {
        let interaction = environment.interaction
        guard interaction.mode == .background, !interaction.suppliesAnswers,
            let (step, action) = workflow.actionSteps.first(where: { $0.action.definition.isForegroundOnly })
        else { return }
        throw RuntimeError(
            "'\(action.definition.name)' may need a person to answer it, and this run has no terminal; give its answers with --answer 'PROMPT=ANSWER' or --yes, or run it in a terminal",
            step: step.displayName, at: step.range)
    }

    /// The workflow's secrets, looked up before its first step (a workflow `run-workflow` starts
    /// looks up its own): one not set is an error at its name in `secrets:`.
    private func bindSecrets() async throws {
        guard !workflow.secrets.isEmpty else { return }
        let source = environment.secretSource ?? { names in Dictionary(uniqueKeysWithValues: names.map { ($0, SecretLookup.missing) }) }
        guard let problem = await SecretBinding.bind(workflow, into: environment.secrets, from: source).first else { return }
        throw RuntimeError(problem.message, at: problem.range, notes: problem.notes)
    }

    private func runHeaderAndSteps(input: Value, variables: [String: Value]) async throws -> Value {
        var input = input
        // A given input's paths are relative to the working folder; the default's, like every
        // path the workflow writes, to the workflow's folder.
        var inputBase: URL?
        if input.isNothing, let defaultValue = workflow.input?.defaultValue {
            input = try await Evaluator.evaluate(defaultValue, variables)
            inputBase = baseDirectory
        }
        if let declared = workflow.input?.type, declared.type != .any, !input.isNothing {
            input = try await converted(input, to: declared.type, declaredAt: declared.range, as: "input", relativeTo: inputBase)
        }
        var state: Variables = variables
        state["input"] = input
        // A workflow run by a step gets its input with the secrets it was made from.
        if !SecretLabels.step.isEmpty {
            SecretLabels.set(SecretLabels.step, on: "input", in: &state)
            SecretLabels.set(SecretLabels.step, on: "previous", in: &state)
        }
        _ = try setScratch(in: &state)
        if !workflow.secrets.isEmpty { state["secrets"] = SecretBinding.variable(for: workflow, from: environment.secrets) }
        // A variable written with a type holds to it, given from outside or not (Docs/Language.md, "A workflow file").
        for (name, declaration) in workflow.variableTypes.sorted(by: { $0.key < $1.key }) where declaration.type.type != .any {
            if let given = variables[name] {
                state[name] = try await converted(given, to: declaration.type.type, declaredAt: declaration.type.range, as: "variable '\(name)'", relativeTo: nil)
            } else if declaration.defaultValue == nil {
                throw RuntimeError(
                    "variable '\(name)' has no value: it is declared as \(declaration.type.type.withArticle) without a default; give it one with --set \(name)=VALUE",
                    at: declaration.type.range)
            }
        }
        for assignment in workflow.variables where variables[assignment.name.text] == nil {
            var value = try await Evaluator.evaluate(assignment.value, state)
            if let declared = workflow.variableTypes[assignment.name.text]?.type, declared.type != .any {
                value = try await converted(value, to: declared.type, declaredAt: declared.range, as: "variable '\(assignment.name.text)'", relativeTo: baseDirectory)
            }
            state[assignment.name.text] = value
            // A default made from a secret is the secret's, as a step's output would be.
            if !environment.secrets.isEmpty {
                let labels = SecretLabels.read(by: [assignment.value], in: state)
                if !labels.isEmpty {
                    environment.secrets.startFollowing()
                    SecretLabels.set(labels, on: assignment.name.text, in: &state)
                    environment.secrets.derive(value, from: labels.names)
                }
            }
        }
        let output: Value
        let stopped: Bool
        switch try await run(workflow.steps, input: input, variables: &state) {
        case .normal(let value): (output, stopped) = (value, false)
        case .stopped(let value): (output, stopped) = (value, true)
        }
        // The secrets its output was made from go to the step that ran it, or to the front end.
        SecretLabels.returned?.add(SecretLabels.of("previous", in: state))
        if let declared = workflow.output {
            // A declared output is kept: nothing is not a text or a number (Docs/Language.md, "A workflow file").
            if output.isNothing, ![.any, .nothing, .list].contains(declared.type) {
                let why = stopped ? "a 'stop' ended it with nothing" : workflow.steps.last.map(Self.gaveNothing) ?? "it has no steps"
                throw RuntimeError(
                    "the workflow declares output \(declared.type.name), but it gave nothing: \(why)", at: declared.range,
                    notes: ["note: a workflow that declares 'output: \(declared.type.name)' must end with a step that gives \(declared.type.withArticle)"])
            }
            do {
                return try await converted(output, to: declared.type, declaredAt: declared.range, as: "output", relativeTo: baseDirectory)
            } catch var error as RuntimeError where !SecretLabels.of("previous", in: state).isEmpty {
                // An output made from a secret is not quoted by the error that it is not what was declared.
                let texts = Self.quotableTexts(of: output)
                error.message = Self.masking(error.message, texts)
                error.notes = error.notes.map { Self.masking($0, texts) == $0 ? $0 : "note: \(RunSecrets.mask)" }
                throw error
            }
        }
        return output
    }

    /// Runs the steps with `input` as the first one's input and `variables` already set (the
    /// workflow's header is not read), leaving in `variables` what the steps set: the REPL keeps
    /// both between lines.
    public func continueRun(input: Value, variables: inout [String: Value]) async throws -> Value {
        let scratch = try setScratch(in: &variables)
        defer { if scratch { variables["scratch"] = nil } }
        let before = variables
        let (value, after) = try await ScratchQuota.holding(environment.scratchFolder, position: environment.position) {
            var variables = before
            switch try await self.run(self.workflow.steps, input: input, variables: &variables) {
            case .normal(let value), .stopped(let value): return (value, variables)
            }
        }
        variables = after
        return value
    }

    /// `scratch`, the run's scratch folder, made when the workflow reads it and sets no variable of
    /// that name itself (Docs/Language.md, "Variables and expressions").
    /// Returns whether it set it.
    private func setScratch(in variables: inout [String: Value]) throws -> Bool {
        guard workflow.variablesRead.contains("scratch"), variables["scratch"] == nil else { return false }
        do throws(FileOperationError) {
            try environment.scratchFolder.make()
        } catch {
            throw RuntimeError("cannot make the run's scratch folder: \(error.message)")
        }
        variables["scratch"] = .file(FileReference(path: environment.scratchFolder.folder.path))
        return true
    }

    /// Runs steps in order, each one's output the next one's input.
    /// Runs `steps`, the first given `input`; in a run that follows secrets, `inputLabels` are
    /// the secrets the input was made from (a loop gives each time's: what the time before left
    /// is not the input).
    ///
    /// The labels of the value going from step to step are kept here (`flowing`), not among the
    /// variables, where a step finds them only when it reads them there (`readsPreviousLabels`);
    /// they are left among the variables at the end, for what ran the steps, unless
    /// `leavesLabels` is false (a loop, which works out its own).
    ///
    /// `stopChoice` is shared by a loop's iterations: a step that may have stopped the run in one
    /// chooses every step after it in the later ones too, which run only because it did not.
    func run(
        _ steps: [PlannedStep], input: Value, inputLabels: SecretNames? = nil, leavesLabels: Bool = true, stopChoice: StopChoice? = nil,
        variables: inout Variables
    ) async throws -> Completion {
        var flowing = inputLabels
        defer { if leavesLabels, let flowing { SecretLabels.set(flowing, on: "previous", in: &variables) } }
        var previous = input
        // The workflow's own steps are numbered, for a run stopped from outside to say where.
        let numbered = callStack.count == 1 && steps.count == workflow.steps.count && steps.first === workflow.steps.first
        // What chose whether an earlier step stopped the run: the steps after it run only when it
        // did not, so they are chosen by it too.
        // Kept here, or in the loop's `stopChoice` (locked: a parallel loop's turns share it).
        var ownChoosing = SecretNames.none
        for (index, step) in steps.enumerated() {
            let completion: Completion
            do {
                let stopChoosing = environment.secrets.isFollowing ? stopChoice?.labels ?? ownChoosing : .none
                if stopChoosing.isEmpty || stopChoosing.isSubset(of: SecretLabels.context) {
                    completion = try await run(
                        step, previous: previous, previousLabels: &flowing, variables: &variables, topLevelNumber: numbered ? index + 1 : nil)
                } else {
                    completion = try await SecretLabels.choosing(by: stopChoosing) {
                        try await run(
                            step, previous: previous, previousLabels: &flowing, variables: &variables, topLevelNumber: numbered ? index + 1 : nil)
                    }
                }
                if step.mayStop, environment.secrets.isFollowing {
                    let choosing = SecretLabels.read(step.allReads, in: variables).union(SecretLabels.context)
                    if let stopChoice { stopChoice.add(choosing) } else { ownChoosing.formUnion(choosing) }
                }
            } catch var error as RuntimeError {
                // "nothing has no property 'id'": say which step gave the nothing.
                if previous.isNothing, index > 0, error.message.hasPrefix("nothing ") {
                    error.notes.append("note: 'previous' is nothing here: " + Self.gaveNothing(steps[index - 1]))
                }
                // `${trigger.file}` in a run nobody's trigger started.
                if error.message.hasPrefix("nothing "), step.allReads.variables.contains("trigger"), variables["trigger"]?.isNothing ?? false {
                    error.notes.append(
                        "note: 'trigger' is nothing when a person runs the workflow: it holds what started the run under relay serve; guard it with 'if: ${trigger}' (Docs/Automations.md)")
                }
                // "the previous step gave number 5": say which step that was, as the checker does.
                if error.isChainedMismatch, index > 0 {
                    let producer = InputMismatch.producer(steps[index - 1].displayName, line: steps[index - 1].range.start.line)
                    error.message = error.message.replacingOccurrences(of: "the previous step gave", with: "the previous step, \(producer), gave")
                    error.isChainedMismatch = false
                } else if error.isChainedMismatch, steps.first === workflow.steps.first {
                    error.message = error.message.replacingOccurrences(of: "the previous step gave", with: "the workflow's input was")
                    error.isChainedMismatch = false
                }
                throw error
            }
            switch completion {
            case .normal(let output): previous = output
            case .stopped(let output): return .stopped(output)
            }
        }
        return .normal(previous)
    }

    /// Why `step` output nothing, for a note.
    static func gaveNothing(_ step: PlannedStep) -> String {
        let place = "line \(step.range.start.line)"
        if let keyword = step.grammar?.keyword, let (fallback, when) = step.givesNothingWhen {
            // Which branch ran is not kept: both ways to nothing are said.
            return "the '\(keyword)' at \(place) gives nothing when \(when) (it has no '\(fallback)' steps), or ran steps that gave nothing"
        }
        if case .branch? = step.grammar?.output { return "the '\(step.displayName)' at \(place) ran a branch that gave nothing" }
        return "step '\(step.displayName)' at \(place) gave nothing"
    }

    /// Runs one step with its modifiers — its input, `if:`, `retry:`, `timeout:` and `on-error` —
    /// and counts it for the run history when there is one.
    /// `previousLabels` are the secrets `previous` was made from (nil: as kept among the
    /// variables); the step leaves its output's there.
    func run(
        _ step: PlannedStep, previous: Value, previousLabels: inout SecretNames?, variables: inout Variables, topLevelNumber: Int? = nil
    ) async throws -> Completion {
        environment.position.enter(step, topLevelNumber: topLevelNumber)
        // File values look for their files again in each step (another program may have moved them).
        FileChecks.startRound()
        if step.readsPrevious { variables["previous"] = previous }
        var recorder = environment.recorder
        let started = environment.tracing || recorder != nil ? RunRecorder.now : 0
        var attempts = 1
        var status = RunRecorder.StepStatus.succeeded
        var completion: Completion
        // What the step reads carries the secrets it was made from (SecretLabels); a run without
        // secrets follows none.
        // One optional value, nil without secrets, or before any step named one: a step of such a
        // run carries nothing more.
        var labels: SecretLabels.Step? = nil
        /// The labels of what chose the way a control step went, in a run that follows secrets.
        var choosing = SecretNames.none
        if !environment.secrets.isEmpty {
            if !step.allReads.secrets.isEmpty { environment.secrets.startFollowing() }
            if environment.secrets.isFollowing {
                let flowing = previousLabels ?? SecretLabels.of("previous", in: variables)
                // What reads them among the variables finds them there.
                if Self.readsPreviousLabels(step) { SecretLabels.set(flowing, on: "previous", in: &variables) }
                let following = SecretLabels.Step(step, input: flowing)
                labels = following
                // Whether a step chosen by a secret ran, and how often, would tell of the secret:
                // it is not in the history's steps (its own `when:` is looked at below).
                if !following.context.isEmpty { recorder = nil }
            }
        }
        let reads = labels != nil && environment.secrets.hasLabelledFiles ? SecretCollector() : nil
        do {
            var input = previous
            if let template = step.input {
                input = try await located(step) { () async throws(RuntimeError) in try await Evaluator.evaluate(template, variables) }
                if var following = labels {
                    following.input = SecretLabels.read(by: [template], in: variables)
                    // What the step's blocks get first is this input: it carries its secrets there
                    // (with the previous output's, which `${previous}` still names).
                    if Self.readsPreviousLabels(step) { SecretLabels.add(following.input, to: "previous", in: &variables) }
                    labels = following
                }
            }
            if let condition = step.condition {
                labels?.context.formUnion(SecretLabels.read(by: [condition], in: variables))
                if labels?.context.isEmpty == false { recorder = nil }
                if !(try await located(step) { () async throws(RuntimeError) in try await Evaluator.evaluate(condition, variables) }).isTruthy {
                    if let labels {
                        previousLabels = labels.input.union(labels.context)
                        // What it would have set keeps what it held, which tells of the condition as much.
                        Self.label(step.assignedBySkipping, with: labels.context, in: &variables)
                    }
                    recorder?.finished(step, status: .skipped, started: started)
                    return .normal(input)
                }
            }
            do {
                labels?.read(step, variables: variables)
                // Which way a control step goes tells of what chose it, whichever way it goes.
                if let labels, Self.choosesBlocks(step) {
                    choosing = labels.context.union(Self.choosingLabels(of: step, input: labels.input, variables: variables))
                }
                // A frame of its own only when the step carries other labels than the one it is in,
                // or may start a run that returns some.
                if let reads {
                    // The run wrote a file from a secret: what this step reads of it is noted.
                    completion = try await RunSecrets.$stepReads.withValue(reads) {
                        if let frame = labels?.newFrame {
                            return try await SecretLabels.$frame.withValue(frame) {
                                try await performWithRetries(step, input: input, variables: &variables, attempts: &attempts)
                            }
                        }
                        return try await performWithRetries(step, input: input, variables: &variables, attempts: &attempts)
                    }
                } else if let frame = labels?.newFrame {
                    completion = try await SecretLabels.$frame.withValue(frame) {
                        try await performWithRetries(step, input: input, variables: &variables, attempts: &attempts)
                    }
                } else if let retry = step.retry {
                    completion = try await performTrying(step, retry, input: input, variables: &variables, attempts: &attempts)
                } else {
                    // Most steps: no async call between here and the step's own.
                    completion = try await performAttempt(step, input: input, variables: &variables)
                }
            } catch var error as RuntimeError {
                if error.stepName == nil { error.stepName = step.displayName }
                // A `fail`'s message is made from what it read: from a secret, it is the secret's.
                if let labels, !labels.step.isEmpty {
                    if !choosing.isEmpty, !choosing.isSubset(of: labels.frame.context), error.range != step.range {
                        // A step inside failed, one this step chose by a secret: which one, and what it
                        // says, would tell of it. The error is this step's (a denial still ends the run).
                        if var denial = error.denial {
                            denial.hidesTarget = true
                            error.denial = denial
                            error.message = "a step it chose by a secret was refused: " + denial.description
                        } else {
                            error.message = "a step it chose by a secret failed; what it says is not shown (\(RunSecrets.mask))"
                        }
                        error.stepName = step.displayName
                        error.range = step.range
                        error.notes = []
                    } else if !labels.context.isEmpty {
                        // Chosen by a secret: that it ran at all tells of it, and so would its words.
                        if var denial = error.denial {
                            denial.hidesTarget = true
                            error.denial = denial
                            error.message = denial.description
                        } else {
                            error.message = "its message is not shown: the step was chosen by a secret (\(RunSecrets.mask))"
                        }
                        error.notes = []
                    } else if Self.failsWithItsMessage(step) {
                        error.message = RunSecrets.mask
                    } else if var denial = error.denial {
                        // What it would have touched, when made from what it was given, is not named.
                        let texts = await Self.labelledTexts(of: step, input: labels.input.isEmpty ? nil : input, variables: variables)
                        if Self.masking(error.message, texts) != error.message {
                            denial.hidesTarget = true
                            error.denial = denial
                            error.message = denial.description
                        }
                        error.notes = error.notes.map { Self.masking($0, texts) == $0 ? $0 : "note: \(RunSecrets.mask)" }
                    } else {
                        // What it was given may be quoted in its message or its notes, whole or cut short.
                        let texts = await Self.labelledTexts(of: step, input: labels.input.isEmpty ? nil : input, variables: variables)
                        error.message = Self.masking(error.message, texts)
                        error.notes = error.notes.map { Self.masking($0, texts) == $0 ? $0 : "note: \(RunSecrets.mask)" }
                    }
                }
                // A run stopped from outside (a signal, its own time bound) is not the step's error to handle.
                guard let handler = step.onError, !error.endsRun, !Task.isCancelled else { throw error }
                // The error is made from what the step read.
                let errorLabels = labels.map {
                    $0.step.union($0.context).union(SecretLabels.read(step.allReads, in: variables)).union($0.returned?.all ?? .none)
                } ?? .none
                completion = try await handle(error, labels: errorLabels, with: handler, input: input, variables: &variables)
                status = .handled
            }
            if let labels {
                Self.label(step.assignedInside, with: choosing, in: &variables)
                // Whether it failed tells of what it read, its blocks included: what its `on-error`
                // steps set carries that, whether they ran or not.
                if !step.assignedOnError.isEmpty {
                    let failing = labels.step.union(labels.context).union(SecretLabels.read(step.allReads, in: variables))
                    Self.label(step.assignedOnError, with: failing, in: &variables)
                }
            }
        } catch {
            recorder?.finished(step, status: Self.stopped(by: error) ? .stopped : .failed, started: started, attempts: attempts, error: error as? RuntimeError)
            throw error
        }
        let output: Value
        switch completion {
        case .normal(let value):
            if let name = step.outputVariable { variables[name] = value }
            output = value
        case .stopped(let value): output = value
        }
        var outputLabels = SecretNames.none
        if let labels {
            outputLabels = self.labels(ofOutputOf: step, made: labels.step, input: labels.input, context: labels.context, variables: variables)
                .union(labels.returned?.all ?? .none).union(reads?.all ?? .none)
            previousLabels = outputLabels
            if let name = step.outputVariable { SecretLabels.set(outputLabels, on: name, in: &variables) }
            // Its text is the secrets' too, wherever it is shown (a message, the history).
            if !outputLabels.isEmpty {
                environment.secrets.derive(output, from: outputLabels.names)
                // A file it made in the scratch folder (a PDF, an archive, a conversion) is theirs.
                let scratch = environment.scratchFolder.folder.path + "/"
                for path in Self.files(in: output) where path.hasPrefix(scratch) { environment.secrets.noteWritten(path, names: outputLabels.names) }
            }
        }
        recorder?.finished(step, status: status, started: started, attempts: attempts, output: output, labelled: !outputLabels.isEmpty)
        if environment.tracing, labels?.context.isEmpty ?? true {
            let elapsed = Double(RunRecorder.now - started) / 1_000_000
            // A value made from a secret, or chosen by one, does not show its type: which branch
            // gave it could.
            let type = outputLabels.isEmpty ? output.type.name : RunSecrets.mask
            environment.output.trace(
                "trace: \(workflow.file.path):\(step.range.start.line): \(step.displayName) → \(type) (\(String(format: "%.3f", elapsed)) ms)")
        }
        return completion
    }

    /// The paths of the files in `value`, looking into lists.
    static func files(in value: Value) -> [String] {
        switch value {
        case .file(let file): [file.path]
        case .list(let items): items.flatMap(files)
        default: []
        }
    }

    /// Whether `step` is a control step that chooses which of its blocks run, or how often.
    static func choosesBlocks(_ step: PlannedStep) -> Bool {
        switch step.kind {
        case .conditional, .repeatCount, .forEach, .match, .menu: true
        case .action, .set, .append, .stop: false
        }
    }

    /// Adds `labels` to those of each of `names`.
    static func label(_ names: [String], with labels: SecretNames, in variables: inout Variables) {
        guard !labels.isEmpty else { return }
        for name in names { SecretLabels.add(labels, to: name, in: &variables) }
    }

    /// The labels of what a control step goes by: an `if`'s condition, a `repeat`'s count, the
    /// list a `for-each` goes through, the value a `match` compares (its input, `input`, when it
    /// names none).
    static func choosingLabels(of step: PlannedStep, input: SecretNames, variables: Variables) -> SecretNames {
        switch step.kind {
        case .conditional(let template, _, _), .repeatCount(let template, _): SecretLabels.read(by: [template], in: variables)
        case .forEach(let items, _, _, _): items.map { SecretLabels.read(by: [$0], in: variables) } ?? input
        case .match(let value, _, _, _): value.map { SecretLabels.read(by: [$0], in: variables) } ?? input
        case .action, .menu, .set, .append, .stop: .none
        }
    }

    /// Whether `step` finds the labels of `previous` among the variables: a template of its
    /// names `previous`, or it runs steps (a control step's blocks, an `on-error`'s steps).
    static func readsPreviousLabels(_ step: PlannedStep) -> Bool {
        guard case .action = step.kind else { return true }
        return step.onError != nil || step.allReads.variables.contains("previous")
    }

    /// The step tried once, or as its `retry:` says.
    private func performWithRetries(_ step: PlannedStep, input: Value, variables: inout Variables, attempts: inout Int) async throws -> Completion {
        if let retry = step.retry {
            return try await performTrying(step, retry, input: input, variables: &variables, attempts: &attempts)
        }
        return try await performAttempt(step, input: input, variables: &variables)
    }

    /// The secrets `step`'s output was made from: its input's, what it and the steps in its
    /// blocks read, and the conditions that chose it. What a server or a package answers is
    /// theirs: only the conditions' go with it. A program's output is made from what it was given
    /// (a `run:` pin hands it the secret, and `base64` gives it back).
    private func labels(ofOutputOf step: PlannedStep, made stepLabels: SecretNames, input: SecretNames, context: SecretNames, variables: Variables) -> SecretNames {
        if case .action(let action) = step.kind {
            // What it read is what it made its output from (`stepLabels`).
            return action.definition.capabilities.contains(where: { [.net, .packages].contains($0) }) ? context : stepLabels
        }
        let own = SecretLabels.read(step.ownReads, in: variables).union(context)
        switch step.grammar?.output {
        case .branch?:
            // The branch that ran left its output's labels as the previous step's; the condition's
            // go with them (a branch of no steps gives its input).
            return own.union(SecretLabels.of("previous", in: variables))
        case .input?:
            return input.union(context)
        case .stops?:
            if case .stop(nil) = step.kind { return input.union(context) }
            return own
        case .eachTime?, nil:
            return (step.readsInput ? input : .none).union(context).union(SecretLabels.read(step.allReads, in: variables))
        }
    }

    /// Whether `step` is a `fail`, whose error is the message it was given.
    static func failsWithItsMessage(_ step: PlannedStep) -> Bool {
        if case .action(let action) = step.kind { return action.definition.name == "fail" }
        return false
    }

    /// Whether `step` may start a run of a workflow, whose output's labels it then takes.
    static func startsRuns(_ step: PlannedStep) -> Bool {
        if case .action(let action) = step.kind { return action.definition.name == "run-workflow" }
        return false
    }

    /// Whether `error` is a stop from outside the step (a signal, the run's time bound, a
    /// person's no) rather than the step's own failure.
    static func stopped(by error: any Error) -> Bool {
        error is RunCancelled || error is CancellationError || Task.isCancelled
    }

    /// One attempt at the step: within its `timeout:` when it has one.
    private func performAttempt(_ step: PlannedStep, input: Value, variables: inout Variables) async throws -> Completion {
        if let timeout = step.timeout {
            return try await runWithTimeout(step, seconds: timeout, input: input, variables: &variables)
        }
        return try await perform(step, input: input, variables: &variables)
    }

    /// The step tried up to `retry.times` more times after a failure (Docs/Runs.md, "Retries"),
    /// waiting between tries. A permission denial, a stop (a signal, the run's time bound) and a
    /// person's no are never tried again. A failed attempt's variables are dropped: each attempt
    /// starts from the variables the step was given.
    private func performTrying(
        _ step: PlannedStep, _ retry: RetryPolicy, input: Value, variables: inout Variables, attempts attempt: inout Int
    ) async throws -> Completion {
        attempt = 1
        while true {
            var attemptVariables = variables
            do {
                let completion = try await performAttempt(step, input: input, variables: &attemptVariables)
                variables = attemptVariables
                return completion
            } catch var error as RuntimeError {
                if error.stepName == nil { error.stepName = step.displayName }
                guard attempt <= retry.times, error.denial == nil, !error.endsRun, !Task.isCancelled else {
                    if attempt > 1 { error.notes.append("note: the step was tried \(attempt) times (retry: \(retry.times))") }
                    throw error
                }
                let wait = retry.wait(after: attempt, asked: error.retryAfter)
                if environment.tracing {
                    let asked = error.retryAfter == nil ? "" : " (as \(Self.asker(of: step)) asked)"
                    // A step given a value made from a secret says no more here than in its error.
                    let message = SecretLabels.step.isEmpty ? error.message : await Self.masking(error.message, madeFrom: step, input: input, variables: variables)
                    environment.output.trace(
                        "trace: \(workflow.file.path):\(step.range.start.line): \(step.displayName) attempt \(attempt) of \(retry.times + 1) failed: \(message); trying again in \(NumberFormatting.text(wait)) s\(asked)")
                }
                // The wait is cancellable: a signal or the run's time bound ends it.
                try await Task.sleep(for: Limits.duration(seconds: wait))
                FileChecks.startRound()  // files are looked for again, as at a step's start
                attempt += 1
            }
        }
    }

    /// Who asked for a wait before the next attempt: a server for a built-in request, else the action.
    private static func asker(of step: PlannedStep) -> String {
        guard case .action(let action) = step.kind else { return "the step" }
        return action.definition.source == nil && action.definition.capabilities.contains(.net) ? "the server" : "the action"
    }

    /// Runs the `on-error` steps with `error` as `${error}`, which carries `labels`.
    private func handle(
        _ error: RuntimeError, labels: SecretNames, with handler: PlannedErrorHandling, input: Value, variables: inout Variables
    ) async throws -> Completion {
        switch handler {
        case .continueRun:
            return .normal(.nothing)
        case .steps(let steps):
            let saved = variables["error"], savedLabels = SecretLabels.of("error", in: variables)
            variables["error"] = .text(error.message)
            if !environment.secrets.isEmpty { SecretLabels.set(labels, on: "error", in: &variables) }
            defer {
                variables["error"] = saved
                if !environment.secrets.isEmpty { SecretLabels.set(savedLabels, on: "error", in: &variables) }
            }
            // Whether they run tells of what the failing step read: they are chosen by it.
            guard !labels.isEmpty, !labels.isSubset(of: SecretLabels.context) else { return try await run(steps, input: input, variables: &variables) }
            return try await SecretLabels.choosing(by: labels) { try await run(steps, input: input, variables: &variables) }
        }
    }

    /// `message`, the error of `step`, which was given values made from secrets: as it is, unless
    /// it holds one of them — the text of a value the step's own templates made from a secret, or
    /// of its `input` (nil when that was made from none), whole or any six characters of it in a
    /// row (a message may cut a value short) — and then `•••` in its place, whole.
    static func masking(_ message: String, madeFrom step: PlannedStep, input: Value?, variables: Variables) async -> String {
        masking(message, await labelledTexts(of: step, input: input, variables: variables))
    }

    /// `message` as it is, unless it quotes one of `texts` (RunSecrets.quotes): then a line saying so.
    static func masking(_ message: String, _ texts: [String]) -> String {
        texts.contains(where: { RunSecrets.quotes($0, in: message) }) ? "its message is not shown: it holds a value made from a secret (\(RunSecrets.mask))" : message
    }

    /// The texts of what `step`'s own templates made from secrets, and of its `input` (nil when
    /// that was made from none).
    static func labelledTexts(of step: PlannedStep, input: Value?, variables: Variables) async -> [String] {
        var texts: [String] = []
        if let input { texts += quotableTexts(of: input) }
        for template in step.ownTemplates where !SecretLabels.read(by: [template], in: variables).isEmpty {
            if let value = try? await Evaluator.evaluate(template, variables) { texts += quotableTexts(of: value) }
        }
        return texts
    }

    /// What a message may say of `value`: its text, each item's however deep (the first 4,096),
    /// and its sizes as messages put them — how many items or keys, how many characters or bytes —
    /// since a message that quotes one item, or says "a list of 13 items", tells of it as much.
    static func quotableTexts(of value: Value) -> [String] {
        var texts = [value.textValue]
        // The value itself is said whole above; what it holds, item by item.
        var pending: [(value: Value, isItem: Bool)] = [(value, false)]
        var budget = 4_096
        while let (next, isItem) = pending.popLast(), budget > 0 {
            budget -= 1
            if isItem { texts.append(next.textValue) }
            switch next {
            // Sizes as messages say them ("a list of 13 items"): a bare number would hide every
            // message with a 1 in it.
            case .list(let items):
                texts.append("\(items.count) item")
                pending += items.prefix(budget).map { ($0, true) }
            case .dictionary(let dictionary):
                texts.append("\(dictionary.count) key")
                pending += dictionary.values.prefix(budget).map { ($0, true) }
            case .text(let text):
                texts += ["\(text.count) character", "\(text.utf8.count) byte"]
            default:
                break
            }
        }
        return texts
    }

    private func runWithTimeout(
        _ step: PlannedStep, seconds template: Template, input: Value, variables: inout Variables
    ) async throws -> Completion {
        let seconds = try await number(template, variables, what: "timeout", step: step)
        if let problem = Limits.durationProblem(seconds) {
            throw RuntimeError("'timeout': \(problem)", step: step.displayName, at: step.range)
        }
        let snapshot = variables
        let (completion, updated) = try await withThrowingTaskGroup(of: (Completion, Variables)?.self) { group in
            group.addTask {
                var copy = snapshot
                let completion = try await self.perform(step, input: input, variables: &copy)
                return (completion, copy)
            }
            group.addTask {
                try await Task.sleep(for: Limits.duration(seconds: seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw RuntimeError(
                    "timed out after \(NumberFormatting.text(seconds)) second\(seconds == 1 ? "" : "s")",
                    step: step.displayName, at: step.range)
            }
            return result
        }
        variables = updated
        return completion
    }

    /// A case's value as written: YAML's `true`, `false`, numbers and dates compare as such.
    static func caseValue(_ label: String) -> Value {
        switch label {
        case "true": .boolean(true)
        case "false": .boolean(false)
        default: .text(label)
        }
    }

    /// Runs `body` with the secrets `templates` read (and `also`) added to the conditions that
    /// chose the steps under way (SecretLabels.context); as it is when they read none.
    private func choosing(
        by templates: [Template], also: SecretNames = .none, variables: Variables, _ body: () async throws -> Completion
    ) async throws -> Completion {
        guard !environment.secrets.isEmpty else { return try await body() }
        let labels = SecretLabels.read(by: templates, in: variables).union(also)
        guard !labels.isSubset(of: SecretLabels.context) else { return try await body() }
        return try await SecretLabels.choosing(by: labels) { try await body() }
    }

    /// Does what the step is, without its modifiers.
    private func perform(_ step: PlannedStep, input: Value, variables: inout Variables) async throws -> Completion {
        // A step planned to run at once, in a run with no secrets to follow through it.
        if let instant = step.instant, environment.secrets.isEmpty, let output = try instantly(instant, step: step, variables: variables) {
            return .normal(output)
        }
        switch step.kind {
        case .action(let action):
            return .normal(try await performAction(action, step: step, input: input, variables: variables))
        case .conditional(let condition, let then, let otherwise):
            let branch = try await Evaluator.evaluate(condition, variables).isTruthy ? then : otherwise
            // Which branch runs tells of the condition: what it makes carries its secrets.
            return try await choosing(by: [condition], variables: variables) {
                try await runBranch(branch, input: input, variables: &variables)
            }
        case .repeatCount(let count, let body):
            return try await choosing(by: [count], variables: variables) {
                try await runRepeat(count: count, body: body, step: step, input: input, variables: &variables)
            }
        case .forEach(let items, let variable, let parallel, let body):
            var list = input
            if let items { list = try await Evaluator.evaluate(items, variables) }
            // Each item is made from the list, and the loop runs as often as it has items.
            guard environment.secrets.isFollowing else {
                return try await runForEach(
                    list.asList, as: variable ?? "item", parallel: parallel, body: body, step: step, itemLabels: nil, variables: &variables)
            }
            let listLabels = items.map { SecretLabels.read(by: [$0], in: variables) } ?? SecretLabels.of("previous", in: variables)
            let itemLabels = listLabels.union(SecretLabels.context)
            SecretLabels.set(itemLabels, on: variable ?? "item", in: &variables)
            return try await SecretLabels.choosing(by: listLabels) {
                try await runForEach(
                    list.asList, as: variable ?? "item", parallel: parallel, body: body, step: step, itemLabels: itemLabels, variables: &variables)
            }
        case .menu(let prompt, let options):
            let promptText = try await Evaluator.evaluate(prompt, variables).textValue
            let request = ChoiceRequest(prompt: promptText, options: options.map(\.label))
            let chosen = try await withStepErrors(step) {
                try await environment.interaction.choose(request, keys: [step.outputVariable, step.label].compactMap { $0 })
            }
            guard let index = chosen.first, options.indices.contains(index) else { return .normal(.nothing) }
            return try await runBranch(options[index].body, input: input, variables: &variables)
        case .match(let value, let cases, let otherwise, let caseSensitive):
            var matched = input
            if let value { matched = try await Evaluator.evaluate(value, variables) }
            // Compared as == compares: texts ignoring case, unless the step says case counts.
            let chosen = cases.first { ValueComparison.equal(matched, Self.caseValue($0.label), ignoringCase: !caseSensitive) }
            let read = value.map { [$0] } ?? []
            let inputLabels = value == nil ? SecretLabels.of("previous", in: variables) : .none
            return try await choosing(by: read, also: inputLabels, variables: variables) {
                try await runBranch(chosen?.body ?? otherwise, input: input, variables: &variables)
            }
        case .set(let assignments):
            for assignment in assignments {
                variables[assignment.name.text] = try await Evaluator.evaluate(assignment.value, variables)
                if !environment.secrets.isEmpty {
                    SecretLabels.set(
                        SecretLabels.read(by: [assignment.value], in: variables).union(SecretLabels.context), on: assignment.name.text, in: &variables)
                }
            }
            return .normal(input)
        case .append(let assignments):
            for assignment in assignments {
                let value = try await Evaluator.evaluate(assignment.value, variables)
                let existing = variables[assignment.name.text]?.asList ?? []
                let added = value.asList
                if let problem = Value.itemsProblem(existing.count + added.count, of: "the list '\(assignment.name.text)'") {
                    throw RuntimeError(problem, step: step.displayName, at: assignment.name.range)
                }
                variables[assignment.name.text] = .list(existing + added)
                if !environment.secrets.isEmpty {
                    SecretLabels.add(
                        SecretLabels.read(by: [assignment.value], in: variables).union(SecretLabels.context), to: assignment.name.text, in: &variables)
                }
            }
            return .normal(input)
        case .stop(let value):
            guard let value else { return .stopped(input) }
            return .stopped(try await Evaluator.evaluate(value, variables))
        }
    }

    /// Runs an `if` or `menu` branch: the output of its last step, or nothing for an empty branch.
    private func runBranch(_ steps: [PlannedStep], input: Value, variables: inout Variables) async throws -> Completion {
        guard !steps.isEmpty else { return .normal(.nothing) }
        return try await run(steps, input: input, variables: &variables)
    }

    func number(_ template: Template, _ variables: Variables, what: String, step: PlannedStep) async throws(RuntimeError) -> Double {
        let value = try await Evaluator.evaluate(template, variables)
        do throws(CoercionError) {
            return try value.numberValue()
        } catch {
            throw RuntimeError("'\(what)': \(error)", step: step.displayName, at: template.range)
        }
    }

    /// Runs `body`, naming `step` in its errors.
    func located<T>(_ step: PlannedStep, _ body: () async throws(RuntimeError) -> T) async throws(RuntimeError) -> T {
        do {
            return try await body()
        } catch {
            var error = error
            if error.stepName == nil { error.stepName = step.displayName }
            throw error
        }
    }

    /// Runs `body`, turning errors that are not already located into errors of `step`.
    func withStepErrors<T>(_ step: PlannedStep, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw stepError(error, step)
        }
    }

    /// What an action's `error` ends `step` with: the step's error, located at it.
    func stepError(_ error: any Error, _ step: PlannedStep) -> any Error {
        switch error {
        case is RuntimeError, is RunCancelled: return error
        case let denial as AccessDenied:
            _ = environment.gate.takeDenial()
            return RuntimeError(denial, step: step.displayName, at: step.range)
        default:
            // A denial caught and retold by an action (as a file error, say) still ends the run.
            if let denial = environment.gate.takeDenial() { return RuntimeError(denial, step: step.displayName, at: step.range) }
            var located = RuntimeError(Self.message(for: error), step: step.displayName, at: step.range)
            located.retryAfter = (error as? IntentError)?.retryAfter
            return located
        }
    }

    public static func message(for error: any Error) -> String {
        switch error {
        case let error as IntentError: error.message
        case let error as CoercionError: error.description
        case let error as ArgumentError: error.description
        case let error as ValueAccessError: error.message
        case let error as CustomStringConvertible: error.description
        default: "\(error)"
        }
    }
}
