import Foundation
import RelayKit
import RelayEngine
import RelayLanguage
import RelayRuntime

/// A workflow file `relay serve` serves: checked, its triggers, and what it would need that its
/// grants do not give it (Docs/Automations.md, "Permissions"). A served run never asks: a
/// workflow that needs more than it was granted is listed as needing grants, and its triggers
/// stay disarmed.
struct ServedWorkflow: Sendable {
    /// The file, absolute.
    let file: String
    let workflow: CheckedWorkflow?
    /// Why it is not served: its check's errors, or the packages it cannot load.
    var problem: String?
    /// The same, without the lines of the file the errors quote: what an assistant is told.
    var problemAlone: String?
    /// The values of its secrets, looked up when it was read: masked in what is said of it (a tool's
    /// description), however they are written in the file.
    var secrets: RunSecrets?
    /// What it needs, before its first step, beyond what is granted to it.
    let needs: [GrantPrompt.Need]
    /// Whether it, or a workflow it runs, reads a secret: its webhook's caller is then not told
    /// how a run ended (Docs/Automations.md, "Webhooks").
    var readsSecrets = false

    var triggers: [Trigger] { workflow?.triggers ?? [] }

    /// What may start a run nobody typed, as the history's trigger column says: a served
    /// workflow's triggers' kinds, `page` for the page's Run now, and `mcp` for an assistant's
    /// tool call (Docs/Assistants.md).
    static let startedBy = ["schedule", "watch", "webhook", "page", "mcp"]

    /// Whether the page offers to run it now: it is armed, and needs no input (a webhook's body,
    /// a watched folder's file, a declared `input:`), which Run now has none of.
    var runsNow: Bool {
        isArmed && workflow?.input == nil && triggers.contains { if case .schedule = $0.kind { true } else { false } }
    }
    /// The triggers a server arms.
    var servedTriggers: [Trigger] { problem == nil ? triggers : [] }
    /// Whether its triggers fire.
    var isArmed: Bool { workflow != nil && problem == nil && needs.isEmpty && !triggers.isEmpty }
    /// Its webhooks' names.
    var hooks: [(name: String, trigger: Trigger)] {
        triggers.compactMap { trigger in if case .webhook(let hook) = trigger.kind { (hook.name.text, trigger) } else { nil } }
    }

    /// A webhook of this workflow that one of `others` has already: a webhook's name is one
    /// workflow's. Made this workflow's problem, located at the name.
    mutating func refuseHooks(takenBy others: [ServedWorkflow]) {
        guard problem == nil, workflow != nil else { return }
        for others in others where others.file != file && others.workflow != nil {
            for trigger in triggers {
                guard case .webhook(let hook) = trigger.kind, others.hooks.contains(where: { $0.name == hook.name.text }) else { continue }
                let diagnostic = Diagnostic(
                    .error, "webhook '\(hook.name.text)' is served by \(others.file) already; give this one another name", at: hook.name.range)
                problem = DiagnosticRenderer().render([diagnostic])
                return
            }
        }
    }

    /// Reads and checks `file`, and works out what it needs beyond the grants remembered for it
    /// and `granted` (what `relay serve`'s flags give every workflow).
    static func load(
        _ file: String, base: WorkflowLoader, granted: [Capability: GrantScope], grantsDeclared: Bool, stateFolder: URL
    ) async -> ServedWorkflow {
        let (gate, _) = GrantPrompt.gate(for: file, granted: granted, interactive: false, store: GrantStore(root: stateFolder))
        let loader: WorkflowLoader
        do {
            loader = try await base.loadingPackages(of: file, gate: gate, progress: PackageOptions.showProgress)
        } catch {
            return ServedWorkflow(file: file, workflow: nil, problem: DiagnosticRenderer().render([error.diagnostic]), needs: [])
        }
        let (loaded, diagnostics) = loader.load(path: file, predefined: ["trigger"])
        // Checked as `relay check` does, its secrets looked up: one not set, or whose value is
        // written in the file, is a problem too; and a secret's value is masked in what is said.
        let secrets = RunSecrets()
        let all = await WorkflowChecking.diagnostics(of: loaded, loaded: diagnostics, secrets: secrets)
        guard let workflow = loaded, !all.contains(where: { $0.severity == .error }) else {
            // A file that does not check has its secrets, as its `secrets:` names them, masked all the same.
            if loaded == nil { await Self.lookUpSecrets(namedIn: file, into: secrets) }
            var served = ServedWorkflow(file: file, workflow: nil, problem: secrets.redact(DiagnosticRenderer().render(all)), needs: [])
            // Told to an assistant: the errors, without the lines they quote (its words are not theirs to read).
            served.problemAlone = secrets.redact(DiagnosticRenderer(quotesLines: false).render(all))
            return served
        }
        gate.allowFreely(runOf: file, inputFiles: [])
        let report = PermissionReport(workflow, entityTypes: loader.registry.entityTypes)
        if grantsDeclared { for (access, _) in report.declaredAccesses { gate.allow(access, fromCommandLine: true) } }
        let subWorkflows = SubWorkflowReports.collect(workflow, loader: loader).map(\.report)
        let needs = GrantPrompt.needs(of: report, gate: gate, subWorkflows: subWorkflows)
        var served = ServedWorkflow(file: file, workflow: workflow, problem: nil, needs: needs)
        served.secrets = secrets
        served.readsSecrets = !report.secrets.isEmpty || subWorkflows.contains { !$0.secrets.isEmpty }
        return served
    }

