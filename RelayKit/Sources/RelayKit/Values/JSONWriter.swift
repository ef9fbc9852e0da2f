import Foundation

/// Writes values as JSON: compact, or pretty with two-space indents, `"key": value`
/// and keys in insertion order (Docs/Language.md, "Output and exit status").
///
/// It writes UTF-8 bytes into one growing buffer, which the text is made of once at the end:
/// a package's answer of a thousand entities is a hundred thousand pieces.
public enum JSONWriter {
    /// The JSON text for `value`.
    public static func string(for value: Value, pretty: Bool) -> String {
        String(decoding: bytes(for: value, pretty: pretty), as: UTF8.self)
    }

    /// The JSON text for `value` as UTF-8, followed by `terminator`'s bytes.
    public static func bytes(for value: Value, pretty: Bool, terminator: UInt8? = nil) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, into: &output, pretty: pretty, indent: 0)
        if let terminator { output.append(terminator) }
        return output
    }

    private static func write(_ value: Value, into output: inout [UInt8], pretty: Bool, indent: Int) {
        switch value {
        case .nothing: append("null", to: &output)
        case .boolean(let flag): append(flag ? "true" : "false", to: &output)
        case .number(let number):
            if number.isFinite { output.append(contentsOf: NumberFormatting.text(number).utf8) } else { append("null", to: &output) }
        case .text(let text): writeString(text, into: &output)
        case .date, .url, .file, .richText: writeString(value.textValue, into: &output)
        case .list(let items):
            output.append(UInt8(ascii: "["))
            guard !items.isEmpty else { return output.append(UInt8(ascii: "]")) }
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                if pretty { newLine(indent + 1, into: &output) }
                write(item, into: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { newLine(indent, into: &output) }
            output.append(UInt8(ascii: "]"))
        case .entity(let entity):
            write(.dictionary(entity.dictionaryNow), into: &output, pretty: pretty, indent: indent)
        case .dictionary(let dictionary):
            output.append(UInt8(ascii: "{"))
            guard !dictionary.isEmpty else { return output.append(UInt8(ascii: "}")) }
            var first = true
            for (key, item) in dictionary {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                if pretty { newLine(indent + 1, into: &output) }
                writeString(key, into: &output)
                output.append(UInt8(ascii: ":"))
                if pretty { output.append(UInt8(ascii: " ")) }
                write(item, into: &output, pretty: pretty, indent: indent + 1)
            }
            if pretty { newLine(indent, into: &output) }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func append(_ text: StaticString, to output: inout [UInt8]) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    /// A line break, then two spaces for each level of `indent`.
    private static func newLine(_ indent: Int, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    private static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most texts need no escapes: copied whole.
        var text = text
        let plain = text.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if !plain {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": append("\\\"", to: &output)
                case "\\": append("\\\\", to: &output)
                case "\n": append("\\n", to: &output)
                case "\r": append("\\r", to: &output)
                case "\t": append("\\t", to: &output)
                case _ where scalar.value < 0x20: output.append(contentsOf: ("\\u" + String(format: "%04x", scalar.value)).utf8)
                default: UTF8.encode(scalar) { output.append($0) }
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
