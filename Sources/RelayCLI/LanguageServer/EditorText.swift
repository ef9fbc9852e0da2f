import RelayLanguage

/// A document's text as the Language Server Protocol places things in it (Docs/Editors.md): a
/// line ends at a line feed, a carriage return and line feed, or a carriage return — not at the
/// other breaks YAML ends lines at —, and a character is a UTF-16 code unit (the protocol's
/// default) or a UTF-8 byte, as the editor and the server agreed.
struct EditorText {
    enum Encoding: String, Sendable {
        case utf16 = "utf-16"
        case utf8 = "utf-8"
    }

    let text: String
    let encoding: Encoding
    /// Where each line starts, in `text`.
    private let lineStarts: [String.Index]

    init(_ text: String, encoding: Encoding) {
        self.text = text
        self.encoding = encoding
        var starts = [text.startIndex]
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            var next = scalars.index(after: index)
            if scalar == "\n" || scalar == "\r" {
                if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" { next = scalars.index(after: next) }
                starts.append(next)
            }
            index = next
        }
        lineStarts = starts
    }

    /// How many lines the text has.
    var lineCount: Int { lineStarts.count }

    /// Line `number` (from 0) without its break; empty past the end.
    func line(_ number: Int) -> Substring {
        guard number >= 0, number < lineStarts.count else { return "" }
        var end = number + 1 < lineStarts.count ? lineStarts[number + 1] : text.endIndex
        while end > lineStarts[number], let last = text.unicodeScalars[..<end].last, last == "\n" || last == "\r" {
            end = text.unicodeScalars.index(before: end)
        }
        return text[lineStarts[number]..<end]
    }

    /// The protocol's place (0-based line and character) of `index`.
    func position(of index: String.Index) -> (line: Int, character: Int) {
        // The last line that starts at or before the index.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        let start = lineStarts[low]
        let character =
            switch encoding {
            case .utf16: text.utf16.distance(from: start, to: index)
            case .utf8: text.utf8.distance(from: start, to: index)
            }
        return (low, character)
    }

    /// The index of the protocol's place `line`, `character`; a character past the line's end is
    /// its end (as the protocol says), and nil for a line the text does not have or a negative place.
    func index(line: Int, character: Int) -> String.Index? {
        guard line >= 0, line < lineStarts.count, character >= 0 else { return nil }
        let start = lineStarts[line]
        let end = self.line(line).endIndex
        var index = start, counted = 0
        while index < end, counted < character {
            let scalar = text.unicodeScalars[index]
            counted += encoding == .utf16 ? scalar.utf16.count : scalar.utf8.count
            index = text.unicodeScalars.index(after: index)
        }
        return index
    }

    /// The protocol's range of a diagnostic's range in this text (the whole of its first place
    /// for none).
    func range(of range: SourceRange?, in file: SourceFile) -> (start: (line: Int, character: Int), end: (line: Int, character: Int)) {
        guard let range else { return ((0, 0), (0, 0)) }
        return (position(of: index(of: range.start, in: file)), position(of: index(of: range.end, in: file)))
    }

    /// The index of a checker's place: a column past its line's end is the line's end, a line past
    /// the text's end is the text's end.
    private func index(of place: SourcePosition, in file: SourceFile) -> String.Index {
        if let index = file.index(of: place) { return index }
        guard place.line >= 1, place.line <= file.lineCount else { return text.endIndex }
        return file.index(of: SourcePosition(line: place.line, column: file.line(place.line).count + 1)) ?? text.endIndex
    }
}
