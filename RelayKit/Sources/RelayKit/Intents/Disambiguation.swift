/// Asking which of several entities was meant (App Intents' `requestDisambiguation`): one rule for
/// an intent's `requestDisambiguation` and for a title that several entities match.
public enum Disambiguation {
    /// What each candidate is called in the question: its title where that alone tells it apart,
    /// else `title — subtitle`, else that with its id, else with its number, so that `--answer
    /// KEY=LABEL` names one. Labels are told apart as answers are matched to them: with spaces
    /// around them trimmed, in any case of letters ('Straße' and 'STRASSE' are alike).
    public static func labels(_ candidates: [(title: String, subtitle: String?, id: String)]) -> [String] {
        func key(_ label: String) -> String { label.trimmingCharacters(in: .whitespaces).folding(options: .caseInsensitive, locale: nil) }
        /// Applies `widen` to every label that is alike another.
        func widened(_ labels: [String], _ widen: (Int, String) -> String) -> [String] {
            let counts = labels.reduce(into: [String: Int]()) { $0[key($1), default: 0] += 1 }
            return labels.enumerated().map { index, label in counts[key(label), default: 0] > 1 ? widen(index, label) : label }
        }
        var labels = candidates.map(\.title)
        labels = widened(labels) { index, label in candidates[index].subtitle.map { "\(label) — \($0)" } ?? label }
        labels = widened(labels) { index, label in "\(label) (\(candidates[index].id))" }
        labels = widened(labels) { index, label in "\(label) [\(index + 1)]" }
        return labels
    }

    /// What is wrong with asking among `count` candidates (or a package's options), or nil: none,
    /// or more than a person can be asked to choose among.
    public static func problem(count: Int, what: String, prompt: String) -> String? {
        if count == 0 { return "'\(prompt)' has no \(what) to choose from" }
        if count > Limits.choiceOptions {
            return "'\(prompt)' would ask a person to choose among \(count) \(what); at most \(Limits.choiceOptions) are offered: narrow them first"
        }
        return nil
    }
}

extension IntentContext {
    /// Asks a person which of `entities` was meant (App Intents' `requestDisambiguation`) and
    /// returns it. Each is shown by its title (with its subtitle, then its id, where titles are
    /// alike). On a terminal the person picks one; in a background run the answer comes from
    /// `--answer PROMPT=TITLE`, or `KEY=TITLE` with `key`, which stays when the prompt's words
    /// change; without one the step fails, saying how to give it. One entity is returned without
    /// asking; none, or more than `Limits.choiceOptions`, fails the step.
    public func requestDisambiguation<E: Entity>(among entities: [E], dialog: String? = nil, key: String? = nil) async throws -> E {
        let prompt = dialog ?? "Which \(E.typeName.singular)?"
        if let problem = Disambiguation.problem(count: entities.count, what: E.typeName.plural, prompt: prompt) { throw IntentError(problem) }
        if entities.count == 1 { return entities[0] }
        let labels = Disambiguation.labels(entities.map { ($0.displayRepresentation.title, $0.displayRepresentation.subtitle, $0.id) })
        let picked = try await choose(ChoiceRequest(prompt: prompt, options: labels, key: key))
        guard let index = picked.first, entities.indices.contains(index) else { throw IntentError("no \(E.typeName.singular) of '\(prompt)' was chosen") }
        return entities[index]
    }
}
