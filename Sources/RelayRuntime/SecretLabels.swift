import Foundation
import RelayKit
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
    static func isKey(_ name: String) -> Bool { name.hasPrefix("#labels ") }

    /// What the steps under way carry, set once per step (one task-local value: each costs a step
    /// an allocation).
    struct Frame: Sendable {
        /// The labels of what the step under way read: its input and its templates, and `context`.
        var step: Set<String> = []
        /// The labels of the conditions that chose the steps under way: an `if`, a `match`, a
        /// loop's count or list, a `when:`.
        var context: Set<String> = []
        /// Where a run the step starts (`run-workflow`) leaves the labels of its output.
        var returned: Returned? = nil
    }

    @TaskLocal static var frame = Frame()

    /// The labels of what the step under way read. What it shows is shown as `•••` when there are any.
    public static var step: Set<String> { frame.step }
    static var context: Set<String> { frame.context }
    static var returned: Returned? { frame.returned }

    /// What one step's labels are worked out from, in a run that has secrets.
    struct Step {
        /// Its input's, from the previous step or `input:`.
        var input: Set<String>
        /// The conditions' that chose it: the frame's, and its own `when:`.
        var context: Set<String>
        /// What it read: its input (when it reads it), its templates, `context`.
        var step: Set<String> = []
        /// The frame it is in, read once (a task-local value costs a look each time).
        let frame: Frame
        /// Where a run it starts leaves its output's labels: only a step that may start one.
        let returned: Returned?

        init(_ planned: PlannedStep, variables: Variables) {
            input = of("previous", in: variables)
            frame = SecretLabels.frame
            context = frame.context
            returned = Interpreter.startsRuns(planned) ? Returned() : nil
        }

        /// Works out `step`, once its input and conditions are known.
        mutating func read(_ planned: PlannedStep, variables: Variables) {
            step = (planned.readsInput ? input : []).union(context).union(SecretLabels.read(planned.ownReads, in: variables))
        }

        /// The frame to run the step in, when it differs from the one it is in.
        var newFrame: Frame? {
            guard returned != nil || step != frame.step || context != frame.context else { return nil }
            return Frame(step: step, context: context, returned: returned)
        }
    }

    /// Runs `body` with `labels` added to the conditions that chose the steps under way.
    static func choosing<T>(by labels: Set<String>, _ body: () async throws -> T) async rethrows -> T {
        var frame = frame
        frame.context.formUnion(labels)
        return try await $frame.withValue(frame) { try await body() }
    }

    /// Where a run started by a step (`run-workflow`) leaves the labels of its output.
    final class Returned: @unchecked Sendable {
        private let lock = NSLock()
        private var labels: Set<String> = []
        func add(_ more: Set<String>) { if !more.isEmpty { lock.withLock { labels.formUnion(more) } } }
        var all: Set<String> { lock.withLock { labels } }
    }

    /// Runs `body` (a run of a workflow) and says whether its output was made from a secret, so
    /// that a front end shows it as `•••` whatever its form.
    public static func collectingOutput(_ body: () async throws -> Value) async throws -> (value: Value, labelled: Bool) {
        let returned = Returned()
        let value = try await $frame.withValue(Frame(returned: returned)) { try await body() }
        return (value, !returned.all.isEmpty)
    }

    /// The labels of variable `name`.
    static func of(_ name: String, in variables: Variables) -> Set<String> { labels(at: key(name), in: variables) }

    /// The labels kept at `key`.
    private static func labels(at key: String, in variables: Variables) -> Set<String> {
        guard case .list(let names)? = variables[key] else { return [] }
        return Set(names.map(\.textValue))
    }

    /// Gives variable `name` exactly `labels`.
    static func set(_ labels: Set<String>, on name: String, in variables: inout Variables) {
        let key = key(name)
        if labels.isEmpty {
            if variables[key] != nil { variables[key] = nil }
        } else {
            variables[key] = .list(labels.sorted().map { .text($0) })
        }
    }

    /// Adds `labels` to variable `name`'s: what it held before may still be in it (an `append`).
    static func add(_ labels: Set<String>, to name: String, in variables: inout Variables) {
        guard !labels.isEmpty else { return }
        set(of(name, in: variables).union(labels), on: name, in: &variables)
    }

    /// The labels of what `reads` names: the variables (`previous` is the step's input), and the secrets.
    static func read(_ reads: PlannedStep.Reads, in variables: Variables) -> Set<String> {
        guard !reads.isEmpty else { return [] }
        var labels = Set(reads.secrets)
        for key in reads.labelKeys { labels.formUnion(Self.labels(at: key, in: variables)) }
        return labels
    }

    /// The labels of what `templates` read: the variables they name (`previous` is the step's
    /// input), and the secrets they name.
    static func read(by templates: [Template], in variables: Variables) -> Set<String> {
        var labels: Set<String> = []
        for template in templates {
            for reference in template.secretReferences { labels.insert(reference.name) }
            for reference in template.variableReferences where reference.name != "secrets" {
                labels.formUnion(of(reference.name, in: variables))
            }
        }
        return labels
    }
}
