/// A long text shortened for a message, so that no error quotes a whole file or page: its start
/// (a value that was not what was wanted) or its end (a program's standard error, whose last
/// lines say why it failed), with "…" where the rest was left out.
public enum Excerpt {
    /// The first `limit` characters of `text`, and "…" when there were more.
    public static func start(of text: String, limit: Int = 200) -> String {
        text.count <= limit ? text : String(text.prefix(limit)) + "…"
    }

    /// The last `limit` characters of `text`, after "…" when there were more.
    public static func end(of text: String, limit: Int = 1_000) -> String {
        text.count <= limit ? text : "…" + String(text.suffix(limit))
    }
}
