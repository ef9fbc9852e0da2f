import Foundation
import RelayKit
import RelayEngine
import RelayLanguage

/// The secrets a value was made from, followed through the run (Docs/Runs.md, "Secrets follow what
/// is made from them"): a value a step makes carries the secrets of everything the step read — its
/// input, the variables and `${secrets.NAME}` its templates name — and of every condition that
/// chose whether it ran (a branch on a secret is a flow from it). A step given a labelled value is
/// held to the secrets' pins as a step given their text is; a labelled output is shown as `•••`.
///
/// The labels live beside the variables, under names no workflow can write, so that they are
/// copied, scoped and restored exactly as the variables are. A run without secrets pays one look.
public enum SecretLabels {
    /// Where the labels of variable `name` are kept among the variables: `#` starts no name a
    /// workflow may write.
    static func key(_ name: String) -> String { name == "previous" ? previousKey : PlannedStep.labelKey(name) }
    private static let previousKey = PlannedStep.labelKey("previous")

    /// Whether `name` is such a key, to leave out where variables are listed.
    public static func isKey(_ name: String) -> Bool { name.hasPrefix("#") }

    /// Whether variable `name` was made from a secret: a front end shows it as `•••`.
    public static func isLabelled(_ name: String, in variables: [String: Value]) -> Bool { variables[key(name)] != nil }

    /// What the steps under way carry, set once per step (one task-local value: each costs a step
    /// an allocation).
    struct Frame: Sendable {
        /// The labels of what the step under way read: its input and its templates, and `context`.
        var step = SecretNames.none
        /// The labels of the conditions that chose the steps under way: an `if`, a `match`, a
        /// loop's count or list, a `when:`.
        var context = SecretNames.none
        /// Where a run the step starts (`run-workflow`) leaves the labels of its output.
        var returned: SecretCollector? = nil
    }

    @TaskLocal static var frame = Frame()

    /// The labels of what the step under way read. What it shows is shown as `•••` when there are any.
    public static var step: SecretNames { frame.step }
    static var context: SecretNames { frame.context }
    static var returned: SecretCollector? { frame.returned }

    /// What one step's labels are worked out from, in a run that has secrets.
    struct Step {
        /// Its input's, from the previous step or `input:`.
        var input: SecretNames
        /// The conditions' that chose it: the frame's, and its own `when:`.
        var context: SecretNames
        /// What it read: its input (when it reads it), its templates, `context`.
        var step = SecretNames.none
        /// The frame it is in, read once (a task-local value costs a look each time).
        let frame: Frame
        /// Where a run it starts leaves its output's labels: only a step that may start one.
        let returned: SecretCollector?
        /// Whether it is an action: a control step shows and sends nothing itself, so the steps in
        /// its blocks run with their own `step` labels, not with what it read.
        let isAction: Bool

        init(_ planned: PlannedStep, input: SecretNames) {
            self.input = input
            frame = SecretLabels.frame
            context = frame.context
            returned = Interpreter.startsRuns(planned) ? SecretCollector() : nil
            if case .action = planned.kind { isAction = true } else { isAction = false }
        }

        /// Works out `step`, once its input and conditions are known.
        mutating func read(_ planned: PlannedStep, variables: Variables) {
            step = (planned.readsInput ? input : .none).union(context).union(SecretLabels.read(planned.ownReads, in: variables))
        }

        /// The frame to run the step in, when it differs from the one it is in.
        var newFrame: Frame? {
            let shown = isAction ? step : frame.step
            guard returned != nil || shown != frame.step || context != frame.context else { return nil }
            return Frame(step: shown, context: context, returned: returned)
        }
    }

    /// Runs `body` with `labels` added to the conditions that chose the steps under way.
    static func choosing<T>(by labels: SecretNames, _ body: () async throws -> T) async rethrows -> T {
        var frame = frame
        frame.context.formUnion(labels)
        return try await $frame.withValue(frame) { try await body() }
    }

