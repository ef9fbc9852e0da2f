import RelayKit
import RelayEngine

extension Checker {
    /// Docs/Language.md, "Entities": a `where` or `sort` written as literals names only properties that exist, each with
    /// comparators that fit its type; `find` names an entity type that is loaded. Checked for
    /// `find` (the type's properties) and `find-files` (file properties).
    mutating func checkFilterClauses(_ action: ActionDefinition, _ arguments: [Template?]) {
        let validation: FilterValidation
        switch action.name {
        case "find":
            guard let typeIndex = action.parameterIndex(named: "type"), let typeTemplate = arguments[typeIndex],
                let typeName = typeTemplate.literalValue?.textValue
            else { return }
            guard let descriptor = registry.entityTypes.descriptor(named: typeName) else {
                let unknown = registry.entityTypes.unknownTypeMessage(typeName)
                report(unknown.message, at: typeTemplate.range, notes: ["note: \(unknown.note)"])
                return
            }
            validation = FilterValidation(entityType: descriptor)
        case "find-files":
            validation = .files
        default:
            return
        }
        let whereTemplate = action.parameterIndex(named: "where").flatMap { arguments[$0] }
        let sortTemplate = action.parameterIndex(named: "sort").flatMap { arguments[$0] }
        if let whereTemplate, case .dictionary(let clauses)? = whereTemplate.literalValue {
            for problem in validation.problems(where: clauses, sort: nil) {
                let range = problem.property.flatMap { whereTemplate.keyRanges[$0] } ?? whereTemplate.range
                report(problem.message, at: range, notes: problem.note.map { ["note: \($0)"] } ?? [])
            }
        }
        if let sortTemplate, let sort = sortTemplate.literalValue {
            for problem in validation.problems(where: [:], sort: sort) {
                report(problem.message, at: sortTemplate.range, notes: problem.note.map { ["note: \($0)"] } ?? [])
            }
        }
    }
}
