import Foundation
import RelayKit

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

extension Checker {
    /// A `run-workflow` path written literally names a file that is there now: a misspelt one is
    /// found before anything runs, with the workflow files beside it to choose from.
    mutating func checkWorkflowPath(_ action: ActionDefinition, _ arguments: [Template?]) {
        guard action.name == "run-workflow", let index = action.parameterIndex(named: "path"), let template = arguments[index],
            case .text(let written)? = template.literalValue, !written.isEmpty
        else { return }
        let expanded = HomeFolder.expandingTilde(in: written)
        let path = expanded.hasPrefix("/") ? expanded : (folder as NSString).appendingPathComponent(expanded)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue { return }
        let parent = (path as NSString).deletingLastPathComponent
        let siblings = ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [])
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
        let name = (written as NSString).lastPathComponent
        let what = isFolder.boolValue ? "'\(written)' is a folder, not a workflow file" : "there is no workflow file '\(written)'"
        var notes: [String] = []
        if !siblings.isEmpty { notes.append("note: beside it: \(siblings.prefix(10).joined(separator: ", "))\(siblings.count > 10 ? ", …" : "")") }
        report("\(what)\(Suggestions.didYouMean(name, in: siblings))", at: template.range, notes: notes)
    }
}
