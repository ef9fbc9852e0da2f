import Foundation
import RelayKit
import RelayEngine

/// What a checked workflow may touch, worked out before anything runs from the capabilities its
/// actions declare (Docs/Security.md): each capability with the paths and hosts written literally
/// in the workflow, and, for what only the run decides, the step that decides it.
public struct PermissionReport: Sendable {
    /// One thing the workflow may touch.
    public struct Need: Sendable, Equatable {
        public var capability: Capability
        /// The resolved path or the host, when the workflow writes it; nil when the run decides.
        public var target: String?
        /// The action and the place of the step that needs it.
        public var action: String
        public var step: Int
        public var line: Int
        public var column: Int
        /// The parameter it comes from; nil for what the action itself declares.
        public var parameter: String?
        /// Whether the previous step's output decides it (the parameter is the action's input).
        public var fromPreviousStep = false
        /// Where the step is.
        public var range: SourceRange
        /// Whether the run decides the path and `target` is the deepest folder written literally
        /// before the part it decides (`~/Backups` for `~/Backups/${today}/`): the place to ask for.
        public var isFolderOfComputedPath = false
    }

    public private(set) var needs: [Need] = []
    /// The workflow file, as it was named.
    public let file: String
    /// The `variables:` written as literals that no step assigns again: a step's `${name}` is
    /// then as literal as the value (`--set` may still change them: that is the user's choice).
    private var constants: [String: Value] = [:]
    /// What `permissions:` declares, resolved; nil without the block (then nothing is compared).
    private var declared: [Capability: [String]]?
    /// The needs that `permissions:` does not cover, in the order of the steps.
    public private(set) var beyond: [Need] = []
    /// What `permissions:` declares, resolved, each with its place in the workflow; empty without the block.
    public private(set) var declaredAccesses: [(access: Access, range: SourceRange)] = []

    /// The secrets the workflow reads and, for a pinned one, where what is made from it may go
    /// (Docs/Runs.md, "Secrets"); nil: not pinned.
    public private(set) var secrets: [(name: String, pin: SecretPin?, range: SourceRange)] = []

    /// The entity types loaded, for the folders that `find`, `search` and `create-note` reach.
    private let entityTypes: EntityCatalog
    /// Where the files the step being collected receives come from, when the workflow writes it:
    /// the folder `find-files` looked in, the path `read-file` read. A move, a rename or a delete
    /// of them changes that place, which is then asked for before the first step.
    private var chainedFiles: [String]?
    /// Whether the workflow sets a variable named `scratch` itself (then it is not the scratch folder).
    private var scratchAssigned = false
    /// The same, for the variables that keep such files (`as: files`).
    private var variableFiles: [String: [String]] = [:]

    /// The report for `workflow`; relative paths are taken from the workflow's folder. `variables`
    /// are the values the run is given for variables (`--set`), which take the place of their
    /// literals in `variables:`.
    public init(_ workflow: CheckedWorkflow, entityTypes: EntityCatalog = EntityCatalog(), variables: [String: Value] = [:]) {
        file = workflow.file.path
        self.entityTypes = entityTypes
        secrets = workflow.secrets.map { name in
            (name.text, workflow.secretPins.first { $0.name.text == name.text }, name.range)
        }
        let folder = URL(fileURLWithPath: workflow.file.path).deletingLastPathComponent()
        var assigned: Set<String> = []
        for step in workflow.steps { Self.collectAssigned(step, into: &assigned) }
        scratchAssigned = assigned.contains("scratch") || workflow.variables.contains { $0.name.text == "scratch" }
        for variable in workflow.variables where !assigned.contains(variable.name.text) {
            if let value = variables[variable.name.text] ?? variable.value.literalValue { constants[variable.name.text] = value }
        }
        for (index, step) in workflow.steps.enumerated() { collect(step, topLevel: index + 1, folder: folder) }
        for package in workflow.packages {
            let path = FileReference(path: package.text, relativeTo: folder).path
            needs.append(Need(capability: .packages, target: path, action: "packages:", step: 0, line: package.range.start.line,
                              column: package.range.start.column, parameter: nil, range: package.range))
        }
        if let permissions = workflow.permissions {
            var resolved: [Capability: [String]] = [:]
            for capability in Capability.allCases {
                guard let entries = permissions[capability] else { continue }
                resolved[capability] = entries.map { entry in
                    let target =
                        switch capability {
                        case .read, .write, .packages: ResolvedPath.resolve(FileReference(path: entry.text, relativeTo: folder).path)
                        case .net: Access.hostEntry(entry.text) ?? entry.text
                        case .open: Access.scheme(entry.text) ?? entry.text
                        case .run: entry.text
                        }
                    declaredAccesses.append((Access(capability, target), entry.range))
                    return target
                }
            }
            declared = resolved
            // The same rules as the run's gate, with the block as the grants and the workflow's
            // own folder free to read (Docs/Security.md, "What is free").
            let gate = AccessGate(granted: resolved.mapValues { .only($0) })
            gate.allowFreely(.read, folder.standardizedFileURL.path)
            beyond = needs.filter { need in
                guard let target = need.target else {
                    return resolved[need.capability, default: []].isEmpty && (need.capability != .read || resolved[.write, default: []].isEmpty)
                }
                return !gate.allows(Access(need.capability, [.read, .write, .packages].contains(need.capability) ? ResolvedPath.resolve(target) : target))
            }
        }
    }

