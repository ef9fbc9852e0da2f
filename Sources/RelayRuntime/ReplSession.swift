import Foundation
import RelayKit
import RelayEngine
import RelayLanguage

/// A REPL session (`relay repl`): steps typed one entry at a time, each checked and run like a
/// workflow's, its output kept as the next entry's input, variables kept between entries.
public final class ReplSession {
    /// What running an entry came to.
    public enum Outcome: Sendable {
        /// The entry ran; its output.
        case value(Value)
        /// The entry did not check; nothing ran. Ranges point into the entry as typed.
        case invalid([Diagnostic])
        /// A step failed at run time; located in the entry.
        case failed(RuntimeError)
        /// A person declined or cancelled.
        case cancelled(String)
    }

    public let loader: WorkflowLoader
    private let makeEnvironment: @Sendable (UndoJournal?) -> RunEnvironment
    private let journalRoot: URL?
    /// The variables set so far.
    public private(set) var variables: [String: Value] = [:]
    /// The last entry's output: the next entry's input.
    public private(set) var previous: Value = .nothing
    /// Whether the last entry's output was made from a secret: it is shown as `•••`.
    public var previousIsLabelled: Bool { SecretLabels.isLabelled("previous", in: variables) }
    /// The variables the session's entries set, without what Relay keeps beside them.
    public var shownVariables: [String: Value] { variables.filter { !SecretLabels.isKey($0.key) } }
    /// The entries that ran, as typed, for `:save`.
    public private(set) var entries: [String] = []
    /// The undo journals of the entries that changed files: `:undo` undoes these, never what an
    /// earlier `relay run` changed.
    public private(set) var journalFolders: Set<String> = []

    /// A session checking against `loader`'s registry; `environment` makes the run environment of
    /// each entry, given the journal its file changes are recorded in (under `journalRoot`, one
    /// run per entry, so that undoing the newest run undoes the last entry).
    public init(loader: WorkflowLoader, journalRoot: URL?, environment: @escaping @Sendable (UndoJournal?) -> RunEnvironment) {
        self.loader = loader
        self.journalRoot = journalRoot
        makeEnvironment = environment
    }

    /// Checks and runs `entry`: one step, or a control step with its indented block.
    public func run(_ entry: String) async -> Outcome {
        let file = SourceFile(path: "<repl>", text: "steps:\n" + Self.asStep(entry) + "\n")
        let (workflow, diagnostics) = loader.load(file, predefined: Set(shownVariables.keys).union(["previous"]))
        let typed = SourceFile(path: "<repl>", text: entry)
        guard let workflow else { return .invalid(diagnostics.map { Self.relocated($0, to: typed) }) }
        let journal = journalRoot.map { UndoJournal(root: $0, workflow: "relay repl") }
        let interpreter = Interpreter(workflow: workflow, environment: makeEnvironment(journal))
        // A path made from a secret is kept as it is, to be undone, and shown masked.
        journal?.shown = { [gate = interpreter.environment.gate] in SecretLabels.shownPath($0, gate: gate) }
        defer { if let journal, journal.hasChanges { journalFolders.insert(journal.folder.standardizedFileURL.path) } }
        var state = variables
        state["previous"] = previous
        do {
            let output = try await interpreter.continueRun(input: previous, variables: &state)
            state["previous"] = nil
            variables = state
            previous = output
            entries.append(entry)
            return .value(output)
        } catch let error as RuntimeError {
            var located = error
            located.range = error.range.map { Self.relocated($0, to: typed) }
            return .failed(located)
        } catch let cancelled as RunCancelled {
            return .cancelled(cancelled.reason)
        } catch {
            return .failed(RuntimeError(Interpreter.message(for: error)))
        }
    }

    /// Makes the secret `name` readable as `${secrets.NAME}` in the entries that follow (`:secret`).
    public func addSecret(_ name: String, value: String) {
        var secrets = ValueDictionary()
        if case .dictionary(let entries)? = variables["secrets"] { secrets = entries }
        secrets[name] = .text(value)
        variables["secrets"] = .dictionary(secrets)
    }

