import Foundation
import RelayKit
import RelayEngine
import RelayRuntime

/// Answers prompts from `--answer PROMPT=VALUE`, `--yes` and defaults, and, when standard input
/// is a terminal, by asking on it (Docs/Language.md, "Output and exit status": interaction).
struct Answers: Interaction {
    /// The raw `PROMPT=VALUE` arguments; a prompt may itself contain `=`.
    let answers: [String]
    let assumeYes: Bool
    let mode: RunMode
    /// The prompts the workflow is known to ask: an unanswered one names the others to answer too.
    var questions: [String] = []
    private let terminal = TerminalPrompter()

    var suppliesAnswers: Bool { assumeYes || !answers.isEmpty }

    init(answers: [String], assumeYes: Bool, interactive: Bool) {
        self.answers = answers
        self.assumeYes = assumeYes
        self.mode = interactive ? .interactive : .background
    }

    /// The `--answer` given for `prompt`, else for the first of `keys` that has one (the
    /// question's key, then the step's `as` name and `label:`).
    func answer(for prompt: String, keys: [String]) -> String? {
        // The prompt is the most particular name a question has: an answer for it wins.
        for candidate in [prompt] + keys {
            if let entry = answers.first(where: { $0.hasPrefix(candidate + "=") }) {
                return String(entry.dropFirst(candidate.count + 1))
            }
        }
        return nil
    }

    /// `--answer 'KEY=EXAMPLE'` as a shell takes it: by the question's key or the step's `as` name
    /// or label when there is one (it stays when the prompt's words change, as with an entity's
    /// title in them), else by the prompt; quoted, whatever quotes the prompt holds.
    static func suggestion(_ prompt: String, keys: [String], example: String) -> String {
        "--answer \(ShellQuoting.quoted("\(keys.first ?? prompt)=\(example)"))"
    }

    private func unanswered(_ prompt: String, keys: [String], example: String, extra: String = "") -> IntentError {
        IntentError(
            "no answer for '\(prompt)': standard input is not a terminal; pass \(Self.suggestion(prompt, keys: keys, example: example))\(extra), or give the step a default\(others(than: prompt))")
    }

    /// The other questions without an answer yet, so that one run's error names all of them.
    private func others(than prompt: String) -> String {
        let unanswered = questions.filter { $0 != prompt && answer(for: $0, keys: []) == nil }
        var seen: Set<String> = []
        let listed = unanswered.filter { seen.insert($0).inserted }
        guard !listed.isEmpty else { return "" }
        return "; the workflow may also ask \(listed.map { "'\($0)'" }.joined(separator: ", "))"
    }

    func ask(_ question: Question, keys: [String]) async throws -> Value {
        if let answer = answer(for: question.prompt, keys: keys) { return .text(answer) }
        if mode == .interactive {
            while true {
                let line = try terminal.readLine(prompt: question.prompt, defaultValue: question.defaultValue?.textValue)
                if line.isEmpty, let defaultValue = question.defaultValue { return defaultValue }
                do {
                    return try Value.text(line).coerced(to: question.type)
                } catch {
                    terminal.say("\(error); try again")
                }
            }
        }
        if let defaultValue = question.defaultValue { return defaultValue }
        throw unanswered(question.prompt, keys: keys, example: "VALUE")
    }

    func choose(_ request: ChoiceRequest, keys: [String]) async throws -> [Int] {
        if let answer = answer(for: request.prompt, keys: keys) {
            return try Self.choices(answer, in: request)
        }
        if mode == .interactive {
            while true {
                let line = try terminal.readChoice(request)
                if line.isEmpty, let index = request.defaultIndex { return [index] }
                do {
                    return try Self.choices(line, in: request)
                } catch {
                    terminal.say("\(error); try again")
                }
            }
        }
        if assumeYes, let index = request.defaultIndex { return [index] }
        let options = " (options: \(Self.listed(request.options)))"
        if let index = request.defaultIndex {
            throw IntentError(
                "no answer for '\(request.prompt)': standard input is not a terminal; pass \(Self.suggestion(request.prompt, keys: keys, example: request.options[index]))\(options), or --yes to take the default '\(request.options[index])'")
        }
        let suggestion = Self.suggestion(request.prompt, keys: keys, example: request.options.first ?? "OPTION")
        if let unanswered = request.unanswered {
            throw IntentError("\(unanswered); choose one with \(suggestion)\(others(than: request.prompt))")
        }
        throw IntentError(
            "no answer for '\(request.prompt)': standard input is not a terminal; pass \(suggestion)\(options)\(others(than: request.prompt))")
    }

