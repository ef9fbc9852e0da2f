import Foundation
import RelayKit

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

    /// The output type a `run-workflow` step's workflow declares (`output:`), when its path is
    /// written literally and the file is there: the step gives that type, which the next step is
    /// held to. Nil when it declares none or cannot be read (the run reports that).
    mutating func subWorkflowOutput(_ action: ActionDefinition, _ arguments: [Template?]) -> ValueType? {
        guard action.name == "run-workflow", let index = action.parameterIndex(named: "path"), let template = arguments[index],
            case .text(let written)? = template.literalValue, !written.isEmpty
        else { return nil }
        let expanded = HomeFolder.expandingTilde(in: written)
        let path = expanded.hasPrefix("/") ? expanded : (folder as NSString).appendingPathComponent(expanded)
        // Each file is read once however many steps name it, and only so many in all.
        if let known = subWorkflowOutputs[path] { return known }
        guard subWorkflowOutputs.count < 64 else { return nil }
        subWorkflowOutputs[path] = .some(nil)
        // Only a regular file in the workflow's own folder, which the run may read freely; a
        // device or a FIFO is never opened, a file over the limit never read.
        let root = ResolvedPath.resolve(URL(fileURLWithPath: folder).standardizedFileURL.path)
        guard ResolvedPath.path(ResolvedPath.resolve(path), isWithin: root) else { return nil }
        // Opened without waiting, then looked at: a FIFO put in the file's place would hold an open that waits.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? handle.close() }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= Limits.workflowBytes else { return nil }
        guard let data = try? handle.read(upToCount: Limits.workflowBytes), let text = String(data: data, encoding: .utf8) else { return nil }
        let declared = WorkflowParser.parse(SourceFile(path: path, text: text), entityTypes: registry.entityTypes).workflow?.output?.type
        let type = declared == .any ? nil : declared
        subWorkflowOutputs[path] = .some(type)
        return type
    }
}
