import Foundation
import RelayKit
import RelayEngine
import RelayLanguage

extension Interpreter {
    /// Performs an action step: evaluates and converts its arguments, fills the input parameter from
    /// the chain, and runs the action once per item when a single-item input is given a list.
    func performAction(_ action: PlannedAction, step: PlannedStep, input chained: Value, variables: Variables) async throws -> Value {
        let definition = action.definition
        var arguments = [Value?](repeating: nil, count: definition.parameters.count)
        for (index, template) in action.arguments.enumerated() {
            guard let template else { continue }
            let asURL = definition.takesURL[index]
            arguments[index] = try await located(step) { () async throws(RuntimeError) in
                try await Evaluator.evaluate(template, variables, asURL: asURL)
            }
        }
        guard let inputIndex = definition.inputIndex else { return try await invoke(definition, arguments, step: step) }
        let input: Value
        // The input from the chain (or `input:`), whose mismatch says where it came from.
        let chainedIndex = arguments[inputIndex] == nil ? inputIndex : nil
        if let written = arguments[inputIndex] {
            // A list written for a file to act on runs the action once per file, as a list that
            // arrives does; it never becomes one file (Docs/Language.md, "Files acted on").
            guard definition.parameters[inputIndex].existing, case .list = written else {
                return try await invoke(definition, arguments, step: step)
            }
            input = written
        } else {
            input = chained
        }
        // A list of one is its item (Docs/Language.md, "Lists where one value is wanted").
        if definition.mapsOverListInput, case .list(let items) = input, items.count != 1 {
            // A file to act on is a file, a path or an entity of each item, checked for every item
            // first, so that a number among files leaves none of them done.
            let parameter = definition.parameters[inputIndex]
            if parameter.existing, let (position, item) = items.enumerated().first(where: { !Self.mayNameFile($0.element) }) {
                let why = "only a file, a path or a file: URL names a file to act on; to make a file of a value, use save-file first"
                guard chainedIndex != nil else {
                    throw RuntimeError(
                        "input '\(parameter.name)' wants a file that exists: item \(position + 1) of \(items.count) is \(item.briefDescription), and \(why)",
                        step: step.displayName, at: step.range)
                }
                throw mismatch(
                    definition, parameter, step: step, found: "a list of \(items.count) whose item \(position + 1) is \(item.briefDescription)", why: why)
            }
            // And each names a file that is there, so that a missing one leaves the others untouched.
            if parameter.existing, let (position, path) = missingFile(in: items) {
                throw RuntimeError(
                    "input '\(parameter.name)': item \(position + 1) of \(items.count) names no file that exists: '\(Excerpt.start(of: path))'; none of the items was acted on",
                    step: step.displayName, at: step.range)
            }
            // Every item's files are asked for first, so that a denial leaves none of them done.
            var asked: Set<String> = []
            var effects: [AccessDenied] = []  // a dry run's: told item by item below
            for item in items where Self.mayName(item, givenTo: inputIndex, of: definition) {
                arguments[inputIndex] = item
                try await authorize(arguments, of: definition, step: step, filesOnly: true, asked: &asked, effects: &effects)
            }
            var results: [Value] = []
            results.reserveCapacity(items.count)
            for item in items {
                arguments[inputIndex] = item
                results.append(try await invoke(definition, arguments, step: step, chained: chainedIndex))
            }
            return .list(results)
        }
        arguments[inputIndex] = input
        return try await invoke(definition, arguments, step: step, chained: chainedIndex)
    }

    /// The error of a step whose input, from the chain, cannot become what its input parameter
    /// takes: the checker's words (`InputMismatch`), with the value found. The run's loop names
    /// the step the input came from (`Interpreter.run(_:input:variables:)`).
    func mismatch(_ definition: ActionDefinition, _ parameter: ParameterDefinition, step: PlannedStep, found: String, why: String) -> RuntimeError {
        let source = step.input != nil ? "'input:' gave" : "the previous step gave"
        var error = RuntimeError(
            InputMismatch.message(action: definition.name, wants: ConversionTarget(parameter: parameter), "\(source) \(found)"),
            step: step.displayName, at: step.range, notes: ["note: \(why)", InputMismatch.help(making: parameter.type)])
        error.isChainedMismatch = step.input == nil
        return error
    }