    /// Forgets the variables, the last output and the entries.
    public func reset() {
        variables = [:]
        previous = .nothing
        entries = []
    }

    /// The entries as a workflow that `relay run` reproduces.
    public var workflowText: String {
        var header = ""
        if case .dictionary(let secrets)? = variables["secrets"], !secrets.isEmpty {
            header = "secrets: [\(secrets.keys.joined(separator: ", "))]\n"
        }
        return header + "steps:\n" + entries.map(Self.asStep).joined(separator: "\n") + "\n"
    }

    /// The entries as a workflow file kept in `folder`: the same text when that is the working
    /// folder; else each path written relative to the working folder in a parameter that reads or
    /// writes files is written out whole, so that the file points where the session's steps did
    /// (a workflow's relative paths are taken from its own folder).
    public func workflowText(savedIn folder: String) -> String {
        let text = workflowText
        let working = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        let target = URL(fileURLWithPath: folder, relativeTo: URL(fileURLWithPath: working)).standardizedFileURL.path
        guard target != working else { return text }
        let file = SourceFile(path: target + "/saved.yaml", text: text)
        guard let workflow = loader.load(file, predefined: []).workflow else { return text }
        var replacements: [(range: SourceRange, path: String)] = []
        func collect(_ steps: [PlannedStep]) {
            for step in steps {
                if case .action(let action) = step.kind {
                    for (index, parameter) in action.definition.parameters.enumerated()
                    where parameter.access == .read || parameter.access == .write || parameter.type == .file {
                        guard let template = action.arguments[index], case .literal(.text(let path)) = template.kind,
                            !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("~")
                        else { continue }
                        let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: working)).standardizedFileURL.path
                        replacements.append((template.range, absolute + (path.hasSuffix("/") ? "/" : "")))
                    }
                }
                for block in step.blocks { collect(block) }
            }
        }
        collect(workflow.steps)
        // Replaced from the end, by byte offsets, so that each earlier place stays where it was.
        var bytes = Array(text.utf8)
        for replacement in replacements.sorted(by: { $0.range.start > $1.range.start }) {
            guard let start = file.index(of: replacement.range.start), let end = file.index(of: replacement.range.end), start <= end else { continue }
            let quoted = "\"" + replacement.path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            let from = text.utf8.distance(from: text.startIndex, to: start), to = text.utf8.distance(from: text.startIndex, to: end)
            bytes.replaceSubrange(from..<to, with: Array(quoted.utf8))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An entry as an item of a workflow's `steps:` list (so positions shift by one line and
    /// four columns; see `relocated`).
    private static func asStep(_ entry: String) -> String {
        // A line that is one `${…}` alone is its value, with its type (`${1 + 2}` is the number 3).
        let trimmed = entry.trimmingCharacters(in: .whitespaces)
        if !trimmed.contains("\n"), trimmed.hasPrefix("${"), trimmed.hasSuffix("}") {
            return "  - comment: the value of an expression\n    input: '" + trimmed.replacingOccurrences(of: "'", with: "''") + "'"
        }
        return entry.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
            (index == 0 ? "  - " : "    ") + line
        }.joined(separator: "\n")
    }

    // MARK: - Pointing into the entry

    /// The wrapped text's line L, column C is the entry's line L - 1, column C - 4.
    private static func relocated(_ range: SourceRange, to typed: SourceFile) -> SourceRange {
        func position(_ position: SourcePosition) -> SourcePosition {
            SourcePosition(line: max(position.line - 1, 1), column: max(position.column - 4, 1))
        }
        return SourceRange(file: typed, start: position(range.start), end: position(range.end))
    }

    private static func relocated(_ diagnostic: Diagnostic, to typed: SourceFile) -> Diagnostic {
        var moved = diagnostic
        moved.range = diagnostic.range.map { relocated($0, to: typed) }
        return moved
    }
}
