import ArgumentParser
import Foundation
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

    /// The settings these flags give a run or a session.
    var settings: RunSettings {
        RunSettings(answers: answers, assumeYes: yes, dryRun: dryRun, openWith: openWith, photos: photos, notes: notes)
    }
}
