import Foundation
import RelayKit
import RelayEngine
import RelayLanguage
import RelayRuntime

/// Who answers a permission question when no terminal does: an assistant's person, through its
/// client (Docs/Assistants.md, "What the gate does with a call").
protocol PermissionAsker: Sendable {
    /// The answer to `question`; "always" is offered only when `allowsAlways`.
    func askPermission(_ question: String, allowsAlways: Bool) async -> GrantAnswer
}

/// Asks on the terminal about what a run needs and was not granted — `Allow "Word count" to read
/// ~/.ssh/id_rsa? [y]es once / [a]lways / [N]o` — and keeps "always" in the grant store
/// (Docs/Security.md, "At run time"). Without a terminal nobody is asked, unless the run has an
/// `asker` (an assistant's person): the need is denied.
final class GrantPrompt: @unchecked Sendable {
    private let lock = NSLock()
    private var name: String
    /// The workflow file whose grants "always" keeps; nil in the REPL, whose answers last the session.
    private let workflow: String?
    private let interactive: Bool
    private let store: GrantStore
    /// Whether a question is on the terminal: progress is not drawn over it.
    let terminal = TerminalState()
    private weak var gate: AccessGate?
    /// What this run has executed besides the workflow, pinned.
    private var executed: [GrantStore.Pin] = []
    /// The pins of the grants remembered for the workflow, while they are in force.
    private var rememberedPins: [String: String]?
    /// Whether "always" was answered in this run: what it executes later is pinned too.
    private var rememberedThisRun = false

    /// Who answers when no terminal does.
    private let asker: (any PermissionAsker)?
    /// The workflow file's bytes as the run starts: "always" is kept for them, not for what the
    /// file may have become while the question waited (hashed only then: a run that asks nothing
    /// loads no hash function).
    private let startingBytes: Data?

    private init(workflow: String?, interactive: Bool, store: GrantStore, asker: (any PermissionAsker)? = nil) {
        self.workflow = workflow
        self.interactive = interactive
        self.store = store
        self.asker = interactive ? nil : asker
        startingBytes = workflow.flatMap { FileManager.default.contents(atPath: ResolvedPath.resolve($0)) }
        name = workflow.map { Self.quotable((($0 as NSString).lastPathComponent as NSString).deletingPathExtension) } ?? "the REPL"
    }

    /// The gate of a run of the workflow at `file` (nil: a REPL session): what the flags grant,
    /// what was allowed always for this workflow as it is now, trusted packages, and a prompt when
    /// there is a terminal. A dry run's gate lets nothing be changed, sent or opened.
    static func gate(
        for file: String?, granted: [Capability: GrantScope], interactive: Bool, dryRun: Bool = false, advisesFlags: Bool = true,
        store: GrantStore = GrantStore(), asker: (any PermissionAsker)? = nil
    ) -> (gate: AccessGate, prompt: GrantPrompt) {
        let prompt = GrantPrompt(workflow: file, interactive: interactive, store: store, asker: asker)
        let gate = AccessGate(granted: granted, asker: { await prompt.ask($0) }, dryRun: dryRun, advisesFlags: advisesFlags)
        prompt.gate = gate
        if let file {
            if let refusal = store.refusal(forWorkflow: file) {
                StandardStreams.writeError("warning: what was allowed always for \(ResolvedPath.abbreviated(file)) is not used: \(refusal)\n")
            }
            let remembered = store.grants(forWorkflow: file)
            if !remembered.isEmpty {
                gate.allowRemembered(remembered)
                prompt.rememberedPins = store.pins(forWorkflow: file)
            }
            gate.observeExecution { [weak prompt] in prompt?.executes($0) }
        }
        return (gate, prompt)
    }

    /// Pins what the run executes: when grants remembered for the workflow are in force and it is
    /// not what they were given for (a sub-workflow that changed or was never run with them), they
    /// are withdrawn and the run asks again; after an "always", it is added to the pins.
    private func executes(_ executed: AccessGate.Executed) {
        guard let workflow, let pin = GrantStore.Pin.of(executed) else { return }
        let (withdraw, keep): (Bool, Bool) = lock.withLock {
            self.executed.append(pin)
            let key = "\(pin.kind) \(pin.path)"
            let withdraw = rememberedPins.map { $0[key] != pin.hash } ?? false
            if withdraw { rememberedPins = nil }
            return (withdraw, rememberedThisRun)
        }
        if withdraw, let gate, gate.hasRemembered {
            gate.withdrawRemembered()
            StandardStreams.writeError(
                "note: what was allowed always for \(ResolvedPath.abbreviated(workflow)) no longer applies: "
                    + "\(ResolvedPath.abbreviated(pin.path)) is not what it was when it was allowed\n")
        }
        if keep { try? store.pin(pin, forWorkflow: workflow) }
    }

