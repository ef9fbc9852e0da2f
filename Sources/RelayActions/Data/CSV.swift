import Foundation
import RelayKit

/// Comma-separated values as RFC 4180 has them (Docs/Language.md, "CSV"): fields separated by a
/// comma (or another one-character separator), records by CR LF, LF or CR; a field in double
/// quotes may hold separators, line ends and doubled quotes (`""`). Read as the bytes come, so a
/// file of any shape costs one pass; anything that cannot be read is an error naming its line and
/// column.
package enum CSV {
    /// A CSV that cannot be read, with where.
    package struct ReadError: Error, Sendable, CustomStringConvertible {
        package let line: Int
        package let column: Int
        package let reason: String
        package var description: String { "line \(line), column \(column): \(reason)" }
    }

    /// The records of `text`, each a list of its fields. A byte-order mark at the start, blank lines
    /// and a line end after the last record are no part of them; an empty text has no record.
    package static func records(in text: String, separator: Unicode.Scalar = ",") throws(ReadError) -> [[String]] {
        try numberedRecords(in: text, separator: separator).map(\.fields)
    }

    /// The records of `text`, each with the line it starts on.
    package static func numberedRecords(
        in text: String, separator: Unicode.Scalar = ","
    ) throws(ReadError) -> [(line: Int, fields: [String])] {
        var records: [(line: Int, fields: [String])] = []
        try forEachRecord(in: text, separator: separator) { line, fields in
            records.append((line, fields))
            return true
        }
        return records
    }

    /// Gives `body` each record of `text` as it is read, with the line it starts on, until it
    /// returns false: a reader that keeps what it makes of each record, not the records too.
    package static func forEachRecord(
        in text: String, separator: Unicode.Scalar = ",", _ body: (_ line: Int, _ fields: [String]) -> Bool
    ) throws(ReadError) {
        var stopped = false
        var recordLine = 1
        enum State { case fieldStart, unquoted, quoted, quoteInQuoted }
        var state = State.fieldStart
        var record: [String] = []
        var field = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        var line = 1, column = 0
        /// Where the field now being read started, for an unclosed quote's error.
        var quoteLine = 0, quoteColumn = 0
        var previous: Unicode.Scalar?

        var fields = 0
        /// Whether another field is beyond `Limits.readValues`.
        var full = false
        func endField() {
            fields += 1
            if fields > Limits.readValues { full = true }
            record.append(String(field))
            field = String.UnicodeScalarView()
        }
        func endRecord() {
            endField()
            if !stopped, !body(recordLine, record) { stopped = true }
            record = []
        }
        /// Ends the field at a separator, or the record at a line end; false for anything else.
        func ends(at scalar: Unicode.Scalar, isLineEnd: Bool) -> Bool {
            if scalar == separator {
                endField()
            } else if isLineEnd {
                endRecord()
            } else {
                return false
            }
            state = .fieldStart
            return true
        }

        for scalar in scalars {
            if stopped { return }
            if full {
                throw ReadError(
                    line: line, column: column,
                    reason: "a CSV text may have at most \(Limits.readValues) fields; this one has more (split the file, or filter it with a program first)")
            }
            // CR LF is one line end: the LF after a CR that ended a line (outside quotes) is skipped.
            let isLineEnd = scalar == "\n" || scalar == "\r"
            defer {
                if isLineEnd {
                    if !(scalar == "\n" && previous == "\r") { line += 1 }
                    column = 0
                } else {
                    column += 1
                }
                previous = scalar
            }
            switch state {
            case .quoted:
                if scalar == "\"" {
                    state = .quoteInQuoted
                } else {
                    field.append(scalar)
                }
            case .quoteInQuoted:
                if scalar == "\"" {
                    field.append(scalar)
                    state = .quoted
                } else if !ends(at: scalar, isLineEnd: isLineEnd) {
                    throw ReadError(
                        line: line, column: column + 1,
                        reason: "'\(Character(scalar))' after a closing quote; a quoted field ends at its quote, and a quote inside it is written \"\"")
                }
            case .fieldStart, .unquoted:
                if state == .fieldStart, record.isEmpty {
                    if isLineEnd { continue }  // a blank line, or the LF of a CR LF that ended the last record: no record
                    recordLine = line
                }
                if scalar == "\"", state == .fieldStart {
                    state = .quoted
                    quoteLine = line
                    quoteColumn = column + 1
                } else if !ends(at: scalar, isLineEnd: isLineEnd) {
                    // A quote inside an unquoted field is kept as it is, as spreadsheets read it.
                    field.append(scalar)
                    state = .unquoted
                }
            }
        }
        switch state {
        case .quoted:
            throw ReadError(line: quoteLine, column: quoteColumn, reason: "the quote that starts this field is never closed")
        case .quoteInQuoted, .unquoted:
            endRecord()
        case .fieldStart:
            // A separator before the end ends the record with an empty field; a line end already ended it.
            if !record.isEmpty { endRecord() }
        }
    }

    /// `records` written as CSV: a field is quoted when it holds the separator, a quote, a line
    /// end, or starts or ends with a space; records end with CR LF.
    package static func text(of records: [[String]], separator: Unicode.Scalar = ",") -> String {
        var text = ""
        for record in records {
            // A record of one empty field is `""`: an empty line would be no record.
            text += record == [""] ? "\"\"" : record.map { quoted($0, separator: separator) }.joined(separator: String(Character(separator)))
            text += "\r\n"
        }
        return text
    }

    private static func quoted(_ field: String, separator: Unicode.Scalar) -> String {
        let needsQuotes =
            field.unicodeScalars.contains { $0 == separator || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || field.first == " " || field.last == " "
            // A byte-order mark at the start of a text is read as no part of it.
            || field.unicodeScalars.first == "\u{FEFF}"
        guard needsQuotes else { return field }
        // Quotes are doubled scalar by scalar: a mark after a quote joins it into one Character,
        // which a replacement of Characters would not see.
        var scalars = String.UnicodeScalarView()
        scalars.append("\"")
        for scalar in field.unicodeScalars {
            scalars.append(scalar)
            if scalar == "\"" { scalars.append("\"") }
        }
        scalars.append("\"")
        return String(scalars)
    }
}