    /// Runs the action with `arguments`. A step given a secret (Docs/Runs.md, "Secrets") runs with
    /// it carried, so that the gate refuses to send a pinned one anywhere but its hosts; a package
    /// is never handed a pinned one; and the text the step makes from it is secret too.
    private func invoke(_ definition: ActionDefinition, _ arguments: [Value?], step: PlannedStep, chained: Int? = nil) async throws -> Value {
        let secrets = environment.secrets
        guard !secrets.isEmpty else { return try await invokeCarrying(definition, arguments, step: step, chained: chained) }
        // The secrets the step's values were made from (SecretLabels), and any whose text they hold.
        let labels = SecretLabels.step
        var carried = labels.isEmpty ? [] : labels.names
        for argument in arguments { if let argument { carried.formUnion(secrets.names(in: argument)) } }
        // A package's host reads what it likes within the run's grants: it is given every file the
        // run wrote from a secret that it could read.
        if definition.source != nil, secrets.hasLabelledFiles { carried.formUnion(environment.gate.labelledSecretsReadable()) }
        guard !carried.isEmpty else { return try await invokeCarrying(definition, arguments, step: step, chained: chained) }
        if let package = definition.source {
            do throws(AccessDenied) {
                try environment.gate.refuseCarried(carried, to: Access(.packages, package))
            } catch {
                _ = environment.gate.takeDenial()
                throw RuntimeError(error, step: step.displayName, at: step.range)
            }
        }
        let chosen = !SecretLabels.context.isEmpty
        let output = try await RunSecrets.$carried.withValue(carried) {
            try await RunSecrets.$chosen.withValue(chosen) { try await invokeCarrying(definition, arguments, step: step, chained: chained) }
        }
        // What a server or a package answers is theirs, not a text made from the secret; a
        // program's is made from what it was given.
        if !definition.capabilities.contains(where: { [.net, .packages].contains($0) }) { secrets.derive(output, from: carried) }
        return output
    }

    private func invokeCarrying(_ definition: ActionDefinition, _ arguments: [Value?], step: PlannedStep, chained: Int?) async throws -> Value {
        // What the arguments name is asked for before anything reads or changes it: files given as
        // they are (a conversion may read them), then what the converted values name.
        // Most steps name nothing, and are not asked about (without even an async call).
        var asked: Set<String> = []
        var effects: [AccessDenied] = []
        // The resolved path the gate allowed for each path read or written.
        var approved: [String: String] = [:]
        // Folders resolved once for the step's files, as given and converted.
        var folders: [String: String] = [:]
        if Self.mayName(arguments, definition) {
            try await authorize(
                arguments, of: definition, step: step, filesOnly: true, asked: &asked, effects: &effects, approved: &approved,
                folders: &folders)
        }
        var converted = arguments
        for index in arguments.indices {
            guard let argument = arguments[index] else { continue }
            // Most arguments are already what their parameter takes (a text for a text): kept
            // as they are, with no async call and no copy of the parameter.
            if let type = definition.scalarTypes[index], let same = Conversions.unchanged(argument, for: ConversionTarget(type)) {
                converted[index] = same
                continue
            }
            converted[index] = try await convert(argument, for: definition.parameters[index], of: definition, step: step, chained: index == chained)
        }
        if Self.mayName(converted, definition) {
            try await authorize(converted, of: definition, step: step, asked: &asked, effects: &effects, approved: &approved, folders: &folders)
        }
        // Each file is read where the gate allowed it, and nowhere a link leads since.
        if !approved.isEmpty { converted = converted.map { $0.map { Self.stamped($0, approved) } } }
        if !effects.isEmpty { return skipped(definition, arguments, step: step, effects: effects) }
        let context = StepContext(interpreter: self, step: step, action: definition)
        do {
            return try await withStepErrors(step) {
                let result = try await definition.perform(arguments: converted, context: context)
                if let url = result.urlToOpen { try await context.open(url) }
                let value = result.value
                // Only a list or a dictionary can nest: most steps give neither, and pay one look.
                switch value {
                case .list, .dictionary:
                    if let problem = value.sizeProblem ?? value.nestingProblem { throw RuntimeError(problem, step: step.displayName, at: step.range) }
                case .text:
                    if let problem = value.sizeProblem { throw RuntimeError(problem, step: step.displayName, at: step.range) }
                default: break
                }
                return value
            }
        } catch let error as RuntimeError {
            // In a dry run, the first change an action asks the gate for ends it before it is made.
            guard let denial = error.denial, denial.isDryRun else { throw error }
            return skipped(definition, arguments, step: step, effects: [denial])
        }
    }