    /// Looks up the secrets the top-level `secrets:` of the YAML at `file` names, into `secrets`:
    /// for a file that does not check, whose values must be masked in what is said of it.
    static func lookUpSecrets(namedIn file: String, into secrets: RunSecrets) async {
        guard let text = try? WorkflowLoader.readText(file, limit: Limits.workflowBytes),
            let root = try? YAMLParser.parse(SourceFile(path: file, text: text)), case .mapping(let pairs) = root.kind,
            let listed = pairs.first(where: { $0.key.scalarText == "secrets" })?.value, case .sequence(let items) = listed.kind
        else { return }
        let names = items.compactMap(\.scalarText)
        guard !names.isEmpty else { return }
        for (name, lookup) in await SecretStore.source(names) {
            if case .found(let value) = lookup { secrets.add(name, value: value) }
        }
    }

    /// The workflow files in `paths`: each file, and the `.yaml` and `.yml` files in each folder
    /// (not below it), in order; an error for a path that is neither.
    /// The workflow files of `paths` (the default folder when none is named); else the error,
    /// said on standard error, and exit status 2. `doing` says what the command does with them.
    static func files(named paths: [String], doing: String) throws -> [String] {
        do throws(ServeError) {
            return try files(in: paths.isEmpty ? [defaultFolder] : paths, doing: doing)
        } catch {
            StandardStreams.writeError("error: \(error)\(paths.isEmpty ? " (name files or folders to \(doing), or put workflows there)" : "")\n")
            throw ExitStatus.invalid.exitCode
        }
    }

    static func files(in paths: [String], doing: String = "serve") throws(ServeError) -> [String] {
        var files: [String] = []
        for path in paths {
            // An empty path (an unset variable in a command line) is not the working folder.
            guard !path.isEmpty else { throw ServeError("an empty path names no file or folder to \(doing)") }
            let absolute = URL(fileURLWithPath: FileReference(path: path).originalPath).standardizedFileURL.path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder) else {
                throw ServeError("there is no file or folder '\(path)' to \(doing)")
            }
            guard isFolder.boolValue else {
                files.append(absolute)
                continue
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: absolute)) ?? []
            files += names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted().map { absolute + "/" + $0 }
        }
        return files
    }

    /// The folders among `paths`, absolute: served whole, a file added to one is served too.
    static func folders(in paths: [String]) -> [String] {
        paths.compactMap { path in
            let absolute = URL(fileURLWithPath: FileReference(path: path).originalPath).standardizedFileURL.path
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder) && isFolder.boolValue ? absolute : nil
        }
    }

    /// `$XDG_CONFIG_HOME/relay/workflows`, else `~/.config/relay/workflows`.
    static var defaultFolder: String {
        let environment = ProcessInfo.processInfo.environment
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? HomeFolder.path + "/.config"
        return config + "/relay/workflows"
    }
}

/// Why `relay serve` cannot start.
struct ServeError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Trigger {
    /// The trigger in words: `schedule "30 7 * * 1-5"`, `schedule every 10 min`.
    var summary: String {
        switch kind {
        case .schedule(.cron(let cron)): "schedule \"\(cron.text)\""
        case .schedule(.every(let seconds)): "schedule every \(Self.interval(seconds))"
        case .watch(let watch): "watch \(watch.path)" + (watch.glob.map { " (\($0))" } ?? "")
        case .webhook(let hook): "webhook /hooks/\(hook.name.text)"
        }
    }

    /// `10 min`, `1 h`, `90 s`: in the largest unit that holds it whole.
    static func interval(_ seconds: Double) -> String {
        for (unit, size) in [("d", 86_400.0), ("h", 3_600.0), ("min", 60.0)] where seconds >= size && seconds.truncatingRemainder(dividingBy: size) == 0 {
            return "\(NumberFormatting.text(seconds / size)) \(unit)"
        }
        return "\(NumberFormatting.text(seconds)) s"
    }

    /// When a schedule fires next after `date` (`started`: when the server started, which an
    /// interval counts from); nil for other triggers, or a schedule that never comes.
    func nextFire(after date: Date, started: Date) -> Date? {
        switch kind {
        case .schedule(.cron(let cron)): return cron.next(after: date, in: .current)
        case .schedule(.every(let seconds)):
            let elapsed = date.timeIntervalSince(started)
            let count = (elapsed / seconds).rounded(.down) + 1
            return started.addingTimeInterval(max(count, 1) * seconds)
        default: return nil
        }
    }
}
