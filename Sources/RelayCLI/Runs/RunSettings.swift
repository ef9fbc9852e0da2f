import Foundation
import RelayActions
import RelayKit
import RelayEngine
import RelayLanguage
import RelayRuntime

/// How a run or a REPL session answers its prompts, whether it is a dry run, how it opens URLs
/// and where its libraries are: what `relay run`'s and `relay repl`'s flags say, or what another
/// front end chooses, held by the run rather than in the process's environment.
struct RunSettings: Sendable {
    /// `PROMPT=VALUE` answers (`--answer`).
    var answers: [String] = []
    /// Every confirmation answered yes (`--yes`).
    var assumeYes = false
    /// Write, send and open nothing (`--dry-run`).
    var dryRun = false
    /// The command that opens URLs (`--open-with`).
    var openWith: String?
    /// The photo library and notes folders (`--photos`, `--notes`).
    var photos: String?
    var notes: String?
    /// Who answers the steps' questions when it is not a terminal nor the answers above: the
    /// front end's caller (an assistant, through its client, `relay mcp`).
    var caller: (any Interaction)?
    /// Who answers a permission question when no terminal does: the front end's caller (an
    /// assistant's person, through its client, `relay mcp`).
    var permissionAsker: (any PermissionAsker)?
    /// Where what the steps show goes (`show`, progress) when it is not the terminal: the front
    /// end's caller (an assistant's call, `relay mcp`).
    var shown: (any RunOutput)?

    /// How the run is answered; `questions` are the prompts the workflow is known to ask, named
    /// when one goes unanswered so that every answer can be given at once.
    func interaction(interactive: Bool, questions: [String] = []) -> Answers {
        var answers = Answers(answers: answers, assumeYes: assumeYes, interactive: interactive)
        answers.questions = questions
        return answers
    }

    /// How `open` opens URLs: `--open-with`, else `$RELAY_OPEN`, else the system's opener.
    func opener() -> URLOpener {
        URLOpener(strategy: URLOpener.strategy(dryRun: dryRun, openWith: openWith, environment: ProcessInfo.processInfo.environment)) {
            StandardStreams.writeError($0 + "\n")
        }
    }

    /// The environment a run or a REPL entry's steps run in, on a terminal's standard streams:
    /// prompts answered by these settings (a person asked only when `interactive`), output and
    /// traces through `terminal`, files changed through `journal`, URLs opened by these settings,
    /// every access through `gate`, secrets looked up where `relay secrets` keeps them. A `silent`
    /// run (one a server started) shows nothing as it goes: the history keeps what it did.
    func environment(
        loader: WorkflowLoader, gate: AccessGate, terminal: TerminalState, interactive: Bool, questions: [String] = [],
        json: Bool = false, tracing: Bool = false, journal: UndoJournal?, scratch: ScratchFolder, mentions: ScratchMentions? = nil,
        recorder: RunRecorder? = nil, silent: Bool = false
    ) -> RunEnvironment {
        let output: any RunOutput = shown ?? (silent ? SilentRunOutput() : TerminalRunOutput(json: json, scratch: mentions, terminal: terminal, secrets: gate.secrets))
        return RunEnvironment(
            interaction: caller ?? interaction(interactive: interactive, questions: questions),
            output: output, loader: loader, tracing: tracing,
            journal: journal, scratchFolder: scratch, opener: opener(), gate: gate, recorder: recorder, secretSource: SecretStore.source)
    }

    /// Runs `body` with these library folders, which travel with its tasks rather than in the
    /// process's environment.
    func usingLibraryFolders<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await LibraryFolders.using(photos: photos, notes: notes, body)
    }
}

/// What a run nobody watches shows as it goes: nothing.
struct SilentRunOutput: RunOutput {
    func show(_ value: Value) {}
    func trace(_ line: String) {}
}
