import Foundation
import RelayKit

/// Actions and conversions for data: JSON and CSV documents.
public enum DataActions: IntentPackage {
    public static let name = "data"
    public static let intents: [any Intent.Type] = [MakeJSON.self, ParseCSV.self, MakeCSV.self]
    public static var converters: [Converter] { DataConverters.all }
}

/// `make-json`: a value as JSON text.
struct MakeJSON: Intent {
    static let summary = "Writes the input (a dictionary, a list, any value) as JSON text: pretty, or on one line."
    static let examples = [
        IntentExample("- list: [{ name: Ada, age: 36 }]\n- make-json: compact", output: #"[{"name":"Ada","age":36}]"#),
    ]
    static let output = OutputType.text

    @Parameter(input: true, summary: "The value.") var value: Value
    @Parameter(primary: true, summary: "Indented over several lines, or all on one.", choices: ["pretty", "compact"])
    var style: String = "pretty"

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.text(try DataConverters.json(of: value, pretty: style.lowercased() != "compact")))
    }
}

/// `parse-csv`: CSV into a list.
struct ParseCSV: Intent {
    static let summary =
        "Reads CSV text or a CSV file into a list: of dictionaries keyed by the first row's names, or of lists without a header."
    static let examples = [
        IntentExample("- text: \"name,age\\nAda,36\\nAlan,41\"\n- parse-csv\n- get-item: last\n- get-value: name", output: "Alan"),
        IntentExample("- text: \"a;b\\n1;2\"\n- parse-csv: { header: false, separator: \";\" }\n- count", output: "2"),
    ]
    static let output = OutputType.list

    @Parameter(primary: true, input: true, summary: "The CSV text, or a CSV file.", access: .read) var csv: Value
    @Parameter(summary: "Whether the first row names the columns.") var header: Bool = true
    @Parameter(summary: "The one character between fields: a comma, ';', 'tab' …", check: DataConverters.separatorProblem)
    var separator: String = ","

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let text = try DataConverters.text(of: csv, kind: "CSV")
        return .value(try DataConverters.list(fromCSV: text, header: header, separator: try DataConverters.separator(separator)))
    }
}

/// `make-csv`: a list as CSV text.
struct MakeCSV: Intent {
    static let summary =
        "Writes a list of dictionaries (a column for each key, named in a first row) or of lists as CSV text, quoting where needed."
    static let examples = [
        IntentExample(
            "- list: [{ name: Ada, note: \"likes, commas\" }, { name: Alan }]\n- make-csv\n- split-text: newline\n- get-item: 2",
            output: #"Ada,"likes, commas""#),
    ]
    static let output = OutputType.text

    @Parameter(input: true, summary: "The rows: dictionaries, or lists of fields.") var rows: [Value]
    @Parameter(summary: "Whether a first row names the columns (for dictionaries).") var header: Bool = true
    @Parameter(summary: "The one character between fields: a comma, ';', 'tab' …", check: DataConverters.separatorProblem)
    var separator: String = ","

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        .value(.text(try DataConverters.csv(of: rows, header: header, separator: try DataConverters.separator(separator))))
    }
}

/// JSON and CSV: what the actions above and the converter graph share. A CSV file is read back
/// by `parse-csv`.
enum DataConverters {
    static let all: [Converter] = [
        Converter(from: .value(.dictionary), to: .file(.json), lossy: false) { value, context in
            try scratch(try json(of: value, pretty: true) + "\n", named: "Data.json", context)
        },
        Converter(from: .value(.list), to: .file(.json), lossy: false) { value, context in
            try scratch(try json(of: value, pretty: true) + "\n", named: "Data.json", context)
        },
        Converter(from: .file(.json), to: .value(.dictionary), lossy: false) { value, _ in
            let parsed: Value
            do {
                // The file's bytes are read as they are: no text is made of them first.
                parsed = try JSONReader.value(from: try bytes(of: value, kind: "JSON"))
            } catch let error as JSONReadError {
                throw IntentError("cannot read the JSON: \(error)")
            }
            guard case .dictionary = parsed else { throw IntentError("the JSON file holds \(parsed.type.withArticle), not a dictionary") }
            return parsed
        },
        Converter(from: .value(.list), to: .file(.csv), lossy: true) { value, context in
            try scratch(try csv(of: try value.coerced(to: .list).asList, header: true, separator: ","), named: "Data.csv", context)
        },
    ]

    /// The most bytes of a JSON or CSV file read whole into a value: 256 MiB.
    static let largestDocument = 256 << 20

    /// `value` as JSON; NaN and infinities have no JSON form.
    static func json(of value: Value, pretty: Bool) throws -> String {
        if let number = firstNonFiniteNumber(in: value) {
            throw IntentError("JSON has no way to write \(NumberFormatting.text(number))")
        }
        return JSONWriter.string(for: value, pretty: pretty)
    }

    private static func firstNonFiniteNumber(in value: Value) -> Double? {
        switch value {
        case .number(let number): number.isFinite ? nil : number
        case .list(let items): items.lazy.compactMap(firstNonFiniteNumber).first
        case .dictionary(let entries): entries.values.lazy.compactMap(firstNonFiniteNumber).first
        default: nil
        }
    }

