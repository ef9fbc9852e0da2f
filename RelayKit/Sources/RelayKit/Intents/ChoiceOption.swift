/// One option of `requestChoice`, in the manner of App Intents' `IntentChoiceOption`: a title and
/// a role that says what choosing it means.
public struct ChoiceOption: Sendable, Hashable {
    /// What choosing an option means.
    public enum Role: String, Sendable {
        /// The expected choice.
        case `default`
        /// A choice that destroys something (shown as such on a terminal).
        case destructive
        /// Not going on: choosing it ends the run, as a declined confirmation does (exit status 3).
        case cancel
    }

    public var title: String
    public var role: Role?

    public init(_ title: String, role: Role? = nil) {
        self.title = title
        self.role = role
    }

    /// A cancel option, titled "Cancel" unless told otherwise.
    public static func cancel(_ title: String = "Cancel") -> ChoiceOption { ChoiceOption(title, role: .cancel) }
}

extension IntentContext {
    /// Asks a person to pick one of `options` (App Intents' `requestChoice`) and returns it.
    /// Cancel options are offered last; a destructive one is marked; the `default` one is taken by
    /// Enter on a terminal and by `--yes` without one. A cancel option ends the run with exit
    /// status 3. In a background run the answer comes from `--answer PROMPT=TITLE` (or
    /// `KEY=TITLE` with `key`, which stays when the prompt's words change), else `--yes` and the
    /// default; without either the step fails, saying so.
    public func requestChoice(_ prompt: String, between options: [ChoiceOption], key: String? = nil) async throws -> ChoiceOption {
        guard !options.isEmpty else { throw IntentError("'\(prompt)' offers no options") }
        let shown = options.filter { $0.role != .cancel } + options.filter { $0.role == .cancel }
        let request = ChoiceRequest(
            prompt: prompt, options: shown.map(\.title), defaultIndex: shown.firstIndex { $0.role == .default },
            destructive: Set(shown.indices.filter { shown[$0].role == .destructive }), key: key)
        let picked = try await choose(request)
        guard let index = picked.first, shown.indices.contains(index) else {
            throw IntentError("no option of '\(prompt)' was chosen")
        }
        let option = shown[index]
        if option.role == .cancel { throw RunCancelled("'\(prompt)': \(option.title) was chosen") }
        return option
    }
}
