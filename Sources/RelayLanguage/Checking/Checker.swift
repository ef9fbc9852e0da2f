import Foundation
import RelayKit

/// The static pass (DESIGN-NOTES: the resolver): resolves action names, binds arguments to
/// parameters, and reports, all at once and before anything runs, unknown actions and
/// parameters, missing parameters, undefined variables and the type mismatches it can know.
public struct Checker {
    let registry: ActionRegistry
    /// Every variable a template of the workflow reads.
    private var variablesRead: Set<String> = []
    /// The folder of the workflow file: relative paths written in it resolve against it.
    var folder: String = "."
    private var diagnostics: [Diagnostic] = []
    private var scope: VariableScope
    /// The secrets the workflow declares (`secrets:`).
    private var secretNames: [String] = []
    /// Whether `secrets` is given from outside (the REPL's `:secret`): its names are not declared.
    private var secretsGiven = false
    /// The step whose output the step being checked receives when it names no input, as messages
    /// name it (`'number' (line 3)`); nil for the workflow's input.
    private var producer: String?
    /// When the previous output is a list whose items' type is known (`find-files`: files; a
    /// literal list of numbers): that type, which an action run once per item is held to.
    private var item: ValueType?
    /// When the previous output is a list written in the workflow (`list: [a.txt, 5]`): its items,
    /// each of which an action run once per item is held to, whatever the others are.
    private var literalItems: [Value]?
    /// The variables the workflow sets in one place only, with `as:` on a step whose output type
    /// is known: that type (and its items'), from that step on. A variable set in two places, or
    /// given from outside, has no type the checker can hold.
    private var variableTypes: [String: (type: ValueType, item: ValueType?, line: Int)] = [:]
    /// Each `for-each`'s variable whose items' type is known: that type within the loop's lines,
    /// for an editor (`VariableTypings`); the checker itself does not hold a block's names to it.
    private var loopTypes: [VariableTypings.Scoped] = []
    /// How many places set each variable (`as:`, `set`, `append`, `variables:`, a loop's `as`).
    private var assignmentCounts: [String: Int] = [:]
    /// The output types that the workflows `run-workflow` steps name declare, by path, read once.
    var subWorkflowOutputs: [String: ValueType?] = [:]

    /// Checks `workflow`. `predefined` are variables given from outside (`--set`).
    /// The checked workflow is nil when there were errors.
    /// `typings`, when given, receives the variables' types it finds, errors or not.
    public static func check(
        _ workflow: Workflow, registry: ActionRegistry, predefined: Set<String> = [], typings: VariableTypings? = nil
    ) -> (workflow: CheckedWorkflow?, diagnostics: [Diagnostic]) {
        // The registry's content types and file properties are the ones the workflow may name.
        registry.declarations.using { checked(workflow, registry: registry, predefined: predefined, typings: typings) }
    }

    private static func checked(
        _ workflow: Workflow, registry: ActionRegistry, predefined: Set<String>, typings: VariableTypings?
    ) -> (workflow: CheckedWorkflow?, diagnostics: [Diagnostic]) {
        // A workflow with triggers reads what started it as `${trigger}` (nothing when run by hand).
        let predefined = workflow.triggers.isEmpty ? predefined : predefined.union(["trigger"])
        var checker = Checker(registry: registry, scope: VariableScope(runVariables: predefined))
        checker.folder = URL(fileURLWithPath: workflow.file.path).deletingLastPathComponent().path
        checker.checkSecretDeclarations(workflow)
        for assignment in workflow.variables {
            checker.checkReferences(assignment.value)
            checker.scope.runVariables.insert(assignment.name.text)
        }
        if let defaultValue = workflow.input?.defaultValue { checker.checkReferences(defaultValue) }
        checker.assignmentCounts = Self.assignmentCounts(in: workflow.steps)
        // A variable written with a type and no default is set only from outside the file.
        for name in workflow.variableTypes.keys where !workflow.variables.contains(where: { $0.name.text == name }) {
            checker.scope.runVariables.insert(name)
        }
        for name in Set(workflow.variables.map(\.name.text)).union(workflow.variableTypes.keys).union(predefined) {
            checker.assignmentCounts[name, default: 0] += 2
        }
        checker.checkVariableDefaults(workflow)
        var previous: ValueType? = workflow.input.map(\.type.type)
        if previous == .any { previous = nil }
        let steps = checker.checkSteps(workflow.steps, previous: &previous)
        if let declared = workflow.output, let produced = previous, let why = checker.neverConverts(produced, to: ConversionTarget(declared.type)) {
            checker.diagnostics.append(
                .error("the workflow declares output \(declared.type.name), but its last step outputs \(produced.withArticle)",
                    at: declared.range, notes: ["note: \(why)"]))
        }
        if let declared = workflow.output, let last = steps.last { checker.checkGivesSomething(last, declared: declared) }
        typings?.keep(checker.variableTypes, scoped: checker.loopTypes, entityTypes: registry.entityTypes)
        var errors = checker.diagnostics.contains { $0.severity == .error }
        var checked = CheckedWorkflow(
            file: workflow.file, name: workflow.name ?? Self.defaultName(workflow.file.path), summary: workflow.summary, input: workflow.input,
            output: workflow.output, packages: workflow.packages, variables: workflow.variables, steps: steps, timeout: workflow.timeout,
            permissions: workflow.permissions, variablesRead: checker.variablesRead, secrets: workflow.secrets,
            secretPins: workflow.secretPins, triggers: workflow.triggers)
        checked.variableTypes = workflow.variableTypes
        // Needs beyond what `permissions:` declares are warnings (the run asks for them).
        if !errors, workflow.permissions != nil { checker.diagnostics += PermissionReport(checked, entityTypes: checker.registry.entityTypes).warnings }
        errors = checker.diagnostics.contains { $0.severity == .error }
        return (errors ? nil : checked, checker.diagnostics)
    }