    /// A dry run's step that would change, send or open something (Docs/Security.md, "A dry
    /// run"): says what it would do, and gives on the value it would have worked on (its input),
    /// or nothing.
    private func skipped(_ definition: ActionDefinition, _ arguments: [Value?], step: PlannedStep, effects: [AccessDenied]) -> Value {
        // Chosen by a secret, it says nothing: that it would act tells which way the choice went.
        for effect in effects where SecretLabels.context.isEmpty {
            environment.output.trace("dry run: \(step.range.file.path):\(step.range.start.line): \(step.displayName) \(effect)")
        }
        return definition.inputIndex.flatMap { arguments[$0] } ?? .nothing
    }

    /// The first item that names a path where there is nothing, with its position: a file value
    /// whose file is gone, or a text or `file:` URL naming no file.
    private func missingFile(in items: [Value]) -> (Int, String)? {
        for (position, item) in items.enumerated() {
            let path: String
            switch item.oneValue {
            case .file(let file): path = file.path
            case .text(let text): path = FileReference(path: text, relativeTo: baseDirectory).path
            case .url(let url) where url.isFileURL: path = url.path
            default: continue
            }
            var info = stat()
            if lstat(path, &info) != 0 { return (position, path) }
        }
        return nil
    }

    /// Whether `value` may name a file to act on (Docs/Language.md, "Files acted on").
    private static func mayNameFile(_ value: Value) -> Bool {
        switch value {
        case .file, .text, .entity: true
        case .url(let url): url.isFileURL
        case .list(let items): items.count == 1 && mayNameFile(items[0])
        default: false
        }
    }

    /// Whether `value`, given to the parameter at `index`, may name something the gate is asked about.
    private static func mayName(_ value: Value, givenTo index: Int, of definition: ActionDefinition) -> Bool {
        definition.parametersDeclareAccess || (definition.parameters[index].readsFiles && value.mayHoldFiles)
    }

    /// Whether `arguments` may name something the gate is asked about: a parameter of `definition`
    /// declares access, or an argument may hold a file.
    private static func mayName(_ arguments: [Value?], _ definition: ActionDefinition) -> Bool {
        if definition.parametersDeclareAccess { return true }
        for (index, argument) in arguments.enumerated() {
            if let argument, mayName(argument, givenTo: index, of: definition) { return true }
        }
        return false
    }

    /// Asks the run's gate for what each argument names (Docs/Security.md, "At run time"): for a
    /// parameter that declares a capability, the paths or hosts it names; for any other, the files
    /// in it, which the action may read.
    ///
    /// Given as they are (`filesOnly`), only the files are asked for: a conversion may read them.
    /// What was asked once in a step (`asked`) is not asked again.
    ///
    /// In a dry run, what would change, send or open something is gathered in `effects` instead.
    private func authorize(
        _ arguments: [Value?], of definition: ActionDefinition, step: PlannedStep, filesOnly: Bool = false, asked: inout Set<String>,
        effects: inout [AccessDenied]
    ) async throws(RuntimeError) {
        var approved: [String: String] = [:]
        var folders: [String: String] = [:]
        try await authorize(
            arguments, of: definition, step: step, filesOnly: filesOnly, asked: &asked, effects: &effects, approved: &approved,
            folders: &folders)
    }

    /// The same, noting in `approved` the resolved path the gate allowed for each path read;
    /// `folders` are the folders resolved so far in the step, resolved once for all their files.
    private func authorize(
        _ arguments: [Value?], of definition: ActionDefinition, step: PlannedStep, filesOnly: Bool = false, asked: inout Set<String>,
        effects: inout [AccessDenied], approved: inout [String: String], folders: inout [String: String]
    ) async throws(RuntimeError) {
        for (index, parameter) in definition.parameters.enumerated() {
            guard let argument = arguments[index] else { continue }
            let declared = definition.access(ofParameterAt: index) { arguments[$0] != nil }
            // A parameter that only looks at the values it is given reads none of their files.
            if declared == nil, !parameter.readsFiles { continue }
            let capability = declared ?? .read
            guard capability != .open else { continue }  // asked when the URL is opened
            guard !filesOnly || capability == .read || capability == .write else { continue }
            // A file to act on is asked for even as a path: a text item of a list is one.
            let type = (declared == nil || filesOnly) && !parameter.existing ? ValueType.any : parameter.type
            if capability == .net, let unnamed = Access.urlsNamingNoHost(in: argument).first {
                throw RuntimeError(Access.namesNoHost(unnamed), step: step.displayName, at: step.range)
            }
            for target in Access.targets(of: argument, for: capability, type: type, relativeTo: baseDirectory)
            where asked.insert("\(capability.rawValue) \(target)").inserted {
                if capability == .read || capability == .write, let problem = FileReference.pathProblem(target) {
                    throw RuntimeError("parameter '\(parameter.name)': \(problem): '\(Excerpt.start(of: target))'", step: step.displayName, at: step.range)
                }
                let access =
                    switch capability {
                    case .read, .write: Access.file(capability, target, reusing: &folders)
                    default: Access(capability, target)
                    }
                do throws(AccessDenied) {
                    try await environment.gate.authorize(access)
                    if capability == .read || capability == .write { approved[target] = access.target }
                } catch {
                    _ = environment.gate.takeDenial()
                    if error.isDryRun {
                        effects.append(error)
                        continue
                    }
                    throw RuntimeError(error, step: step.displayName, at: step.range)
                }
            }
        }
    }

