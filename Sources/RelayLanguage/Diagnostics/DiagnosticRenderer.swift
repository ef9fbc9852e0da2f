/// Renders diagnostics like a compiler: `file:line:col: error: message`, the source line with a
/// right-aligned line-number gutter, a caret and tildes under the range, then notes.
public struct DiagnosticRenderer: Sendable {
    /// Colours severities and markers with ANSI codes when true.
    public var usesColor: Bool

    public init(usesColor: Bool = false) { self.usesColor = usesColor }

    /// The text for `diagnostics`, each followed by a newline.
    public func render(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map(render).joined()
    }

    /// The text for one diagnostic, ending with a newline.
    public func render(_ diagnostic: Diagnostic) -> String {
        var output = ""
        if let range = diagnostic.range {
            output += "\(range.file.path):\(range.start.line):\(range.start.column): "
        }
        output += paint(diagnostic.severity.rawValue + ":", severityColor(diagnostic.severity))
        output += " " + diagnostic.message + "\n"
        if let range = diagnostic.range {
            output += excerpt(range)
        }
        for note in diagnostic.notes {
            output += note + "\n"
        }
        return output
    }

    private func excerpt(_ range: SourceRange) -> String {
        let line = range.file.line(range.start.line)
        guard !line.isEmpty || range.start.column == 1 else { return "" }
        let number = String(range.start.line)
        let gutterWidth = max(5, number.count + 1)
        let gutter = String(repeating: " ", count: gutterWidth - number.count) + number + " | "
        let blankGutter = String(repeating: " ", count: gutterWidth) + " | "
        let startColumn = max(1, range.start.column)
        let lineLength = line.count
        let endColumn = range.end.line == range.start.line ? range.end.column : lineLength + 1
        let width = max(1, min(endColumn, lineLength + 1) - startColumn)
        let padding = String(line.prefix(startColumn - 1).map { $0 == "\t" ? "\t" : " " })
        let marker = "^" + String(repeating: "~", count: width - 1)
        return gutter + line + "\n" + blankGutter.dropLast() + " " + padding + paint(marker, "\u{1B}[1;32m") + "\n"
    }

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