    private static func defaultName(_ path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        return file.hasSuffix(".yaml") ? String(file.dropLast(5)) : file.hasSuffix(".yml") ? String(file.dropLast(4)) : file
    }

    mutating func report(_ message: String, at range: SourceRange, notes: [String] = []) {
        diagnostics.append(.error(message, at: range, notes: notes))
    }

    // MARK: - Steps

    private mutating func checkSteps(_ steps: [Step], previous: inout ValueType?) -> [PlannedStep] {
        var planned: [PlannedStep] = []
        planned.reserveCapacity(steps.count)
        for step in steps {
            if let plannedStep = checkStep(step, previous: &previous) { planned.append(plannedStep) }
            producer = InputMismatch.producer(step.modifiers.label ?? step.keyword, line: step.keyRange.start.line)
        }
        for (made, next) in zip(planned, planned.dropFirst()) { warnIfDiscarded(made, by: next) }
        return planned
    }

    /// Warns when a step whose only effect is its output (no `as:`, nothing it touches) is
    /// followed by one that takes no input and does not read `previous`: the output is lost.
    private mutating func warnIfDiscarded(_ made: PlannedStep, by next: PlannedStep) {
        guard made.outputVariable == nil, case .action(let maker) = made.kind,
            maker.definition.capabilities.isEmpty, ![.nothing, .any].contains(maker.definition.output),
            case .action(let taker) = next.kind, next.condition == nil, next.input == nil,
            taker.definition.output != .nothing, !taker.definition.parameters.contains(where: \.isInput)
        else { return }
        let read = (taker.arguments.compactMap { $0 } + [next.timeout].compactMap { $0 }).flatMap(\.variableReferences)
        guard !read.contains(where: { $0.name == "previous" }) else { return }
        diagnostics.append(Diagnostic(
            .warning,
            "the output of '\(made.displayName)' is not used: the next step, '\(next.displayName)', takes no input",
            at: made.range,
            notes: ["note: name it with 'as:' to use it later, or read it in the next step as ${previous}"]))
    }

    /// Checks a block whose variables (`item`, `index`, `error`, a loop's `as`) exist only inside it.
    private mutating func checkBlock(_ steps: [Step], blockVariables: Set<String>, previous: ValueType?) -> [PlannedStep] {
        scope.blockVariables.append(blockVariables)
        // Each branch's first step receives what the control step received.
        let before = (producer, item, literalItems)
        defer {
            scope.blockVariables.removeLast()
            (producer, item, literalItems) = before
        }
        var blockPrevious = previous
        return checkSteps(steps, previous: &blockPrevious)
    }

    /// Checks branches of which at most one runs: a variable set in any of them is defined after.
    private mutating func checkBranches(_ branches: [[Step]], blockVariables: Set<String> = [], previous: ValueType?) -> [[PlannedStep]] {
        let before = scope.runVariables
        var after = before
        var planned: [[PlannedStep]] = []
        for branch in branches {
            scope.runVariables = before
            planned.append(checkBlock(branch, blockVariables: blockVariables, previous: previous))
            after.formUnion(scope.runVariables)
        }
        scope.runVariables = after
        return planned
    }

    /// Checks a loop body. Variables the body sets are taken as defined throughout it, since a
    /// later iteration reads what an earlier one set; a read before any set fails at run time.
    private mutating func checkLoopBody(_ steps: [Step], blockVariables: Set<String>, previous: ValueType?) -> [PlannedStep] {
        scope.runVariables.formUnion(Self.assignedVariables(in: steps))
        return checkBlock(steps, blockVariables: blockVariables, previous: previous)
    }

