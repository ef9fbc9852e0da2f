import Foundation
import RelayKit
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
        let (workflow, diagnostics) = loader.load(file, predefined: Set(variables.keys).union(["previous"]))
        let typed = SourceFile(path: "<repl>", text: entry)
        guard let workflow else { return .invalid(diagnostics.map { Self.relocated($0, to: typed) }) }
        let journal = journalRoot.map { UndoJournal(root: $0, workflow: "relay repl") }
        let interpreter = Interpreter(workflow: workflow, environment: makeEnvironment(journal))
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