    /// How a path the step under way changes is shown to a person (the undo journal's list):
    /// with the run's secrets masked; and when the step was given or chosen by a value made from
    /// one, or the run wrote the path from one, as the place a secret's pin or a grant names that
    /// holds it, then `•••` — since the rest may be made from the secret, however short its
    /// pieces (`out/a-hun.txt`). The change may be recorded on a thread of its own, which has no
    /// step: the gate's note of what it let be written from a secret tells then.
    public static func shownPath(_ path: String, gate: AccessGate) -> String {
        let secrets = gate.secrets
        let names = frame.step.union(frame.context).names.union(secrets.names(readingFrom: path))
        guard !names.isEmpty else { return secrets.redact(path) }
        let pinned = names.flatMap { secrets.pins(of: $0)?.folders ?? [] }.map(ResolvedPath.resolve)
        let granted = gate.place(holding: path, for: .write).map { [ResolvedPath.resolve($0)] } ?? []
        guard let holder = (pinned + granted).filter({ ResolvedPath.path(path, isWithin: $0) }).max(by: { $0.count < $1.count }) else {
            return RunSecrets.mask
        }
        // A file the pin or the grant names is written as it is.
        return path == holder ? secrets.redact(path) : secrets.redact(holder) + "/" + RunSecrets.mask
    }

    /// Runs `body` (a run of a workflow) and says whether its output was made from a secret, so
    /// that a front end shows it as `•••` whatever its form.
    public static func collectingOutput(_ body: () async throws -> Value) async throws -> (value: Value, labelled: Bool) {
        let returned = SecretCollector()
        let value = try await $frame.withValue(Frame(returned: returned)) { try await body() }
        return (value, !returned.all.isEmpty)
    }

    /// The labels of variable `name`.
    static func of(_ name: String, in variables: Variables) -> SecretNames { SecretNames(variables[key(name)]) }

    /// Gives variable `name` exactly `labels`.
    static func set(_ labels: SecretNames, on name: String, in variables: inout Variables) {
        let key = key(name)
        if labels.isEmpty {
            variables.removeValue(forKey: key)
        } else {
            variables[key] = labels.value
        }
    }

    /// Adds `labels` to variable `name`'s: what it held before may still be in it (an `append`).
    static func add(_ labels: SecretNames, to name: String, in variables: inout Variables) {
        guard !labels.isEmpty else { return }
        set(of(name, in: variables).union(labels), on: name, in: &variables)
    }

    /// The labels of what `reads` names: the variables (`previous` is the step's input), and the secrets.
    static func read(_ reads: PlannedStep.Reads, in variables: Variables) -> SecretNames {
        guard !reads.isEmpty else { return .none }
        var labels = reads.secretNames
        for key in reads.labelKeys { labels.formUnion(SecretNames(variables[key])) }
        if RunSecrets.anyLabelledFiles, let secrets = AccessGate.running?.secrets, secrets.hasLabelledFiles {
            for name in reads.variables { labels.formUnion(filesLabels(of: variables[name], in: secrets)) }
        }
        return labels
    }

    /// The labels of what `templates` read: the variables they name (`previous` is the step's
    /// input), and the secrets they name.
    static func read(by templates: [Template], in variables: Variables) -> SecretNames {
        var labels = SecretNames.none
        let secrets = RunSecrets.anyLabelledFiles ? AccessGate.running?.secrets : nil
        for template in templates {
            for reference in template.secretReferences { labels.formUnion(SecretNames([reference.name])) }
            for reference in template.variableReferences where reference.name != "secrets" {
                labels.formUnion(of(reference.name, in: variables))
                if let secrets, secrets.hasLabelledFiles { labels.formUnion(filesLabels(of: variables[reference.name], in: secrets)) }
            }
        }
        return labels
    }

    /// The secrets of the files `value` names (a file, or the files of a list) that the run wrote
    /// from secrets since: a file variable set before its file was written from a secret reads
    /// that file's size, dates and bytes now (Docs/Runs.md, "Secrets follow what is made from them").
    static func filesLabels(of value: Value?, in secrets: RunSecrets) -> SecretNames {
        switch value {
        case .file(let file)?: return SecretNames(secrets.names(readingFrom: file.path))
        case .list(let items)?:
            var labels = SecretNames.none
            for case .file(let file) in items.prefix(10_000) { labels.formUnion(SecretNames(secrets.names(readingFrom: file.path))) }
            return labels
        default: return .none
        }
    }
}