    private mutating func checkStep(_ step: Step, previous: inout ValueType?) -> PlannedStep? {
        let modifiers = step.modifiers
        for template in [modifiers.input, modifiers.condition, modifiers.timeout].compactMap({ $0 }) {
            checkReferences(template)
        }
        if let condition = modifiers.condition { warnIfPlainText(condition, as: "when") }
        var stepInput = previous
        var stepItem = item
        var stepLiterals = literalItems
        if let input = modifiers.input {
            stepInput = input.literalValue?.type ?? typed(input)?.type
            stepItem = input.literalValue.flatMap(Self.itemType) ?? typed(input)?.item
            if case .list(let items)? = input.literalValue { stepLiterals = items } else { stepLiterals = nil }
        }
        var outputItem: ValueType?
        var outputLiterals: [Value]?
        let onError: PlannedErrorHandling?
        switch modifiers.onError {
        case .none: onError = nil
        case .continueRun: onError = .continueRun
        case .steps(let steps):
            onError = .steps(checkBranches([steps], blockVariables: ["error"], previous: stepInput)[0])
        }
        var output: ValueType? = stepInput
        let kind: PlannedStep.Kind?
        var name: String
        switch step.kind {
        case .action(let call):
            name = call.name.text
            kind = checkAction(
                call, input: stepInput, item: stepItem, literals: stepLiterals, hasInputModifier: modifiers.input != nil, output: &output,
                outputItem: &outputItem, outputLiterals: &outputLiterals)
        case .conditional(let conditional):
            name = "if"
            checkReferences(conditional.condition)
            warnIfPlainText(conditional.condition, as: "if")
            let branches = checkBranches([conditional.then, conditional.otherwise ?? []], previous: stepInput)
            kind = .conditional(condition: conditional.condition, then: branches[0], otherwise: branches[1])
        case .repeatCount(let repeatCount):
            name = "repeat"
            checkReferences(repeatCount.count)
            if let literal = repeatCount.count.literalValue {
                let count = (try? literal.numberValue()) ?? -1
                if count < 0 || count != count.rounded() || count > Double(Int32.max) {
                    report(
                        "'repeat' takes a whole number of times from 0 to \(Int32.max), not \(literal.briefDescription)",
                        at: repeatCount.count.range)
                }
            }
            kind = .repeatCount(count: repeatCount.count, body: checkLoopBody(repeatCount.body, blockVariables: ["index"], previous: stepInput))
        case .forEach(let forEach):
            name = "for-each"
            if let items = forEach.items { checkReferences(items) }
            if let parallel = forEach.parallel {
                checkReferences(parallel)
                if let literal = parallel.literalValue, !Self.isValidParallelism(literal) {
                    report("'parallel' takes a number of iterations to run at once (1 or more), or true/false", at: parallel.range)
                }
            }
            // Each item of a parallel loop runs with its own copy of the variables: what it sets
            // is gone when it ends (Docs/Language.md, "Control steps").
            if let parallel = forEach.parallel, parallel.literalValue.map(Self.runsSideBySide) ?? true,
                let assignment = Self.firstAssignment(in: forEach.body, of: scope.runVariables)
            {
                diagnostics.append(Diagnostic(
                    .warning,
                    "this 'set' or 'append' changes a variable of the workflow inside a parallel 'for-each', where each item has its own copy: the change is gone when the item ends",
                    at: assignment.keyRange,
                    notes: ["note: collect results with the for-each's output, the list of each item's last output (Docs/Language.md, \"Control steps\")"]))
            }
            let loopVariable = forEach.variable?.text
            // A skipped last step gives its input, the item, as the item's output: a Shortcuts
            // user writing `when:` there means to leave the item out, which `if` does.
            if let last = forEach.body.last, let condition = last.modifiers.condition {
                diagnostics.append(Diagnostic(
                    .warning,
                    "when this 'when:' is false, the step gives its input — the item — and the item is then in the for-each's output",
                    at: condition.range,
                    notes: ["help: to leave such items out, write the step inside an 'if' without 'else': - if: ... then: [the step] (an 'if' that runs nothing adds nothing)"]))
            }
            // What each item is, when the list's type is known: for an editor.
            let listed = forEach.items.map { typed($0).map { ($0.type, $0.item) } } ?? (.list, stepItem)
            if let (type, item) = listed, let itemType = type == .list ? item : type, let first = forEach.body.first, let last = forEach.body.last {
                let lines = first.range.start.line...max(first.range.start.line, last.range.end.line)
                loopTypes.append(VariableTypings.Scoped(name: loopVariable ?? "item", typing: .init(type: itemType, item: nil, line: step.keyRange.start.line), lines: lines))
            }
            let body = checkLoopBody(forEach.body, blockVariables: [loopVariable ?? "item", "index"], previous: nil)
            kind = .forEach(items: forEach.items, variable: loopVariable, parallel: forEach.parallel, body: body)
        case .menu(let menu):
            name = "menu"
            checkReferences(menu.prompt)
            let bodies = checkBranches(menu.options.map(\.body), previous: stepInput)
            kind = .menu(prompt: menu.prompt, options: zip(menu.options, bodies).map { PlannedMenuOption(label: $0.label.text, body: $1) })
        case .match(let match):
            name = "match"
            if let value = match.value { checkReferences(value) }
            let bodies = checkBranches(match.cases.map(\.body) + [match.otherwise ?? []], previous: stepInput)
            kind = .match(
                value: match.value, cases: zip(match.cases, bodies).map { PlannedMenuOption(label: $0.label.text, body: $1) },
                otherwise: bodies.last ?? [], caseSensitive: match.caseSensitive)
        case .set(let assignments), .append(let assignments):
            let isSet: Bool
            if case .set = step.kind { isSet = true } else { isSet = false }
            name = isSet ? "set" : "append"
            for assignment in assignments {
                checkReferences(assignment.value)
                scope.runVariables.insert(assignment.name.text)
            }
            kind = isSet ? .set(assignments) : .append(assignments)
        case .stop(let value):
            name = "stop"
            if let value { checkReferences(value) }
            kind = .stop(value)
        }
        // What a control step gives is its grammar's (ControlGrammar.Output).
        switch step.grammar?.output {
        case .branch?: output = nil
        case .eachTime?: output = .list
        case .input?, .stops?, nil: break
        }
        if let outputVariable = modifiers.outputVariable { scope.runVariables.insert(outputVariable.text) }
        if let name = modifiers.outputVariable?.text, assignmentCounts[name] == 1, let output, modifiers.condition == nil, modifiers.onError == nil {
            variableTypes[name] = (output, outputItem, step.keyRange.start.line)
        }
        previous = modifiers.condition == nil ? output : (output == stepInput ? output : nil)
        item = modifiers.condition == nil ? outputItem : (outputItem == stepItem ? outputItem : nil)
        literalItems = modifiers.condition == nil ? outputLiterals : nil
        guard let kind else { return nil }
        if let label = modifiers.label { name = label }
        return PlannedStep(
            kind: kind, displayName: name, range: step.keyRange, outputVariable: modifiers.outputVariable?.text,
            input: modifiers.input, condition: modifiers.condition, onError: onError, timeout: modifiers.timeout,
            retry: modifiers.retry, label: modifiers.label)
    }

