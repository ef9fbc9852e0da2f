import Foundation
import RelayKit
import RelayLanguage

extension Interpreter {
    /// Performs an action step: evaluates and converts its arguments, fills the input parameter from
    /// the chain, and runs the action once per item when a single-item input is given a list.
    func performAction(_ action: PlannedAction, step: PlannedStep, input: Value, variables: Variables) async throws -> Value {
        let definition = action.definition
        var arguments = [Value?](repeating: nil, count: definition.parameters.count)
        for (index, template) in action.arguments.enumerated() {
            guard let template else { continue }
            arguments[index] = try located(step) { () throws(RuntimeError) in
                try Evaluator.evaluate(template, variables)
            }
        }
        guard let inputIndex = definition.inputIndex, arguments[inputIndex] == nil else {
            return try await invoke(definition, arguments, step: step)
        }
        if definition.mapsOverListInput, case .list(let items) = input {
            var results: [Value] = []
            results.reserveCapacity(items.count)
            for item in items {
                arguments[inputIndex] = item
                results.append(try await invoke(definition, arguments, step: step))
            }
            return .list(results)
        }
        arguments[inputIndex] = input
        return try await invoke(definition, arguments, step: step)
    }

    private func invoke(_ definition: ActionDefinition, _ arguments: [Value?], step: PlannedStep) async throws -> Value {
        var converted = arguments
        for (index, parameter) in definition.parameters.enumerated() {
            guard let argument = arguments[index] else { continue }
            converted[index] = try await convert(argument, for: parameter, of: definition, step: step)
        }
        let context = StepContext(interpreter: self, step: step)
        return try await withStepErrors(step) {
            try await definition.perform(arguments: converted, context: context).value
        }
    }

    /// Converts an argument to its parameter's type: by the rules of SPEC §4, else through the
    /// converter graph (a PDF file where text is wanted, a Markdown file where rich text is).
    private func convert(
        _ argument: Value, for parameter: ParameterDefinition, of action: ActionDefinition, step: PlannedStep
    ) async throws -> Value {
        let value: Value
        do throws(CoercionError) {
            value = try argument.coerced(to: parameter.type, relativeTo: baseDirectory)
        } catch {
            let graph = environment.loader.registry.conversions
            guard let chain = graph.chain(from: Representation.offered(by: argument), to: .value(parameter.type)), !chain.isEmpty else {
                let role = parameter.isInput ? "input '\(parameter.name)'" : "parameter '\(parameter.name)'"
                throw RuntimeError("\(role) wants \(parameter.type.withArticle): \(error)", step: step.displayName, at: step.range)
            }
            let context = StepContext(interpreter: self, step: step)
            var current = argument
            for converter in chain {
                current = try await withStepErrors(step) { try await converter.convert(current, context) }
            }
            return current
        }
        if !parameter.choices.isEmpty, !parameter.choices.contains(value.textValue.lowercased()) {
            throw RuntimeError(
                "parameter '\(parameter.name)' takes \(parameter.choices.map { "'\($0)'" }.joined(separator: ", ")), not '\(value.textValue)'",
                step: step.displayName, at: step.range)
        }
        return value
    }
}