    /// Names the workflow in the prompt by its `name:`, once it is known.
    func name(_ workflowName: String?) {
        guard let workflowName, !workflowName.isEmpty else { return }
        // Shown in the question: no line break or escape in it may fake another question.
        lock.withLock { name = Self.quotable(workflowName) }
    }

    private func ask(_ access: Access) async -> GrantAnswer? {
        if access.capability == .packages, store.trusts(package: access.target) { return .once }
        if let asker {
            if let gate, gate.allows(access) { return .once }
            return await ask(asker, "Allow \"\(lock.withLock { name })\" to \(TerminalText.visible(access.phrase))?", about: [access])
        }
        guard interactive else { return nil }
        let answer = try? await BlockingWork.run { _ in
            // On a thread of its own: the terminal is read without holding a step's thread, and
            // parallel steps ask one after another.
            self.lock.withLock { self.askLocked(access) }
        }
        return answer ?? GrantAnswer.no
    }

    /// A workflow's name as the question quotes it: visible, its own quotes escaped (`\"`), and at
    /// most 80 characters, so that a name cannot close the quote and write a question of its own.
    static func quotable(_ name: String) -> String {
        let visible = TerminalText.visible(name).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return visible.count > 80 ? String(visible.prefix(79)) + "…" : visible
    }

    private func askLocked(_ access: Access) -> GrantAnswer {
        // Another step may have been given the same while this one waited.
        if let gate, gate.allows(access) { return .once }
        return askLocked("Allow \"\(name)\" to \(TerminalText.visible(access.phrase))?", about: [access])
    }

    /// Puts `question` on the terminal and reads the answer; "always" keeps `accesses`.
    private func askLocked(_ question: String, about accesses: [Access]) -> GrantAnswer {
        let choices = workflow == nil ? "[y]es for this session / [N]o" : "[y]es once / [a]lways / [N]o"
        terminal.prompting(true)
        defer { terminal.prompting(false) }
        StandardStreams.writeError(RunSecrets.masked("\(question) \(choices) "))
        guard let line = Swift.readLine() else { return .no }
        switch line.trimmingCharacters(in: .whitespaces).lowercased() {
        case "y", "yes": return .once
        case "a" where workflow != nil, "always" where workflow != nil:
            keepLocked(accesses)
            return .always
        default: return .no
        }
    }

    /// Asks `asker` (an assistant's person) `question`, masked; "always" — offered for a workflow
    /// file, never for trusting a package, which would let its code into every run — keeps `accesses`.
    private func ask(_ asker: any PermissionAsker, _ question: String, about accesses: [Access]) async -> GrantAnswer {
        let allowsAlways = workflow != nil && !accesses.contains { $0.capability == .packages }
        let answer = await asker.askPermission(RunSecrets.masked(question), allowsAlways: allowsAlways)
        guard answer == .always else { return answer }
        lock.withLock { keepLocked(accesses) }
        return .always
    }

    /// Keeps `accesses` for the workflow (a package trusted), as "always" says.
    private func keepLocked(_ accesses: [Access]) {
        do throws(FileOperationError) {
            for access in accesses {
                if access.capability == .packages {
                    try store.trust(package: access.target)
                } else if let workflow {
                    try store.remember(access, forWorkflow: workflow, pins: executed, content: startingBytes.flatMap { ContentHash.of($0) })
                    rememberedThisRun = true
                }
            }
        } catch {
            StandardStreams.writeError("warning: allowed for this run only: \(error)\n")
        }
    }

    /// One thing the run will need, known before its first step, and where the workflow says so.
    struct Need {
        var access: Access
        /// The step's action, for the error; nil for an entry of `permissions:`.
        var step: String?
        var range: SourceRange?
        /// Why, for the question: `step 3 find-files`, or `permissions:`.
        var reason: String
    }