    /// Whether a literal `parallel:` runs more than one item at a time.
    private static func runsSideBySide(_ value: Value) -> Bool {
        switch value {
        case .boolean(let on): on
        case .number(let count): count > 1
        default: true
        }
    }

    private static func isValidParallelism(_ value: Value) -> Bool {
        switch value {
        case .boolean: true
        case .number(let number): number >= 1 && number == number.rounded()
        default: false
        }
    }

    // MARK: - Actions

    private mutating func checkAction(
        _ call: ActionCall, input: ValueType?, item: ValueType?, literals: [Value]?, hasInputModifier: Bool, output: inout ValueType?,
        outputItem: inout ValueType?, outputLiterals: inout [Value]?
    ) -> PlannedStep.Kind? {
        let name = call.name.text
        let action: ActionDefinition
        switch registry.lookup(name) {
        case .found(let found): action = found
        case .ambiguous(let candidates):
            report("action '\(name)' is ambiguous", at: call.name.range,
                notes: ["note: write one of \(candidates.map { "'\($0)'" }.joined(separator: ", "))"])
            return nil
        case .invalid(let error):
            report("action '\(name)' cannot be used: its declaration is wrong (\(error.problem))", at: call.name.range)
            return nil
        case .notFound:
            let candidates = registry.names + WorkflowParser.controlKeys
            var notes: [String] = []
            if Suggestions.closest(to: name, in: candidates) == nil {
                notes.append("note: 'relay actions' lists every action")
            }
            report("unknown action '\(name)'\(Suggestions.didYouMean(name, in: candidates))", at: call.name.range, notes: notes)
            return nil
        }
        var arguments = [Template?](repeating: nil, count: action.parameters.count)
        guard bind(call, to: action, into: &arguments) else { return nil }
        for (index, parameter) in action.parameters.enumerated() {
            guard let template = arguments[index] else {
                if parameter.isRequired {
                    report("'\(action.name)' needs '\(parameter.name)'", at: call.name.range,
                        notes: ["note: \(signature(of: action))"])
                }
                continue
            }
            checkReferences(template)
            checkLiteral(template, for: parameter, of: action)
            checkTyped(template, for: parameter, of: action)
        }
        checkFilterClauses(action, arguments)
        checkWorkflowPath(action, arguments)
        if let inputIndex = action.inputIndex, arguments[inputIndex] == nil, let input {
            let parameter = action.parameters[inputIndex]
            let mapsOverList = input == .list && action.mapsOverListInput
            // Run once per item: each item is what must become the input's type.
            if mapsOverList, let item, let why = neverConverts(item, to: ConversionTarget(parameter: parameter)) {
                let source = inputSource(hasInputModifier)
                report(
                    InputMismatch.message(action: action.name, wants: ConversionTarget(parameter: parameter), "\(source) a list of \(Self.plural(item))"),
                    at: call.name.range, notes: ["note: the action runs once per item; \(why)", InputMismatch.help(making: parameter.type)])
            } else if mapsOverList, item == nil, let literals, let (position, bad, why) = firstNeverConverting(literals, to: parameter) {
                // A list written with items of several types: each is held to the input's type.
                let source = inputSource(hasInputModifier)
                report(
                    InputMismatch.message(
                        action: action.name, wants: ConversionTarget(parameter: parameter),
                        "\(source) a list whose item \(position + 1) is \(bad.briefDescription)"),
                    at: call.name.range, notes: ["note: the action runs once per item; \(why)", InputMismatch.help(making: parameter.type)])
            }
            // A list of a type (`[Trail]`): each item of a typed list must become one.
            if !mapsOverList, input == .list, let itemType = parameter.itemType, let item,
                let why = neverConverts(item, to: ConversionTarget(itemType, accepting: parameter.accepts))
            {
                let source = inputSource(hasInputModifier)
                report(
                    InputMismatch.message(action: action.name, wants: ConversionTarget(parameter: parameter), "\(source) a list of \(Self.plural(item))"),
                    at: call.name.range, notes: ["note: \(why)", InputMismatch.help(making: parameter.type)])
            }
            if !mapsOverList, let why = neverConverts(input, to: ConversionTarget(parameter: parameter)) {
                let source = inputSource(hasInputModifier)
                report(
                    InputMismatch.message(action: action.name, wants: ConversionTarget(parameter: parameter), "\(source) \(input.withArticle)"),
                    at: call.name.range, notes: ["note: \(why)", InputMismatch.help(making: parameter.type)])
            }
        }
        if action.output == .any {
            output = nil
        } else if input == .list, action.mapsOverListInput, arguments[action.inputIndex ?? 0] == nil {
            output = .list
            outputItem = [.any, .nothing, .list].contains(action.output) ? nil : action.output
        } else {
            output = action.output
        }
        if action.output == .list, outputItem == nil { outputItem = itemOutput(of: action, arguments, receiving: item) }
        // The items of a list written after the action's name (`list: [a.txt, 5]`), as they are.
        if action.output == .list, action.inputIndex == nil, action.outputItem == nil, let primary = action.primaryIndex,
            action.parameters[primary].type == .list, case .list(let items)? = arguments[primary]?.literalValue
        {
            outputLiterals = items
        }
        // A sub-workflow's declared output is what the step gives (Docs/Language.md, "A workflow file").
        if let declared = subWorkflowOutput(action, arguments) { output = declared }
        return .action(PlannedAction(definition: action, arguments: arguments))
    }