    /// The names `step` and the steps inside it assign: `as:`, `set`, `append`, `for-each`'s item.
    private static func collectAssigned(_ step: PlannedStep, into names: inout Set<String>) {
        if let name = step.outputVariable { names.insert(name) }
        switch step.kind {
        case .set(let assignments), .append(let assignments): names.formUnion(assignments.map(\.name.text))
        case .forEach(_, let variable?, _, _): names.insert(variable)
        default: break
        }
        for block in step.blocks { for inner in block { collectAssigned(inner, into: &names) } }
    }

    private mutating func collect(_ step: PlannedStep, topLevel: Int, folder: URL) {
        if let input = step.input { chainedFiles = files(named: input) }
        var received = chainedFiles
        var produced: [String]?
        switch step.kind {
        case .action(let action):
            collect(action, of: step, topLevel: topLevel, folder: folder)
            produced = filesOutput(by: action, receiving: received, folder: folder)
        case .forEach(let items, let variable, _, _):
            // Each item is one of the files of the list, kept in the loop's variable too.
            if let items { received = files(named: items) }
            variableFiles[variable ?? "item"] = received
        default: break
        }
        // The first step of each block receives the step's input (a loop's, each of its items).
        for block in step.blocks {
            chainedFiles = received
            for inner in block { collect(inner, topLevel: topLevel, folder: folder) }
        }
        chainedFiles = produced
        if let name = step.outputVariable { variableFiles[name] = produced }
    }

    /// Whether `template` is a path in the run's scratch folder: `${scratch}`, alone or at its start.
    private static func startsInScratch(_ template: Template) -> Bool {
        let first: ValueExpression?
        switch template.kind {
        case .expression(let expression): first = expression
        case .interpolation(let parts):
            guard case .expression(let expression)? = parts.first else { return false }
            // `${scratch}/../x` leaves it: that path is the run's to decide, and the gate's to ask.
            for part in parts {
                guard case .text(let text) = part else { continue }
                if text.split(separator: "/").contains("..") { return false }
            }
            first = expression
        default: first = nil
        }
        guard let first, case .variable("scratch") = first.kind else { return false }
        return true
    }

    /// The files a template names when it reads a variable that keeps files the workflow names (`${files}`).
    private func files(named template: Template) -> [String]? {
        guard case .expression(let expression) = template.kind else { return nil }
        return files(named: expression)
    }

    /// The same for an expression: the variable, or one of its items (`${f[1]}`, `${f.first}`).
    private func files(named expression: ValueExpression) -> [String]? {
        switch expression.kind {
        case .variable(let name): return variableFiles[name]
        case .index(let base, _): return files(named: base)
        case .property(let base, let name) where name == "first" || name == "last": return files(named: base)
        default: return nil
        }
    }