    func confirm(_ prompt: String, keys: [String]) async throws -> Bool {
        if let answer = answer(for: prompt, keys: keys) {
            do {
                return try Value.text(answer).booleanValue()
            } catch {
                throw IntentError("the answer to '\(prompt)' is '\(answer)'; answer yes or no")
            }
        }
        if assumeYes { return true }
        if mode == .interactive {
            while true {
                let line = try terminal.readLine(prompt: TerminalPrompter.shown(prompt) + " [y/N]", defaultValue: nil, ownWords: true).lowercased()
                if line.isEmpty || line == "n" || line == "no" { return false }
                if line == "y" || line == "yes" { return true }
                terminal.say("answer y or n")
            }
        }
        throw unanswered(prompt, keys: keys, example: "yes", extra: " or --yes")
    }

    /// `'a', 'b', 'c'`: the first ten options, for a message.
    static func listed(_ options: [String]) -> String {
        options.prefix(10).map { "'\($0)'" }.joined(separator: ", ") + (options.count > 10 ? ", … (\(options.count) in all)" : "")
    }

    /// Reads an answer to a choice: an option's label (any case) or its 1-based number; with
    /// `allowsMultiple`, several separated by commas.
    static func choices(_ answer: String, in request: ChoiceRequest) throws -> [Int] {
        func index(of text: String) -> Int? {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            // An option written as it is wins over one that differs only in case ('STRASSE', 'Straße').
            if let exact = request.options.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == trimmed }) { return exact }
            if let exact = request.options.firstIndex(where: { $0.caseInsensitiveCompare(trimmed) == .orderedSame }) {
                return exact
            }
            if let number = Int(trimmed), request.options.indices.contains(number - 1) { return number - 1 }
            return nil
        }
        if let single = index(of: answer) { return [single] }
        if request.allowsMultiple {
            let parts = answer.split(separator: ",").map(String.init)
            let indices = parts.compactMap(index(of:))
            if indices.count == parts.count, !indices.isEmpty { return indices }
        }
        throw IntentError(
            "'\(answer)' is not one of the options of '\(request.prompt)': \(listed(request.options))\(Suggestions.didYouMean(answer, in: request.options))")
    }
}

/// Asks questions on the terminal: prompts on standard error, answers from standard input. The
/// run's secrets in a prompt or an option are masked (Docs/Runs.md, "Secrets"); a step given or
/// chosen by a value made from a secret shows its prompt, its default and its options as •••
/// whole, since any piece of them may be made from it.
struct TerminalPrompter: Sendable {
    func say(_ text: String) {
        StandardStreams.writeError(Self.shown(text) + "\n")
    }

    /// `text` from the workflow, as a person may see it.
    static func shown(_ text: String) -> String {
        SecretLabels.step.isEmpty ? RunSecrets.masked(text) : RunSecrets.mask
    }

    /// Reads a line after `prompt`; `ownWords` when the prompt is Relay's, not the workflow's.
    func readLine(prompt: String, defaultValue: String?, ownWords: Bool = false) throws -> String {
        let suffix = defaultValue.map { " [\(Self.shown($0))]" } ?? ""
        let shownPrompt = ownWords ? prompt : Self.shown(prompt)
        StandardStreams.writeError(shownPrompt + suffix + " ")
        guard let line = Swift.readLine() else { throw RunCancelled("standard input closed at the prompt '\(shownPrompt)'") }
        return line.trimmingCharacters(in: .whitespaces)
    }

    /// Shows the numbered options — a destructive one marked, the default one named in the
    /// prompt (Enter takes it) — and reads the answer.
    func readChoice(_ request: ChoiceRequest) throws -> String {
        say(request.prompt)
        for (index, option) in request.options.enumerated() {
            let destructive = request.destructive.contains(index)
            let mark = destructive ? (StandardStreams.errorUsesColor ? " \u{1B}[31m(destroys)\u{1B}[0m" : " (destroys)") : ""
            StandardStreams.writeStyled(TerminalText.visible("  \(index + 1). \(Self.shown(option))") + mark + "\n")
        }
        let hint = request.allowsMultiple ? "Numbers or names, separated by commas:" : "Number or name:"
        return try readLine(prompt: hint, defaultValue: request.defaultIndex.map { request.options[$0] }, ownWords: true)
    }
}
