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

    /// `message` with every quoted value ('…') longer than `limit` characters cut to its start
    /// and "…": the one place that keeps a message from quoting a whole file, page or answer,
    /// whichever action or check wrote it. A quote opens after a space or an opening bracket
    /// (not inside a word, as in "step's") and closes before a space, punctuation or the end.
    public static func cappingQuotes(in message: String, limit: Int = 200) -> String {
        guard message.count > limit else { return message }
        let characters = Array(message)
        var result = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let opens = character == "'" && (index == 0 || " ([{:=,\n".contains(characters[index - 1]))
            guard opens, let close = closingQuote(in: characters, after: index), close - index - 1 > limit else {
                result.append(character)
                index += 1
                continue
            }
            result += "'" + String(characters[(index + 1)...(index + limit)]) + "…'"
            index = close + 1
        }
        return result
    }

    /// The index of the quote that closes the one at `open`: the first one before a space,
    /// punctuation or the end.
    private static func closingQuote(in characters: [Character], after open: Int) -> Int? {
        var index = open + 1
        while index < characters.count {
            if characters[index] == "'" && (index + 1 == characters.count || " ,.;:)]}\n".contains(characters[index + 1])) {
                return index
            }
            index += 1
        }
        return nil
    }
}