    /// Where the files an action outputs are, when the workflow writes it: an action that outputs
    /// files and changes nothing gives files from what it reads (`find-files: { in: data }`: files
    /// in `data`; `read-file: a.txt`: that file); one that writes them gives them where it writes
    /// (`copy-file: backup/`), or where they were when it changes them in place (`rotate-image`,
    /// `rename-file`).
    private func filesOutput(by action: PlannedAction, receiving received: [String]?, folder: URL) -> [String]? {
        let definition = action.definition
        // An action that only picks from, orders or keeps part of the files it is given (filter,
        // get-item, sort-list …) gives files from where they were.
        if definition.picksFromInput, action.arguments[definition.inputIndex ?? 0] == nil {
            return received
        }
        guard definition.output == .file || definition.output == .list,
            !definition.parameters.contains(where: { $0.access == .net || $0.access == .run })
        else { return nil }
        let given: (Int) -> Bool = { action.arguments[$0] != nil }
        let writes = definition.parameters.indices.filter { definition.access(ofParameterAt: $0, given: given) == .write }
        if !writes.isEmpty {
            let destinations = writes.filter { !definition.parameters[$0].isInput }
            if destinations.contains(where: given) {
                var found: [String] = []
                for index in destinations {
                    guard let template = action.arguments[index] else { continue }
                    guard let values = literals(template) else { return nil }
                    for value in values {
                        guard let value else { return nil }
                        found += Access.targets(of: value, for: .write, type: definition.parameters[index].type, relativeTo: folder)
                    }
                }
                return found.isEmpty ? nil : found
            }
            // Changed in place: the files are where they were.
            guard let input = definition.inputIndex, writes.contains(input), action.arguments[input] == nil else { return nil }
            return received
        }
        var found: [String] = []
        for (index, parameter) in definition.parameters.enumerated() where parameter.access == .read && !parameter.isInput {
            let values: [Value?]
            if let template = action.arguments[index] {
                guard let written = literals(template) else { return nil }
                values = written
            } else if let value = parameter.defaultValue {
                values = [value]
            } else {
                continue
            }
            for value in values {
                guard let value else { return nil }
                found += Access.targets(of: value, for: .read, type: parameter.type, relativeTo: folder)
            }
        }
        return found.isEmpty ? nil : found
    }

    private mutating func collect(_ action: PlannedAction, of step: PlannedStep, topLevel: Int, folder: URL) {
        let definition = action.definition
        func need(_ capability: Capability, _ target: String?, _ parameter: String?, fromPreviousStep: Bool = false, isFolder: Bool = false) {
            let need = Need(capability: capability, target: target, action: definition.name, step: topLevel,
                            line: step.range.start.line, column: step.range.start.column, parameter: parameter,
                            fromPreviousStep: fromPreviousStep, range: step.range, isFolderOfComputedPath: isFolder)
            if !needs.contains(need) { needs.append(need) }
        }
        var named: Set<Capability> = []
        for (index, parameter) in definition.parameters.enumerated() {
            guard let capability = definition.access(ofParameterAt: index, given: { action.arguments[$0] != nil }) else { continue }
            named.insert(capability)
            var template = action.arguments[index]
            if template == nil, parameter.isInput { template = step.input }
            guard let template else {
                // Not given: the previous step's output fills an input; a default is the value
                // (`run-shell-script` starts `sh`); an optional one is unused.
                if parameter.isInput {
                    // Files the workflow names, moved, renamed or deleted: their place is asked for.
                    if let sources = chainedFiles, capability == .read || capability == .write {
                        for source in sources { need(capability, source, parameter.name, fromPreviousStep: true) }
                    } else {
                        need(capability, nil, parameter.name, fromPreviousStep: true)
                    }
                } else if let value = parameter.defaultValue {
                    for target in Access.targets(of: value, for: capability, type: parameter.type, relativeTo: folder) {
                        need(capability, target, parameter.name)
                    }
                }
                continue
            }
            // The run's own scratch folder is free (Docs/Security.md, "What is free").
            if capability == .read || capability == .write, !scratchAssigned, Self.startsInScratch(template) { continue }
            if capability == .read || capability == .write, let sources = files(named: template) {
                for source in sources { need(capability, source, parameter.name) }
                continue
            }
            if literals(template) == nil, capability == .read || capability == .write,
                let prefix = literalFolder(of: template)
            {
                need(capability, ResolvedPath.resolve(FileReference(path: prefix, relativeTo: folder).path), parameter.name, isFolder: true)
                continue
            }
            for value in literals(template) ?? [nil] {
                guard let value else {
                    need(capability, nil, parameter.name)
                    continue
                }
                for target in Access.targets(of: value, for: capability, type: parameter.type, relativeTo: folder) {
                    need(capability, target, parameter.name)
                }
            }
        }
        let folder = libraryFolder(of: action)
        for capability in definition.capabilities where !named.contains(capability) {
            // A program the action starts by itself is named: asked for before the first step.
            if capability == .run, !definition.programs.isEmpty {
                for program in definition.programs { need(.run, program, nil) }
                continue
            }
            need(capability, [.read, .write].contains(capability) ? folder : nil, nil)
        }
    }

