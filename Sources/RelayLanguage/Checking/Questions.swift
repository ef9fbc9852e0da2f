import RelayKit

/// The questions a workflow may ask (`ask`, `choose-from-list`, `confirm`, `menu`, and any action
/// with a `prompt`), found before it runs: what `--answer PROMPT=VALUE` may name (Docs/Language.md,
/// "Interaction").
public struct Questions: Sendable {
    /// Each question's prompt as written, and the `as:` name that answers it too.
    public private(set) var prompts: [(prompt: String, name: String?)] = []
    /// Whether every question's prompt is known before the run: none is computed (`${…}` inside),
    /// and no step of a package or a sub-workflow may ask its own.
    public private(set) var allKnown = true

    public init(_ workflow: CheckedWorkflow) {
        collect(workflow.steps)
    }

    private mutating func collect(_ steps: [PlannedStep]) {
        for step in steps {
            switch step.kind {
            case .menu(let prompt, _): add(prompt, name: step.outputVariable)
            case .action(let action):
                let definition = action.definition
                if definition.source != nil || definition.name == "run-workflow" {
                    allKnown = false
                } else if let index = definition.parameterIndex(named: "prompt") {
                    if let template = action.arguments[index] {
                        add(template, name: step.outputVariable)
                    } else if let value = definition.parameters[index].defaultValue {
                        prompts.append((value.textValue, step.outputVariable))
                    }
                }
            default: break
            }
            for block in step.blocks { collect(block) }
        }
    }

    private mutating func add(_ template: Template, name: String?) {
        guard let literal = template.literalValue else {
            allKnown = false
            return
        }
        prompts.append((literal.textValue, name))
    }

    /// An error for each `--answer` that answers none of the questions, when all are known:
    /// a misspelt prompt would otherwise be found only when its question comes, unanswered.
    public func unknownAnswers(_ answers: [String], workflowName: String) -> [String] {
        guard allKnown else { return [] }
        let keys = prompts.flatMap { [$0.prompt] + ($0.name.map { [$0] } ?? []) }
        return answers.filter { answer in !keys.contains { answer.hasPrefix($0 + "=") } }.map { answer in
            let key = String(answer.prefix { $0 != "=" })
            guard !prompts.isEmpty else { return "--answer '\(key)': \(workflowName) asks no question" }
            let listed = prompts.map { question in "'\(question.prompt)'" + (question.name.map { " (as \($0))" } ?? "") }
            return "--answer '\(key)' answers no question of \(workflowName)\(Suggestions.didYouMean(key, in: keys)); its questions: \(listed.joined(separator: ", "))"
        }
    }
}