    /// Binds what follows the action name to parameters. Returns false after reporting a problem.
    private mutating func bind(_ call: ActionCall, to action: ActionDefinition, into arguments: inout [Template?]) -> Bool {
        switch call.arguments {
        case .none:
            return true
        case .primary(let template):
            return bindPrimary(template, to: action, into: &arguments)
        case .primaryWithSiblings(let template, let siblings):
            guard bindPrimary(template, to: action, into: &arguments) else { return false }
            var ok = true
            for sibling in siblings {
                guard let index = action.parameterIndex(named: sibling.key), index != action.primaryIndex else {
                    if registry.action(named: sibling.key) != nil {
                        report(
                            "a step has exactly one action; found '\(call.name.text)', '\(sibling.key)'", at: sibling.keyRange,
                            notes: ["help: if '\(sibling.key)' is a parameter of '\(call.name.text)', check its spelling; otherwise give it a step of its own"])
                    } else {
                        reportUnknownParameter(sibling, of: action, candidates: action.parameters.filter { !$0.isPrimary })
                    }
                    ok = false
                    continue
                }
                arguments[index] = sibling.value
            }
            return ok
        case .named(let entries, let range):
            if let primary = action.primaryIndex, takesWholeMapping(action, primary: primary),
                !entries.contains(where: { action.parameterIndex(named: $0.key) != nil })
            {
                arguments[primary] = Self.dictionaryTemplate(entries, range: range)
                return true
            }
            var ok = true
            for entry in entries {
                guard let index = action.parameterIndex(named: entry.key) else {
                    reportUnknownParameter(entry, of: action, candidates: action.parameters)
                    ok = false
                    continue
                }
                arguments[index] = entry.value
            }
            return ok
        }
    }

    private mutating func reportUnknownParameter(_ entry: TemplateEntry, of action: ActionDefinition, candidates: [ParameterDefinition]) {
        if WorkflowParser.modifierKeys.contains(entry.key) {
            report(
                "'\(entry.key)' is a modifier, not a parameter of '\(action.name)': put it at the same indentation as '\(action.name)'",
                at: entry.keyRange, notes: ["note: \(signature(of: action))"])
            return
        }
        report(
            "'\(action.name)' has no parameter '\(entry.key)'\(Suggestions.didYouMean(entry.key, in: candidates.map(\.name)))",
            at: entry.keyRange, notes: ["note: \(signature(of: action))"])
    }

    private mutating func bindPrimary(_ template: Template, to action: ActionDefinition, into arguments: inout [Template?]) -> Bool {
        guard let primary = action.primaryIndex else {
            let message = action.parameters.contains { !$0.isInput }
                ? "'\(action.name)' has no primary parameter; give its parameters by name"
                : "'\(action.name)' takes no parameters"
            report(message, at: template.range, notes: ["note: \(signature(of: action))"])
            return false
        }
        arguments[primary] = template
        return true
    }

    /// Whether a mapping after the action's name is its primary parameter (e.g. `dictionary: {a: 1}`):
    /// the primary takes a dictionary and is the only parameter besides the input.
    private func takesWholeMapping(_ action: ActionDefinition, primary: Int) -> Bool {
        let parameter = action.parameters[primary]
        guard parameter.type == .dictionary || parameter.type == .any else { return false }
        return action.parameters.indices.allSatisfy { $0 == primary || $0 == action.inputIndex }
    }

    private static func dictionaryTemplate(_ entries: [TemplateEntry], range: SourceRange) -> Template {
        guard entries.allSatisfy({ $0.value.literalValue != nil }) else {
            return Template(.dictionary(entries), range: range)
        }
        var dictionary = ValueDictionary()
        for entry in entries { dictionary[entry.key] = entry.value.literalValue }
        return Template(.literal(.dictionary(dictionary)), range: range)
    }

    private mutating func checkLiteral(_ template: Template, for parameter: ParameterDefinition, of action: ActionDefinition) {
        if case .interpolation(let parts) = template.kind, let check = parameter.checkPattern {
            let pattern = TextPattern(parts.map { part in
                if case .text(let text) = part { return .text(text) }
                return .value
            })
            if let problem = check(pattern) { report("'\(action.name)' parameter '\(parameter.name)': \(problem)", at: template.range) }
            return
        }
        // A list's choices are its items' (a list of an enum's cases): each written item is checked, where it is written.
        if !parameter.choices.isEmpty, parameter.type == .list {
            let items: [(value: Value?, range: SourceRange)] =
                switch (template.kind, template.literalValue) {
                case (.list(let templates), _): templates.map { ($0.literalValue, $0.range) }
                case (_, .list(let values)?):
                    values.enumerated().map { ($1, $0 < template.itemRanges.count ? template.itemRanges[$0] : template.range) }
                default: []
                }
            for (index, item) in items.enumerated() {
                guard case .text(let text)? = item.value, let problem = parameter.choiceProblem(text) else { continue }
                report("'\(action.name)' parameter '\(parameter.name)' item \(index + 1) \(problem)", at: item.range)
            }
        }
        guard let literal = template.literalValue else { return }
        if !parameter.choices.isEmpty, case .text(let text) = literal {
            if let problem = parameter.choiceProblem(text) { report("'\(action.name)' parameter '\(parameter.name)' \(problem)", at: template.range) }
            return
        }
        if parameter.isInput, case .list = literal, action.mapsOverListInput { return }
        if parameter.type != .any, parameter.type != .list, !parameter.type.isEntity {
            do {
                _ = try literal.coerced(to: parameter.type)
            } catch {
                report(
                    "'\(action.name)' parameter '\(parameter.name)' wants \(parameter.type.withArticle), found \(literal.briefDescription)",
                    at: template.range, notes: error.reason.map { ["note: \($0)"] } ?? [])
                return
            }
        }
        if let check = parameter.check, let problem = check(literal) {
            report("'\(action.name)' parameter '\(parameter.name)': \(problem)", at: template.range)
        }
        if parameter.access == .net, let unnamed = Access.urlsNamingNoHost(in: literal).first {
            report("'\(action.name)' parameter '\(parameter.name)': \(Access.namesNoHost(unnamed))", at: template.range)
        }
    }