    /// The library folder an action reaches by itself (Docs/Security.md, "At run time"): that of
    /// the entity type its `type` argument names (`find: photos` reads `~/Pictures`), else of the
    /// entity type it outputs (`create-note` writes `~/Notes`); nil when the run decides it.
    private func libraryFolder(of action: PlannedAction) -> String? {
        let definition = action.definition
        var type: String?
        if let index = definition.parameterIndex(named: "type") {
            guard let named = action.arguments[index].flatMap({ literals($0) }), named.count == 1, let value = named[0] else { return nil }
            type = value.textValue
        } else if case .entity(let produced) = definition.output {
            type = produced
        }
        guard let type, let descriptor = entityTypes.descriptor(named: type), let folder = descriptor.folder() else { return nil }
        return ResolvedPath.resolve(folder)
    }

    /// The literal values of `template` (each item of a literal list), or nil when the run
    /// decides. A constant variable counts as its value, alone (`${out}`) or in text (`"${out}/"`).
    private func literals(_ template: Template) -> [Value?]? {
        switch template.kind {
        case .literal(let value): return [value]
        case .list(let items): return items.map { literals($0).flatMap { $0.count == 1 ? $0[0] : nil } }
        case .expression(let expression): return constant(expression).map { [$0] }
        case .interpolation(let parts):
            var text = ""
            for part in parts {
                switch part {
                case .text(let piece): text += piece
                case .expression(let expression):
                    guard let value = constant(expression) else { return nil }
                    text += value.textValue
                }
            }
            return [.text(text)]
        case .dictionary: return nil
        }
    }

    /// The deepest folder written literally at the start of a path the run decides: `~/Backups`
    /// for `~/Backups/${today}/`, `out` for `out/${name}.txt`; nil when the path starts with what
    /// the run decides.
    private func literalFolder(of template: Template) -> String? {
        guard case .interpolation(let parts) = template.kind else { return nil }
        var prefix = ""
        for part in parts {
            switch part {
            case .text(let piece): prefix += piece
            case .expression(let expression):
                guard let value = constant(expression) else {
                    guard let slash = prefix.lastIndex(of: "/") else { return nil }
                    let folder = String(prefix[..<slash])
                    return folder.isEmpty ? "/" : folder
                }
                prefix += value.textValue
            }
        }
        return nil
    }

    private func constant(_ expression: ValueExpression) -> Value? {
        switch expression.kind {
        case .literal(let value): value
        case .variable(let name): constants[name]
        default: nil
        }
    }

    /// A warning for each need beyond `permissions:`, at its step.
    public var warnings: [Diagnostic] {
        beyond.map { need in
            let what = need.target.map { "\(need.capability.rawValue) \(ResolvedPath.abbreviated($0))" }
                ?? "\(need.capability.rawValue) what the run decides (\(need.parameter.map { "'\($0)'" } ?? "the action's own"))"
            let who = need.step > 0 ? "step \(need.step) \(need.action)" : "'packages:'"
            return Diagnostic(
                .warning, "\(who) may \(what), which 'permissions:' does not declare", at: need.range,
                notes: ["note: add it to 'permissions:', or the run will ask for it (Docs/Security.md)"])
        }
    }

