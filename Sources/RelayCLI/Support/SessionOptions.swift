import ArgumentParser
import Foundation
import RelayActions
import RelayKit
import RelayRuntime

/// The options `relay run` and `relay repl` share: how prompts are answered, what a dry run
/// does, how URLs are opened, and the library folders. Declared once, so both commands take
/// the same flags with the same help.
struct SessionOptions: ParsableArguments {
    @Option(name: .customLong("answer"), help: "Answer a prompt: PROMPT=VALUE, where PROMPT is the prompt text or the step's 'as' name (repeatable).")
    var answers: [String] = []
    @Flag(help: "Answer yes to every confirmation.") var yes = false
    @Flag(help: "Write, send and open nothing: each step that would prints what it would do to standard error.") var dryRun = false
    @Option(help: "Open URLs with this command (the URL is added as its last argument).") var openWith: String?
    @Option(help: ArgumentHelp("The photo library folder (default: $RELAY_PHOTOS, else ~/Pictures).", valueName: "dir"))
    var photos: String?
    @Option(help: ArgumentHelp("The notes folder (default: $RELAY_NOTES, else ~/Notes).", valueName: "dir")) var notes: String?

    func validate() throws {
        for answer in answers where !answer.contains("=") {
            throw ValidationError("--answer takes PROMPT=VALUE, not '\(answer)'")
        }
    }

    /// How prompts are answered.
    /// How the run is answered; `questions` are the prompts the workflow is known to ask, named
    /// when one goes unanswered so that every answer can be given at once.
    func interaction(interactive: Bool, questions: [String] = []) -> Answers {
        var answers = Answers(answers: answers, assumeYes: yes, interactive: interactive)
        answers.questions = questions
        return answers
    }

    /// How `open` opens URLs: `--open-with`, else `$RELAY_OPEN`, else the system's opener.
    func opener() -> URLOpener {
        URLOpener(strategy: URLOpener.strategy(dryRun: dryRun, openWith: openWith, environment: ProcessInfo.processInfo.environment)) {
            StandardStreams.writeError($0 + "\n")
        }
    }

    /// Runs `body` with the flags' library folders, which travel with its tasks rather than in
    /// the process's environment.
    func usingLibraryFolders<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await LibraryFolders.using(photos: photos, notes: notes, body)
    }
}