    /// The text of a value: a file's bytes as UTF-8 (at most `largestDocument`), else its text.
    static func text(of value: Value, kind: String) throws -> String {
        guard case .file(let file) = value.oneValue else { return value.textValue }
        let bytes = try bytes(of: value, kind: kind)
        if let offset = UTF8Validation.firstInvalidByte(in: bytes) {
            throw IntentError("'\(file.name)' is not UTF-8 text: byte \(offset) is not")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The bytes of `value`, a file of `kind` read whole (at most `largestDocument`), or a text's.
    static func bytes(of value: Value, kind: String) throws -> Data {
        guard case .file(let file) = value.oneValue else { return Data(value.textValue.utf8) }
        let size = (try? file.attributes()[.size] as? NSNumber)?.intValue ?? 0
        guard size <= largestDocument else {
            throw IntentError("'\(file.name)' is \(ByteCount.text(Int64(size))); a \(kind) file is read whole, and may be at most \(ByteCount.text(Int64(largestDocument), binary: true))")
        }
        do {
            return try file.contents()
        } catch {
            throw IntentError(error.message)
        }
    }

    /// The separator a parameter names: one character, or `tab`.
    static func separator(_ text: String) throws -> Unicode.Scalar {
        if let problem = separatorProblem(text) { throw IntentError("'separator' \(problem)") }
        return text.lowercased() == "tab" ? "\t" : text.unicodeScalars.first ?? ","
    }

    @Sendable static func separatorProblem(_ text: String) -> String? {
        if text.lowercased() == "tab" { return nil }
        guard text.unicodeScalars.count == 1, let scalar = text.unicodeScalars.first else {
            return "is one character (or 'tab'), not '\(Excerpt.start(of: text, limit: 20))'"
        }
        guard scalar != "\"", scalar != "\n", scalar != "\r" else { return "cannot be a quote or a line end" }
        return nil
    }

    /// The rows of CSV `text`: dictionaries keyed by the first record's names, or lists of fields.
    /// Each row is made as its record is read; every row's dictionary shares the header's keys.
    static func list(fromCSV text: String, header: Bool, separator: Unicode.Scalar) throws -> Value {
        var rows: [Value] = []
        var template: ValueDictionary?
        var problem: String?
        do {
            try CSV.forEachRecord(in: text, separator: separator) { line, fields in
                guard header else {
                    rows.append(.list(fields.map(Value.text)))
                    return true
                }
                guard var row = template else {
                    for (index, name) in fields.enumerated() {
                        if let first = fields[..<index].firstIndex(of: name) {
                            problem = "column \(index + 1) of the header is named '\(Excerpt.start(of: name, limit: 60))', as column \(first + 1) is; each column needs a name of its own"
                            return false
                        }
                    }
                    template = ValueDictionary(uniqueKeys: fields, values: repeatElement(Value.nothing, count: fields.count))
                    return true
                }
                guard fields.count == row.count else {
                    problem = "the record on line \(line) has \(fields.count) field\(fields.count == 1 ? "" : "s"), and the header \(row.count); give every record as many, or read it with header: false"
                    return false
                }
                for (index, field) in fields.enumerated() { row.values[index] = .text(field) }
                rows.append(.dictionary(row))
                return true
            }
        } catch {
            throw IntentError("cannot read the CSV at \(error)")
        }
        if let problem { throw IntentError(problem) }
        return .list(rows)
    }

    /// `rows` as CSV: dictionaries with a column for each key (in the order first seen, named in
    /// a first row when `header`), or lists of fields.
    static func csv(of rows: [Value], header: Bool, separator: Unicode.Scalar) throws -> String {
        let dictionaries = rows.compactMap { row -> ValueDictionary? in
            if case .dictionary(let entries) = row { return entries }
            return nil
        }
        if dictionaries.count == rows.count, !rows.isEmpty {
            var names: [String] = []
            var known = Set<String>()
            for row in dictionaries { for key in row.keys where known.insert(key).inserted { names.append(key) } }
            let records = dictionaries.map { row in names.map { row[$0].map(field) ?? "" } }
            return CSV.text(of: (header ? [names] : []) + records, separator: separator)
        }
        let records = try rows.enumerated().map { index, row -> [String] in
            switch row {
            case .list(let fields): return fields.map(field)
            case .dictionary: throw IntentError("row \(index + 1) is a dictionary and others are not; give all dictionaries or all lists")
            default: return [field(row)]
            }
        }
        return CSV.text(of: records, separator: separator)
    }

    /// A field's text: a list or dictionary inside a row as JSON.
    private static func field(_ value: Value) -> String {
        switch value {
        case .list, .dictionary: JSONWriter.string(for: value, pretty: false)
        case .nothing: ""
        default: value.textValue
        }
    }

    private static func scratch(_ text: String, named name: String, _ context: any IntentContext) throws -> Value {
        let path = try context.scratchFolder.path(forNewFile: name)
        try AtomicFile.write(Data(text.utf8), to: path)
        return .file(FileReference(path: path))
    }
}
