import Foundation
import RelayKit
import RelayRuntime

/// Asks on the terminal about what a run needs and was not granted — `Allow "Word count" to read
/// ~/.ssh/id_rsa? [y]es once / [a]lways / [N]o` — and keeps "always" in the grant store
/// (Docs/Security.md, "At run time"). Without a terminal nobody is asked: the need is denied.
final class GrantPrompt: @unchecked Sendable {
    private let lock = NSLock()
    private var name: String
    /// The workflow file whose grants "always" keeps; nil in the REPL, whose answers last the session.
    private let workflow: String?
    private let interactive: Bool
    private let store: GrantStore
    private weak var gate: AccessGate?
    /// What this run has executed besides the workflow, pinned.
    private var executed: [GrantStore.Pin] = []
    /// The pins of the grants remembered for the workflow, while they are in force.
    private var rememberedPins: [String: String]?
    /// Whether "always" was answered in this run: what it executes later is pinned too.
    private var rememberedThisRun = false

    private init(workflow: String?, interactive: Bool, store: GrantStore) {
        self.workflow = workflow
        self.interactive = interactive
        self.store = store
        name = workflow.map { (($0 as NSString).lastPathComponent as NSString).deletingPathExtension } ?? "the REPL"
    }

    /// The gate of a run of the workflow at `file` (nil: a REPL session): what the flags grant,
    /// what was allowed always for this workflow as it is now, trusted packages, and a prompt when
    /// there is a terminal. A dry run's gate lets nothing be changed, sent or opened.
    static func gate(
        for file: String?, granted: [Capability: GrantScope], interactive: Bool, dryRun: Bool = false, advisesFlags: Bool = true,
        store: GrantStore = GrantStore()
    ) -> (gate: AccessGate, prompt: GrantPrompt) {
        let prompt = GrantPrompt(workflow: file, interactive: interactive, store: store)
        let gate = AccessGate(granted: granted, asker: { await prompt.ask($0) }, dryRun: dryRun, advisesFlags: advisesFlags)
        prompt.gate = gate
        if let file {
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
        lock.withLock { name = workflowName }
    }

    private func ask(_ access: Access) async -> GrantAnswer? {
        if access.capability == .packages, store.trusts(package: access.target) { return .once }
        guard interactive else { return nil }
        let answer = try? await BlockingWork.run { _ in
            // On a thread of its own: the terminal is read without holding a step's thread, and
            // parallel steps ask one after another.
            self.lock.withLock { self.askLocked(access) }
        }
        return answer ?? GrantAnswer.no
    }

    private func askLocked(_ access: Access) -> GrantAnswer {
        // Another step may have been given the same while this one waited.
        if let gate, gate.allows(access) { return .once }
        let choices = workflow == nil ? "[y]es for this session / [N]o" : "[y]es once / [a]lways / [N]o"
        StandardStreams.writeError("Allow \"\(name)\" to \(access.phrase)? \(choices) ")
        guard let line = Swift.readLine() else { return .no }
        switch line.trimmingCharacters(in: .whitespaces).lowercased() {
        case "y", "yes": return .once
        case "a" where workflow != nil, "always" where workflow != nil:
            do throws(FileOperationError) {
                if access.capability == .packages {
                    try store.trust(package: access.target)
                } else if let workflow {
                    try store.remember(access, forWorkflow: workflow, pins: executed)
                    rememberedThisRun = true
                }
            } catch {
                StandardStreams.writeError("warning: allowed for this run only: \(error)\n")
            }
            return .always
        default: return .no
        }
    }
}