    /// The report for people: each capability, then what it reaches and which step needs it. A
    /// path in the workflow's folder is shown as `./…`, one in `home` as `~/…`.
    public func text(home: String = HomeFolder.path) -> String {
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent().standardizedFileURL.path
        func shown(_ target: String) -> String {
            if target == folder { return "." }
            if target.hasPrefix(folder + "/") { return "." + target.dropFirst(folder.count) }
            return ResolvedPath.abbreviated(target, home: home)
        }
        var output = ""
        if !secrets.isEmpty {
            output += "secrets:\n"
            for secret in secrets {
                let whereTo = secret.pin.map(Self.phrase) ?? "not pinned: may be sent wherever the run may connect"
                output += "  \(secret.name)  \(whereTo)  (secrets: at \(file):\(secret.range.start.line):\(secret.range.start.column))\n"
            }
        }
        guard !needs.isEmpty else { return output + "touches nothing beyond its own values\n" }
        for capability in Capability.allCases {
            let these = needs.filter { $0.capability == capability }
            guard !these.isEmpty else { continue }
            output += "\(capability.rawValue):\n"
            for need in these {
                let what =
                    need.target.map { need.isFolderOfComputedPath ? shown($0) + "/… (the run decides the rest)" : shown($0) }
                    ?? need.parameter.map { need.fromPreviousStep ? "the step's input ('\($0)')" : "a value known at run time ('\($0)')" }
                    ?? "what the action itself declares"
                let place = need.step > 0 ? "step \(need.step) \(need.action)" : need.action
                output += "  \(what)  (\(place) at \(file):\(need.line):\(need.column))\n"
            }
        }
        if !beyond.isEmpty {
            output += "beyond 'permissions:':\n"
            for need in beyond {
                let what = need.target.map(shown) ?? need.parameter.map { "a value known at run time ('\($0)')" } ?? "what the action itself declares"
                let place = need.step > 0 ? "step \(need.step) \(need.action)" : need.action
                output += "  \(need.capability.rawValue) \(what)  (\(place) at \(file):\(need.line):\(need.column))\n"
            }
        }
        return output
    }

    /// The report as JSON: `{capability: [{target, action, step, line, column, parameter, from-previous-step}]}`.
    public var json: Value {
        var root = ValueDictionary()
        for capability in Capability.allCases {
            let these = needs.filter { $0.capability == capability }
            guard !these.isEmpty else { continue }
            root[capability.rawValue] = .list(these.map { need in
                .dictionary([
                    "target": need.target.map { .text($0) } ?? .nothing, "action": .text(need.action),
                    "step": .number(Double(need.step)), "line": .number(Double(need.line)), "column": .number(Double(need.column)),
                    "parameter": need.parameter.map { .text($0) } ?? .nothing, "from-previous-step": .boolean(need.fromPreviousStep), "folder-of-computed-path": .boolean(need.isFolderOfComputedPath),
                ])
            })
        }
        if !secrets.isEmpty {
            root["secrets"] = .list(secrets.map { secret in
                .dictionary([
                    "name": .text(secret.name), "hosts": secret.pin.map { .list($0.hosts.map { .text($0.text) }) } ?? .nothing,
                    "write": secret.pin.map { .list($0.folders.map { .text($0.text) }) } ?? .nothing,
                    "run": secret.pin.map { .list($0.programs.map { .text($0.text) }) } ?? .nothing,
                    "line": .number(Double(secret.range.start.line)), "column": .number(Double(secret.range.start.column)),
                ])
            })
        }
        if declared != nil {
            root["beyond-permissions"] = .list(beyond.map { need in
                .dictionary([
                    "capability": .text(need.capability.rawValue), "target": need.target.map { .text($0) } ?? .nothing,
                    "step": .number(Double(need.step)), "line": .number(Double(need.line)), "column": .number(Double(need.column)),
                ])
            })
        }
        return .dictionary(root)
    }
}

extension PermissionReport {
    /// Where a pinned secret may go, for a person.
    static func phrase(_ pin: SecretPin) -> String {
        var places: [String] = []
        if !pin.hosts.isEmpty { places.append("may be sent only to \(pin.hosts.map(\.text).joined(separator: ", "))") }
        if !pin.folders.isEmpty { places.append("written only in \(pin.folders.map(\.text).joined(separator: ", "))") }
        if !pin.programs.isEmpty { places.append("handed only to \(pin.programs.map(\.text).joined(separator: ", "))") }
        return places.isEmpty ? "pinned to no host: sent nowhere" : places.joined(separator: "; ")
    }
}