    /// `value` with each file whose path the gate allowed to be read marked with the resolved path
    /// it allowed (`FileReference.approved`).
    private static func stamped(_ value: Value, _ approved: [String: String]) -> Value {
        switch value {
        case .file(let file): approved[file.path].map { .file(file.approved(at: $0)) } ?? value
        case .list(let items): .list(items.map { stamped($0, approved) })
        default: value
        }
    }

    /// Converts an argument to what its parameter asks for, through the run's conversions
    /// (Docs/Language.md, "Types and conversion"), and checks a choice.
    private func convert(
        _ argument: Value, for parameter: ParameterDefinition, of action: ActionDefinition, step: PlannedStep, chained: Bool = false
    ) async throws -> Value {
        let target = ConversionTarget(parameter: parameter)
        let value: Value
        if let unchanged = Conversions.unchanged(argument, for: target) {
            value = unchanged
        } else {
            value = try await withStepErrors(step) {
                do {
                    return try await conversions.convert(argument, to: target, in: StepContext(interpreter: self, step: step))
                } catch let error as ConversionError {
                    if chained { throw mismatch(action, parameter, step: step, found: argument.briefDescription, why: error.message) }
                    let role = parameter.isInput ? "input '\(parameter.name)'" : "parameter '\(parameter.name)'"
                    throw RuntimeError("\(role) wants \(target): \(error.message)", step: step.displayName, at: step.range)
                }
            }
        }
        // Only a parameter with choices reads its value as text (a long rich text's takes a while).
        guard !parameter.choices.isEmpty else { return value }
        // A list's choices are its items' (a list of an enum's cases).
        guard parameter.type == .list, case .list(let items) = value else { return try chosen(value, for: parameter, step: step) }
        var chosenItems: [Value] = []
        chosenItems.reserveCapacity(items.count)
        for (index, item) in items.enumerated() { chosenItems.append(try chosen(item, for: parameter, step: step, item: index + 1)) }
        return .list(chosenItems)
    }

    /// `value`, one of `parameter`'s choices, as the choice itself (a case's display name reaches
    /// the action as the case); else the error.
    private func chosen(_ value: Value, for parameter: ParameterDefinition, step: PlannedStep, item: Int? = nil) throws(RuntimeError) -> Value {
        let text = value.textValue
        if let problem = parameter.choiceProblem(text) {
            let place = item.map { " item \($0)" } ?? ""
            throw RuntimeError("parameter '\(parameter.name)'\(place) \(problem)", step: step.displayName, at: step.range)
        }
        if !parameter.choiceTitles.isEmpty, let choice = parameter.choice(matching: text), choice != text { return .text(choice) }
        return value
    }
}

extension Interpreter {
    /// The output of a step its action planned (`PlannedInstant`), worked out at once from the
    /// values it reads; nil when the plan does not take them (a variable not set yet, a value of
    /// another kind), and the step runs the usual way, which says what is wrong.
    func instantly(_ instant: PlannedInstant, step: PlannedStep, variables: Variables) throws -> Value? {
        var values: [Value] = []
        values.reserveCapacity(instant.reads.count)
        for read in instant.reads {
            switch read {
            case .variable(let name):
                guard let value = variables[name] else { return nil }
                values.append(value)
            case .value(let value): values.append(value)
            }
        }
        do {
            return try instant.action.output(values)
        } catch {
            throw stepError(error, step)
        }
    }
}
