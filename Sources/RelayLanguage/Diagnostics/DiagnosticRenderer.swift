import RelayKit

/// Renders diagnostics like a compiler: `file:line:col: error: message`, the source line with a
/// right-aligned line-number gutter, a caret and tildes under the range, then notes.
public struct DiagnosticRenderer: Sendable {
    /// Colours severities and markers with ANSI codes when true.
    public var usesColor: Bool
    /// Whether the line a diagnostic is about is quoted under it.
    public var quotesLines: Bool

    public init(usesColor: Bool = false, quotesLines: Bool = true) {
        self.usesColor = usesColor
        self.quotesLines = quotesLines
    }

    /// The text for `diagnostics`, each followed by a newline.
    public func render(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map(render).joined()
    }

    /// The text for one diagnostic, ending with a newline.
    public func render(_ diagnostic: Diagnostic) -> String {
        var output = ""
        if let range = diagnostic.range {
            output += "\(Self.visible(range.file.path)):\(range.start.line):\(range.start.column): "
        }
        output += paint(diagnostic.severity.rawValue + ":", severityColor(diagnostic.severity))
        output += " " + Self.visible(diagnostic.message, keepingLineBreaks: true) + "\n"
        if let range = diagnostic.range, quotesLines {
            output += excerpt(range)
        }
        for note in diagnostic.notes {
            output += Self.visible(note, keepingLineBreaks: true) + "\n"
        }
        return output
    }

    private func excerpt(_ range: SourceRange) -> String {
        // One character for one, so that the caret stays under its column.
        let line = Self.visible(range.file.line(range.start.line))
        guard !line.isEmpty || range.start.column == 1 else { return "" }
        let number = String(range.start.line)
        let gutterWidth = max(5, number.count + 1)
        let gutter = String(repeating: " ", count: gutterWidth - number.count) + number + " | "
        let blankGutter = String(repeating: " ", count: gutterWidth) + " | "
        var startColumn = max(1, range.start.column)
        var endColumn = range.end.line == range.start.line ? range.end.column : line.count + 1
        var shown = line
        // A long line is shown as a window around the start of the range, marked with '…'.
        if line.count > Self.widestLine {
            let characters = Array(line)
            let first = max(0, min(startColumn - 1 - Self.widestLine / 4, characters.count - Self.widestLine))
            let last = min(characters.count, first + Self.widestLine)
            shown = (first > 0 ? "…" : "") + String(characters[first..<last]) + (last < characters.count ? "…" : "")
            let shift = first - (first > 0 ? 1 : 0)
            startColumn -= shift
            endColumn = min(endColumn - shift, shown.count + 1)
        }
        let width = max(1, min(endColumn, shown.count + 1) - startColumn)
        let padding = String(shown.prefix(startColumn - 1).map { $0 == "\t" ? "\t" : " " })
        let marker = "^" + String(repeating: "~", count: width - 1)
        return gutter + shown + "\n" + blankGutter.dropLast() + " " + padding + paint(marker, "\u{1B}[1;32m") + "\n"
    }

    /// `text` as a terminal may show it (TerminalText).
    static func visible(_ text: some StringProtocol, keepingLineBreaks: Bool = false) -> String {
        TerminalText.visible(text, keepingLineBreaks: keepingLineBreaks)
    }

    /// The most characters of a source line shown under a diagnostic.
    static let widestLine = 160

    private func severityColor(_ severity: Severity) -> String {
        switch severity {
        case .error: "\u{1B}[1;31m"
        case .warning: "\u{1B}[1;35m"
        case .note: "\u{1B}[1;36m"
        }
    }

    private func paint(_ text: String, _ color: String) -> String {
        usesColor ? color + text + "\u{1B}[0m" : text
    }
}
