/// A workflow file's text, kept once, with the path it is shown under.
public final class SourceFile: Sendable {
    /// The path as the user wrote it (diagnostics print it this way).
    public let path: String
    /// The whole text.
    public let text: String
    private let lineStarts: [String.Index]

    public init(path: String, text: String) {
        self.path = path
        self.text = text
        var starts = [text.startIndex]
        var index = text.startIndex
        while let newline = text[index...].firstIndex(of: "\n") {
            index = text.index(after: newline)
            starts.append(index)
        }
        lineStarts = starts
    }

    /// How many lines the text has (a final line break starts an empty last line).
    public var lineCount: Int { lineStarts.count }

    /// The text of line `number` (1-based), without its line break; empty past the end.
    public func line(_ number: Int) -> Substring {
        guard number >= 1, number <= lineStarts.count else { return "" }
        let start = lineStarts[number - 1]
        let end = number < lineStarts.count ? text.index(before: lineStarts[number]) : text.endIndex
        var line = text[start..<end]
        if line.hasSuffix("\r") { line = line.dropLast() }
        return line
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