    /// `change-case TEXT (input) TO (primary: upper|lower|title)`: a one-line signature for notes.
    private func signature(of action: ActionDefinition) -> String {
        let parts = action.parameters.map { parameter -> String in
            var tags: [String] = []
            if parameter.isInput { tags.append("input") }
            if parameter.isPrimary { tags.append("primary") }
            if !parameter.isRequired && !parameter.isInput { tags.append("optional") }
            let choices = parameter.choices.isEmpty ? "" : " " + parameter.choices.joined(separator: "|")
            return "\(parameter.name): \(parameter.type.name)\(choices)\(tags.isEmpty ? "" : " (\(tags.joined(separator: ", ")))")"
        }
        return parts.isEmpty ? "'\(action.name)' takes no parameters" : "'\(action.name)' takes \(parts.joined(separator: "; "))"
    }

    // MARK: - Variables

    /// `secrets:` and the pins in `permissions:` name each secret once, pins only declared ones,
    /// and nothing sets a variable named `secrets` (Docs/Runs.md, "Secrets").
    /// A typed variable's default, written as it is, must be of its type (or become one).
    mutating func checkVariableDefaults(_ workflow: Workflow) {
        for (name, declaration) in workflow.variableTypes.sorted(by: { $0.key < $1.key }) {
            guard let defaultValue = declaration.defaultValue, let literal = defaultValue.literalValue, declaration.type.type != .any else { continue }
            let why: String? =
                if let never = neverConverts(literal.type, to: ConversionTarget(declaration.type.type)) { never }
                // A scalar written as it is converts now, or never will.
                else if [.text, .number, .boolean].contains(literal.type), [.number, .boolean].contains(declaration.type.type) {
                    (try? literal.coerced(to: declaration.type.type)) == nil ? "'\(literal.textValue)' is not \(declaration.type.type.withArticle)" : nil
                } else { nil }
            if let why {
                report(
                    "variable '\(name)' is declared as \(declaration.type.type.withArticle), but its default is \(literal.type.withArticle)",
                    at: defaultValue.range, notes: ["note: \(why)"])
            }
        }
    }

    private mutating func checkSecretDeclarations(_ workflow: Workflow) {
        secretNames = workflow.secrets.map(\.text)
        secretsGiven = scope.runVariables.contains("secrets")
        if !secretNames.isEmpty { scope.runVariables.insert("secrets") }
        for pin in workflow.secretPins where !secretNames.contains(pin.name.text) {
            report(
                "'permissions' pins the secret '\(pin.name.text)', which the workflow does not declare\(Suggestions.didYouMean(pin.name.text, in: secretNames))",
                at: pin.name.range, notes: ["note: declare it in the top-level 'secrets:' list: secrets: [\(pin.name.text)]"])
        }
        let note = "note: secrets are read as ${secrets.NAME}, never set by the workflow; their values come from the environment or 'relay secrets set NAME'"
        for assignment in workflow.variables where assignment.name.text == "secrets" {
            report("'secrets' is not a variable a workflow sets", at: assignment.name.range, notes: [note])
        }
        if let step = Self.firstAssignment(in: workflow.steps, of: ["secrets"]) ?? Self.firstStep(in: workflow.steps, naming: "secrets") {
            report("'secrets' is not a variable a workflow sets", at: step.range, notes: [note])
        }
    }

    /// Warns about a condition written as plain text that reads like a comparison (`when: a < b`):
    /// a text that is not empty is true, so the step would always run.
    private mutating func warnIfPlainText(_ condition: Template, as keyword: String) {
        guard case .literal(.text(let text)) = condition.kind else { return }
        let operators = [" < ", " > ", " <= ", " >= ", " == ", " != ", " and ", " or ", " contains ", " matches ", " in "]
        guard text.hasPrefix("not ") || operators.contains(where: { text.contains($0) }) else { return }
        diagnostics.append(Diagnostic(
            .warning, "'\(keyword):' is the text '\(text)', which is always true (a text that is not empty is true)", at: condition.range,
            notes: ["note: to compare, write it as an expression: \(keyword): ${\(text)}"]))
    }

    /// The first step anywhere in `steps`, nested blocks included, whose `as:` is `name`.
    static func firstStep(in steps: [Step], naming name: String) -> Step? {
        for step in steps {
            if step.modifiers.outputVariable?.text == name { return step }
            if let found = step.blocks.lazy.compactMap({ firstStep(in: $0, naming: name) }).first { return found }
        }
        return nil
    }

