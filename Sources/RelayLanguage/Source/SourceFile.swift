import RelayKit

/// A workflow file's text, kept once, with the path it is shown under.
///
/// Lines end where YAML's reader ends them, so that the places libyaml reports are lines here:
/// at a line feed, a carriage return (alone or before a line feed), NEL, and the line and
/// paragraph separators (U+2028, U+2029) — `LineBreak`, which splits a workflow's texts too.
public final class SourceFile: Sendable {
    /// The path as the user wrote it (diagnostics print it this way).
    public let path: String
    /// The whole text.
    public let text: String
    /// Each line's text, without its line break.
    private let lines: [Range<String.Index>]
    /// Whether each line is ASCII, so that its scalars are its characters.
    private let asciiLines: [Bool]

    public init(path: String, text: String) {
        self.path = path
        self.text = text
        var lines: [Range<String.Index>] = []
        var asciiLines: [Bool] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var index = start
        var ascii = true
        while index < scalars.endIndex {
            let scalar = scalars[index]
            var next = scalars.index(after: index)
            if LineBreak.scalars.contains(scalar) {
                if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" { next = scalars.index(after: next) }
                lines.append(start..<index)
                asciiLines.append(ascii)
                start = next
                ascii = true
            } else if !scalar.isASCII {
                ascii = false
            }
            index = next
        }
        lines.append(start..<scalars.endIndex)
        asciiLines.append(ascii)
        self.lines = lines
        self.asciiLines = asciiLines
    }

    /// How many lines the text has (a final line break starts an empty last line).
    public var lineCount: Int { lines.count }

    /// The text of line `number` (1-based), without its line break; empty past the end.
    public func line(_ number: Int) -> Substring {
        guard number >= 1, number <= lines.count else { return "" }
        return text[lines[number - 1]]
    }

    /// The column (1-based, in characters) of the place `scalars` Unicode scalars into line
    /// `number` — libyaml counts columns in scalars; a place past the line's end is just past it.
    /// `cursor`, when it is on the same line and not past the place, saves counting from the
    /// line's start again (places come in order, and a line can be long).
    public func column(line number: Int, scalars: Int, cursor: inout ColumnCursor) -> Int {
        guard number >= 1, number <= lines.count, scalars > 0 else { return 1 }
        let range = lines[number - 1]
        if asciiLines[number - 1] {
            return min(scalars, text.utf8.distance(from: range.lowerBound, to: range.upperBound)) + 1
        }
        if cursor.line != number || cursor.scalars > scalars {
            cursor = ColumnCursor(line: number, scalars: 0, index: range.lowerBound, characters: 0)
        }
        let view = text.unicodeScalars
        var index = cursor.index
        var remaining = scalars - cursor.scalars
        while remaining > 0, index < range.upperBound {
            index = view.index(after: index)
            remaining -= 1
        }
        let characters = cursor.characters + text[cursor.index..<index].count
        cursor = ColumnCursor(line: number, scalars: scalars - remaining, index: index, characters: characters)
        return characters + 1
    }

    /// The place of the character at byte `utf8Offset` of the text (the end, past it).
    public func position(utf8Offset: Int) -> SourcePosition {
        let index = text.utf8.index(text.startIndex, offsetBy: min(max(utf8Offset, 0), text.utf8.count))
        let number = lines.lastIndex { $0.lowerBound <= index } ?? 0
        let start = lines[number].lowerBound
        return SourcePosition(line: number + 1, column: text[start..<min(index, lines[number].upperBound)].count + 1)
    }

    /// The index in `text` of `position`, or nil when the text has no such place.
    public func index(of position: SourcePosition) -> String.Index? {
        guard position.line >= 1, position.line <= lines.count, position.column >= 1 else { return nil }
        let range = lines[position.line - 1]
        return text.index(range.lowerBound, offsetBy: position.column - 1, limitedBy: range.upperBound)
    }

    /// Where counting columns last stopped (see `column(line:scalars:cursor:)`).
    public struct ColumnCursor {
        var line = 0
        var scalars = 0
        var index: String.Index
        var characters = 0

        public init() { index = "".startIndex }

        init(line: Int, scalars: Int, index: String.Index, characters: Int) {
            self.line = line
            self.scalars = scalars
            self.index = index
            self.characters = characters
        }
    }
}

/// A place in a source file: 1-based line and column (columns count characters).
public struct SourcePosition: Sendable, Hashable, Comparable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// A stretch of a source file, from `start` up to (not including) `end`.
public struct SourceRange: Sendable, Hashable {
    public var file: SourceFile
    public var start: SourcePosition
    public var end: SourcePosition

    public init(file: SourceFile, start: SourcePosition, end: SourcePosition) {
        self.file = file
        self.start = start
        self.end = max(start, end)
    }

    /// A range of `length` characters on one line starting at `start`.
    public init(file: SourceFile, start: SourcePosition, length: Int) {
        self.init(file: file, start: start, end: SourcePosition(line: start.line, column: start.column + length))
    }

    public static func == (lhs: SourceRange, rhs: SourceRange) -> Bool {
        lhs.file === rhs.file && lhs.start == rhs.start && lhs.end == rhs.end
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(file))
        hasher.combine(start)
        hasher.combine(end)
    }
}
