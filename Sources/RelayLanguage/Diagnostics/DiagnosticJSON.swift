import RelayKit

extension Diagnostic {
    /// The diagnostic as `relay check --format json` prints it: `file`, `line`, `column`, `severity`, `message`.
    public var jsonValue: Value {
        var entry = ValueDictionary()
        entry["file"] = range.map { .text($0.file.path) } ?? .nothing
        entry["line"] = range.map { .number(Double($0.start.line)) } ?? .nothing
        entry["column"] = range.map { .number(Double($0.start.column)) } ?? .nothing
        entry["severity"] = .text(severity.rawValue)
        entry["message"] = .text(message)
        if !notes.isEmpty { entry["notes"] = .list(notes.map { .text($0) }) }
        return .dictionary(entry)
    }
}