    private mutating func checkReferences(_ template: Template) {
        for reference in template.secretReferences where !secretsGiven && !secretNames.contains(reference.name) {
            report(
                "the secret '\(reference.name)' is not declared\(Suggestions.didYouMean(reference.name, in: secretNames))",
                at: reference.range, notes: ["note: a workflow names the secrets it reads in a top-level list: secrets: [\(reference.name)]"])
        }
        // One at a time, by name: a secret is followed from where its name is written.
        for range in template.wholeSecretsReads where secretsGiven || !secretNames.isEmpty {
            report(
                "secrets are read one at a time, as ${secrets.NAME}, not whole or by an index", at: range,
                notes: secretNames.isEmpty ? [] : ["note: the secrets this workflow declares are \(secretNames.sorted().map { "${secrets.\($0)}" }.joined(separator: ", "))"])
        }
        for reference in template.variableReferences { variablesRead.insert(reference.name) }
        checkProperties(template)
        for reference in template.variableReferences where !scope.isDefined(reference.name) {
            if reference.name == "secrets" {
                // `${secrets.NAME}` without a `secrets:` list is reported above.
                if !template.secretReferences.isEmpty { continue }
                report(
                    "undefined variable 'secrets': the workflow declares no secrets", at: reference.range,
                    notes: ["note: a workflow names the secrets it reads in a top-level list: secrets: [NAME], and reads each as ${secrets.NAME}"])
                continue
            }
            var notes: [String] = []
            if let block = VariableScope.blockNames[reference.name] {
                notes.append("note: '\(reference.name)' exists only inside \(block)")
            }
            report(
                "undefined variable '\(reference.name)'\(Suggestions.didYouMean(reference.name, in: scope.allNames))",
                at: reference.range, notes: notes)
        }
    }

    /// The run variables that `set`, `append` or `as` define anywhere in `steps`, nested blocks included.
    static func assignedVariables(in steps: [Step]) -> Set<String> {
        var names = Set<String>()
        for step in steps {
            if let name = step.modifiers.outputVariable?.text { names.insert(name) }
            if case .set(let assignments) = step.kind { names.formUnion(assignments.map(\.name.text)) }
            if case .append(let assignments) = step.kind { names.formUnion(assignments.map(\.name.text)) }
            for block in step.blocks { names.formUnion(assignedVariables(in: block)) }
        }
        return names
    }

    /// The first `set` or `append` anywhere in `steps`, nested blocks included, that changes one of `variables`.
    static func firstAssignment(in steps: [Step], of variables: Set<String>) -> Step? {
        for step in steps {
            switch step.kind {
            case .set(let assignments), .append(let assignments):
                if assignments.contains(where: { variables.contains($0.name.text) }) { return step }
            default: break
            }
            if let found = step.blocks.lazy.compactMap({ firstAssignment(in: $0, of: variables) }).first { return found }
        }
        return nil
    }

    // MARK: - Types

    /// The type of a template that is one expression the checker knows the type of: a variable
    /// (`${n}`), or a property of one (`${files.count}`, `${photos.width}`).
    private func typed(_ template: Template) -> (type: ValueType, item: ValueType?, line: Int)? {
        guard case .expression(let expression) = template.kind else { return nil }
        return typed(expression)
    }

    private func typed(_ expression: ValueExpression) -> (type: ValueType, item: ValueType?, line: Int)? {
        switch expression.kind {
        case .variable(let name):
            // `previous` is always the step's input, and a block's own names (`item`, `index`,
            // `error`, a loop's `as`) hide a variable of the same name inside it.
            guard name != "previous", !scope.blockVariables.contains(where: { $0.contains(name) }) else { return nil }
            return variableTypes[name]
        case .property(let base, let name):
            guard let (type, item, line) = typed(base),
                case .known(let propertyType, let propertyItem) = propertyTyping.property(name, of: type, item: item)
            else { return nil }
            return (propertyType, propertyItem, line)
        default:
            return nil
        }
    }

    private var propertyTyping: PropertyTyping { PropertyTyping(entityTypes: registry.entityTypes) }

    /// The written text of a variable or a chain of properties of one (`files.count`), for messages.
    private static func written(_ expression: ValueExpression) -> String? {
        switch expression.kind {
        case .variable(let name): name
        case .property(let base, let name): written(base).map { "\($0).\(name)" }
        default: nil
        }
    }

    /// A parameter written as a variable whose type is known, which can never become what the
    /// parameter takes: `delete-file: { file: "${n}" }` after `number: 5` with `as: n`.
    private mutating func checkTyped(_ template: Template, for parameter: ParameterDefinition, of action: ActionDefinition) {
        guard let (type, item, line) = typed(template), case .expression(let expression) = template.kind,
            let name = Self.written(expression)
        else { return }
        let target = ConversionTarget(parameter: parameter)
        let runsPerItem = parameter.isInput && type == .list && action.mapsOverListInput && parameter.existing
        let found = runsPerItem ? item.map { "a list of \(Self.plural($0))" } : type.withArticle
        guard let found, let why = neverConverts(runsPerItem ? item ?? .any : type, to: target) else { return }
        report(
            "'\(action.name)' parameter '\(parameter.name)' takes \(target), but ${\(name)} is \(found) (set at line \(line))", at: template.range,
            notes: ["note: \(why)"])
    }

