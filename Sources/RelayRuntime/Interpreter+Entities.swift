import Foundation
import RelayKit
import RelayLanguage

extension Interpreter {
    /// The conversions of SPEC §4 and §6 that involve entities and so need a query or async reads:
    /// text → entity by title; entity → url, dictionary (deferred properties fetched), file, or
    /// whatever content types a parameter accepts. Nil when no entity is involved.
    func convertEntity(_ argument: Value, for parameter: ParameterDefinition, step: PlannedStep) async throws -> Value? {
        if case .entity(let wanted) = parameter.type {
            return try await resolveEntity(argument, typeName: wanted, parameter: parameter, step: step)
        }
        let graph = environment.loader.registry.conversions
        let context = StepContext(interpreter: self, step: step)
        if case .list(let items) = argument, !parameter.accepts.isEmpty, items.contains(where: { $0.type.isEntity }) {
            var handed: [Value] = []
            for item in items {
                guard case .entity(let entity) = item else {
                    handed.append(item)
                    continue
                }
                handed.append(try await withStepErrors(step) {
                    try await entity.handOver(accepting: parameter.accepts, graph: graph, context: context)
                })
            }
            return .list(handed)
        }
        guard case .entity(let entity) = argument else { return nil }
        return try await withStepErrors(step) { () async throws -> Value? in
            if !parameter.accepts.isEmpty {
                return try await entity.handOver(accepting: parameter.accepts, graph: graph, context: context)
            }
            switch parameter.type {
            case .url: return .url(try await entity.url())
            case .dictionary: return .dictionary(try await entity.dictionary(includingDeferred: true))
            case .file: return try await entity.handOver(accepting: [.data], graph: graph, context: context)
            case .richText: return try await entity.handOver(accepting: [.rtf, .markdown, .html, .plainText], graph: graph, context: context)
            default: return nil
            }
        }
    }

    /// SPEC §4 text → entity: the type's query finds it by title, an exact title first, then a
    /// single partial match; none or several is an error listing the candidates.
    private func resolveEntity(_ argument: Value, typeName: String, parameter: ParameterDefinition, step: PlannedStep) async throws -> Value {
        switch argument {
        case .entity(let entity) where entity.typeName == typeName: return argument
        case .list(let items) where items.count == 1:
            return try await resolveEntity(items[0], typeName: typeName, parameter: parameter, step: step)
        case .entity, .list, .nothing, .dictionary:
            throw RuntimeError(
                "parameter '\(parameter.name)' wants \(parameter.type.withArticle), found \(argument.briefDescription)",
                step: step.displayName, at: step.range)
        default: break
        }
        guard let descriptor = environment.loader.registry.entityTypes.descriptor(named: typeName) else {
            throw RuntimeError("the entity type '\(typeName)' is not loaded", step: step.displayName, at: step.range)
        }
        let title = argument.textValue
        let candidates = try await withStepErrors(step) { try await descriptor.entities(matchingTitle: title) }
        let exact = candidates.filter { $0.title.caseInsensitiveCompare(title) == .orderedSame }
        if exact.count == 1 { return .entity(exact[0]) }
        if exact.isEmpty, candidates.count == 1 { return .entity(candidates[0]) }
        let found = exact.isEmpty ? candidates : exact
        let listed = found.prefix(10).map { "'\($0.title)'" }.joined(separator: ", ")
        let message = found.isEmpty
            ? "no \(typeName) is titled '\(title)' or has it in its title"
            : "\(found.count) \(descriptor.name.plural) match '\(title)': \(listed)\(found.count > 10 ? ", …" : ""); give a title that names one"
        throw RuntimeError("parameter '\(parameter.name)': \(message)", step: step.displayName, at: step.range)
    }
}
