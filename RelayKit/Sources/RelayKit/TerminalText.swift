/// Text from a workflow, a file's name, a server or a package, made safe to show on a terminal
/// (Docs/Security.md, "Nothing shown is believed"): the control characters a terminal acts on —
/// escape sequences, carriage returns, backspaces, C1 controls — and the characters that reorder
/// what follows them (the bidirectional overrides and isolates) are shown, not obeyed, so that
/// nothing can hide or fake a question.
public enum TerminalText {
    /// `text` with each such character shown as its picture (␛, ␍, ␀), a C1 control as �, and a
    /// bidirectional control or a line or paragraph separator (U+2028, U+2029) as `<U+202E>`.
    /// Tabs stay, and line breaks where asked.
    public static func visible(_ text: some StringProtocol, keepingLineBreaks: Bool = false) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return String(text) }
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09: output.append(scalar)
            case 0x0A where keepingLineBreaks: output.append(scalar)
            case 0x00..<0x20: output.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
            case 0x7F: output.append("\u{2421}")
            case 0x80..<0xA0: output.append("\u{FFFD}")
            case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                output.append(contentsOf: "<U+\(String(scalar.value, radix: 16, uppercase: true))>".unicodeScalars)
            default: output.append(scalar)
            }
        }
        return String(output)
    }
}