    /// A property that no value of the type read has (`${files.widht}` of a list of files):
    /// the run would stop there, so the checker says so first.
    private mutating func checkProperties(_ template: Template) {
        for expression in template.expressions {
            for read in expression.propertyReads {
                guard let (type, item, line) = typed(read.base), let base = Self.written(read.base),
                    case .missing(let own) = propertyTyping.property(read.name, of: type, item: item)
                else { continue }
                let listOwn = PropertyTyping.listProperties.joined(separator: ", ")
                var what = type.withArticle
                let owner = type == .list ? item ?? type : type
                var note = own.isEmpty
                    ? "note: \(owner.withArticle) has no properties of its own"
                    : "note: \(owner.withArticle) has \(own.joined(separator: ", "))"
                if type == .list, let item {
                    what = "a list of \(Self.plural(item))"
                    note += "; the list itself has \(listOwn)"
                } else {
                    note += "; as a list of one, it has \(listOwn)"
                }
                let candidates = own + PropertyTyping.listProperties.filter { !own.contains($0) }
                report(
                    "${\(base)} is \(what) (set at line \(line)), which has no property '\(read.name)'\(Suggestions.didYouMean(read.name, in: candidates))",
                    at: read.range, notes: [note])
            }
        }
    }

    /// How many places set each variable in `steps`, nested blocks included.
    static func assignmentCounts(in steps: [Step]) -> [String: Int] {
        var counts: [String: Int] = [:]
        func visit(_ steps: [Step]) {
            for step in steps {
                if let name = step.modifiers.outputVariable?.text { counts[name, default: 0] += 1 }
                switch step.kind {
                case .set(let assignments), .append(let assignments): for assignment in assignments { counts[assignment.name.text, default: 0] += 1 }
                case .forEach(let forEach): counts[forEach.variable?.text ?? "item", default: 0] += 2
                default: break
                }
                for block in step.blocks { visit(block) }
            }
        }
        visit(steps)
        return counts
    }

    /// The type of each item of a list output: as the action declares it; the items it was given,
    /// for one that only keeps, orders or picks from them (`filter`, `sort-list`); the items
    /// written, for one that outputs the list written after its name (`list: [1, 2]`).
    private func itemOutput(of action: ActionDefinition, _ arguments: [Template?], receiving item: ValueType?) -> ValueType? {
        if let declared = action.outputItem { return declared }
        if action.picksFromInput {
            return action.inputIndex.flatMap { arguments[$0] } == nil ? item : arguments[action.inputIndex ?? 0]?.literalValue.flatMap(Self.itemType)
        }
        if action.inputIndex == nil, let primary = action.primaryIndex, action.parameters[primary].type == .list {
            return arguments[primary]?.literalValue.flatMap(Self.itemType)
        }
        return nil
    }

    /// The one type of every item of a literal list, or nil (not a list, empty, or mixed).
    static func itemType(of value: Value) -> ValueType? {
        guard case .list(let items) = value, let first = items.first?.type, first != .nothing else { return nil }
        return items.allSatisfy { $0.type == first } ? first : nil
    }

    /// Where a step's input comes from, for messages: "'input:' gives", "the previous step,
    /// 'number' (line 2), outputs", "the workflow's input is".
    private func inputSource(_ hasInputModifier: Bool) -> String {
        hasInputModifier ? "'input:' gives" : producer.map { "the previous step, \($0), outputs" } ?? "the workflow's input is"
    }

    /// The first of `items` that can never become what `parameter` takes, with its position and why.
    private func firstNeverConverting(_ items: [Value], to parameter: ParameterDefinition) -> (Int, Value, String)? {
        let target = ConversionTarget(parameter: parameter)
        for (position, value) in items.enumerated() {
            if let why = neverConverts(value.type, to: target) { return (position, value, why) }
        }
        return nil
    }

    /// `numbers`, `files`, `dictionaries`: a type's name for several.
    static func plural(_ type: ValueType) -> String {
        let name = type.name
        if name.hasSuffix("y") { return String(name.dropLast()) + "ies" }
        return name.hasSuffix("s") ? name : name + "s"
    }

    /// A declared output is kept (Docs/Language.md, "A workflow file"): a last step that always
    /// gives nothing is an error, one that may give nothing a warning.
    private mutating func checkGivesSomething(_ last: PlannedStep, declared: TypeAnnotation) {
        guard ![.any, .nothing, .list].contains(declared.type) else { return }
        let note = "note: a workflow that declares 'output: \(declared.type.name)' must end with a step that gives \(declared.type.withArticle)"
        if case .action(let action) = last.kind, action.definition.output == .nothing, last.condition == nil {
            report(
                "the workflow declares output \(declared.type.name), but its last step, '\(last.displayName)' (line \(last.range.start.line)), gives nothing",
                at: declared.range, notes: [note])
        } else if let keyword = last.grammar?.keyword, let (fallback, when) = last.givesNothingWhen {
            diagnostics.append(Diagnostic(
                .warning,
                "the workflow declares output \(declared.type.name), but its last step, the '\(keyword)' at line \(last.range.start.line), has no '\(fallback)' steps and gives nothing when \(when)",
                at: last.range,
                notes: ["help: add \(Naming.indefiniteArticle(for: fallback)) '\(fallback)' that gives \(declared.type.withArticle), or a step after the '\(keyword)'"]))
        }
    }

    /// Why no value of type `from` can ever become what `target` wants, or nil when some can
    /// (the run's conversions decide: Docs/Language.md, "Types and conversion").
    func neverConverts(_ from: ValueType, to target: ConversionTarget) -> String? {
        if case .never(let why) = registry.conversions.route(from: from, to: target) { return why }
        return nil
    }
}