    /// What the run will need that is not allowed yet, known before the first step
    /// (Docs/Security.md, "Asking once"): what `permissions:` declares, when the workflow has the
    /// block, else the paths and hosts its steps write (a computed path as its literal folder). In
    /// a dry run, only reading: nothing is changed, sent or opened.
    static func needs(of report: PermissionReport, gate: AccessGate, subWorkflows: [PermissionReport] = []) -> [Need] {
        // The block's declarations, then what the steps name that it does not cover (which
        // `relay check` warns about), and what the workflows it runs name: asked with the rest,
        // so that no need known now is found only after earlier steps have run.
        var candidates = report.declaredAccesses.map { Need(access: $0.access, step: nil, range: $0.range, reason: "permissions:") }
        let declared = candidates.map(\.access)
        for need in report.needs + subWorkflows.flatMap(\.needs) {
            guard let target = need.target, need.step > 0 else { continue }
            let access: Access =
                switch need.capability {
                case .read: .read(target)
                case .write: .write(target)
                case .open: Access(.open, target).place
                default: Access(need.capability, target)
                }
            if declared.contains(where: { $0.covers(access) }) { continue }
            let place = need.range.file.path == report.file ? "" : " of \((need.range.file.path as NSString).lastPathComponent)"
            candidates.append(Need(access: access, step: need.action, range: need.range, reason: "step \(need.step) \(need.action)\(place)"))
        }
        candidates.removeAll { $0.access.capability == .packages || (gate.isDryRun && $0.access.capability.hasEffects) }
        var needs: [Need] = []
        for candidate in candidates where !gate.allows(candidate.access) {
            // One place covers another (a folder what is in it, writing reading): ask for the wider.
            if needs.contains(where: { $0.access.covers(candidate.access) }) { continue }
            needs.removeAll { candidate.access.covers($0.access) }
            needs.append(candidate)
        }
        return needs
    }

    /// Asks once, before the first step, for everything in `needs`. On a terminal: one question,
    /// whose yes allows all of it for the run ("always" keeps it). Without one: every need is
    /// told at once, with the one command line that grants it all, last on standard error; or on
    /// a no, the refusals. Returns the diagnostics of the denial (exit 4) and, without a terminal,
    /// the command line to print last; nil to run.
    func askBeforeRunning(_ needs: [Need], command: [String]) async -> (diagnostics: [Diagnostic], commandLine: String?)? {
        guard let gate, !needs.isEmpty else { return nil }
        if interactive || asker != nil {
            let accesses = needs.map(\.access)
            let answer: GrantAnswer? =
                if let asker {
                    await ask(asker, lock.withLock { question(for: needs) }, about: accesses)
                } else {
                    try? await BlockingWork.run { _ in self.lock.withLock { self.askLocked(self.question(for: needs), about: accesses) } }
                }
            if let answer, answer != .no {
                for need in needs { gate.allow(need.access) }
                return nil
            }
            return (needs.map { Self.denial($0, .refused) }, nil)
        }
        let flags = needs.map(\.access.grantingFlag)
        return (needs.map { Self.denial($0, .notAsked) }, (["relay"] + command.map(ShellQuoting.quoted) + flags).joined(separator: " "))
    }

    /// The one question about everything `needs`, before the first step.
    private func question(for needs: [Need]) -> String {
        if needs.count == 1 { return "Allow \"\(name)\" to \(TerminalText.visible(needs[0].access.phrase))?" }
        let width = needs.map { $0.access.capability.rawValue.count }.max() ?? 0
        let targetWidth = needs.map { TerminalText.visible($0.access.shownTarget).count }.max() ?? 0
        var question = "\"\(name)\" needs, before it starts:\n"
        for need in needs {
            let verb = need.access.capability.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
            let target = TerminalText.visible(need.access.shownTarget).padding(toLength: targetWidth, withPad: " ", startingAt: 0)
            question += "  \(verb)  \(target)  (\(TerminalText.visible(need.reason)))\n"
        }
        return question + "Allow all of it?"
    }

    private static func denial(_ need: Need, _ reason: AccessDenied.Reason) -> Diagnostic {
        var denial = AccessDenied(access: need.access, reason: reason)
        denial.suggestsPlace = false
        return RuntimeError(denial, step: need.step, at: need.range).diagnostic
    }
}
