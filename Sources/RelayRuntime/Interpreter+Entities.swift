import Foundation
import RelayKit
import RelayLanguage

extension Interpreter {
    /// The conversions of Docs/Language.md, "Types and conversion" and §6 that involve entities and so need a query or async reads:
    /// text → entity by title; entity → url, dictionary (deferred properties fetched), file, or
    /// whatever content types a parameter accepts. Nil when no entity is involved.
    func convertEntity(_ argument: Value, for parameter: ParameterDefinition, step: PlannedStep) async throws -> Value? {
        if parameter.type.isEntity {
            return try await resolveEntity(argument, for: parameter, step: step)
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

    /// Docs/Language.md, "Types and conversion" text → entity for a parameter of an entity or union type.
    private func resolveEntity(_ argument: Value, for parameter: ParameterDefinition, step: PlannedStep) async throws -> Value {
        do {
            return try await resolveEntity(argument, as: parameter.type)
        } catch let error as IntentError {
            throw RuntimeError("parameter '\(parameter.name)': \(error.message)", step: step.displayName, at: step.range)
        } catch {
            throw RuntimeError(Self.message(for: error), step: step.displayName, at: step.range)
        }
    }

    /// Docs/Language.md, "Types and conversion" text → entity: the type's query finds it by title, an exact title first, then a
    /// single partial match; none or several is an error listing the candidates. For a union the
    /// member types are asked in order: the first with one exact title wins, else the first with a
    /// single partial match. An entity of the type passes as it is.
    func resolveEntity(_ argument: Value, as type: ValueType) async throws -> Value {
        let typeNames = type.entityTypeNames
        switch argument {
        case .entity(let entity) where typeNames.contains(entity.typeName): return argument
        case .list(let items) where items.count == 1: return try await resolveEntity(items[0], as: type)
        case .entity, .list, .nothing, .dictionary:
            throw IntentError("wants \(type.withArticle), found \(argument.briefDescription)")
        default: break
        }
        let title = argument.textValue
        var candidatesByType: [(descriptor: EntityDescriptor, candidates: [EntityValue])] = []
        for typeName in typeNames {
            guard let descriptor = environment.loader.registry.entityTypes.descriptor(named: typeName) else {
                throw IntentError("the entity type '\(typeName)' is not loaded")
            }
            if let access = Access.finding(descriptor) { try await environment.gate.authorize(access) }
            let candidates = try await descriptor.entities(matchingTitle: title)
            let exact = candidates.filter { $0.title.caseInsensitiveCompare(title) == .orderedSame }
            if exact.count == 1 { return .entity(exact[0]) }
            candidatesByType.append((descriptor, exact.isEmpty ? candidates : exact))
        }
        if let single = candidatesByType.first(where: { $0.candidates.count == 1 }) {
            return .entity(single.candidates[0])
        }
        throw IntentError(Self.unresolvedTitleMessage(title, candidatesByType))
    }

    private static func unresolvedTitleMessage(_ title: String, _ candidatesByType: [(descriptor: EntityDescriptor, candidates: [EntityValue])]) -> String {
        let found = candidatesByType.flatMap(\.candidates)
        guard !found.isEmpty else {
            let types = candidatesByType.map(\.descriptor.name.singular).joined(separator: " or ")
            return "no \(types) is titled '\(title)' or has it in its title"
        }
        let isUnion = candidatesByType.count > 1
        let listed = found.prefix(10).map { isUnion ? "\($0.typeName) '\($0.title)'" : "'\($0.title)'" }.joined(separator: ", ")
        let what = isUnion ? "entities" : candidatesByType[0].descriptor.name.plural
        return "\(found.count) \(what) match '\(title)': \(listed)\(found.count > 10 ? ", …" : ""); give a title that names one"
    }
}
