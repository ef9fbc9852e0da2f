import RelayKit

/// Formats a workflow's output for standard output (Docs/Language.md, "Output and exit status").
public enum OutputFormatter {
    /// The text `relay run` prints for `value`: nothing for nothing; text followed by a newline unless
    /// it ends with one; lists one item a line; dictionaries as pretty JSON. With `json`, the value as JSON.
    public static func render(_ value: Value, json: Bool) -> String {
        if json { return JSONWriter.string(for: value, pretty: true) + "\n" }
        switch value {
        case .nothing: return ""
        case .list(let items): return items.map { render($0, json: false) }.joined()
        default:
            let text = value.textValue
            return text.endsInLineFeed ? text : text + "\n"
        }
    }
}
