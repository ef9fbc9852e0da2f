import RelayKit

/// The questions a workflow may ask (`ask`, `choose-from-list`, `confirm`, `menu`, and any action
/// with a `prompt`), found before it runs: what `--answer PROMPT=VALUE` may name (Docs/Language.md,
/// "Interaction").
public struct Questions: Sendable {
    /// Each question's prompt as written, and the names that answer it too: its step's `as:`
    /// and `label:`.
    public private(set) var prompts: [(prompt: String, names: [String])] = []
    /// How each question's names are shown: `as bill, label total`.
    private var shownNames: [String] = []
    /// Whether every question's prompt is known before the run: none is computed (`${…}` inside),
    /// and no step of a package or a sub-workflow may ask its own.
    public private(set) var allKnown = true

    public init(_ workflow: CheckedWorkflow) {
        collect(workflow.steps)
    }

    private mutating func collect(_ steps: [PlannedStep]) {
        for step in steps {
            switch step.kind {
            case .menu(let prompt, _): add(prompt, step: step)
            case .action(let action):
                let definition = action.definition
                if definition.source != nil || definition.name == "run-workflow" {
                    allKnown = false
                } else if let index = definition.parameterIndex(named: "prompt") {
                    if let template = action.arguments[index] {
                        add(template, step: step)
                    } else if let value = definition.parameters[index].defaultValue {
                        add(value.textValue, step: step)
                    }
                }
            default: break
            }
            for block in step.blocks { collect(block) }
        }
    }

    private mutating func add(_ template: Template, step: PlannedStep) {
        guard let literal = template.literalValue else {
            allKnown = false
            return
        }
        add(literal.textValue, step: step)
    }

    /// A question and the names `--answer` may give its step's answers by.
    private mutating func add(_ prompt: String, step: PlannedStep) {
        prompts.append((prompt, [step.outputVariable, step.label].compactMap { $0 }))
        shownNames.append([step.outputVariable.map { "as \($0)" }, step.label.map { "label \($0)" }].compactMap { $0 }.joined(separator: ", "))
    }

    /// An error for each `--answer` that answers none of the questions, when all are known:
    /// a misspelt prompt would otherwise be found only when its question comes, unanswered.
    public func unknownAnswers(_ answers: [String], workflowName: String) -> [String] {
        guard allKnown else { return [] }
        let keys = prompts.flatMap { [$0.prompt] + $0.names }
        return answers.filter { answer in !keys.contains { answer.hasPrefix($0 + "=") } }.map { answer in
            let key = String(answer.prefix { $0 != "=" })
            guard !prompts.isEmpty else { return "--answer '\(key)': \(workflowName) asks no question" }
            let listed = zip(prompts, shownNames).map { question, names in "'\(question.prompt)'" + (names.isEmpty ? "" : " (\(names))") }
            return "--answer '\(key)' answers no question of \(workflowName)\(Suggestions.didYouMean(key, in: keys)); its questions: \(listed.joined(separator: ", "))"
        }
    }
}
