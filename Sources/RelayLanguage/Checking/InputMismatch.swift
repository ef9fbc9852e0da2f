import RelayKit

/// What the checker and the run say when what arrives at a step's input cannot become what the
/// input parameter takes (Docs/Language.md, "How values flow"): one wording for both, so that a
/// mistake reads the same whether it is found before the run or during it.
public enum InputMismatch {
    /// `'delete-file' takes a file that exists as input, but the previous step, 'number' (line 2), outputs a number`.
    /// `source` says where the input came from and `found` what it is, as one phrase: "the
    /// previous step, 'number' (line 2), outputs a number", "'input:' gave number 5".
    public static func message(action: String, wants target: ConversionTarget, _ sourceAndFound: String) -> String {
        "'\(action)' takes \(target) as input, but \(sourceAndFound)"
    }

    /// The ways out, for a help note.
    public static func help(making type: ValueType) -> String {
        "help: give the step its input with 'input:', start from no input with '- nothing' before it, or make \(type.withArticle) first"
    }

    /// The step that made a value, as messages name it: `'number' (line 2)`.
    public static func producer(_ name: String, line: Int) -> String {
        "'\(name)' (line \(line))"
    }
}
