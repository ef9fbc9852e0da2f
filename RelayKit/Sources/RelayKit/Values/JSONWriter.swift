import Foundation

/// Writes values as JSON: compact, or pretty with two-space indents, `"key": value`
/// and keys in insertion order (Docs/Language.md, "Output and exit status").
public enum JSONWriter {
    /// The JSON text for `value`.
    public static func string(for value: Value, pretty: Bool) -> String {
        var output = ""
        write(value, into: &output, pretty: pretty, indent: 0)
        return output
    }

    private static func write(_ value: Value, into output: inout String, pretty: Bool, indent: Int) {
        switch value {
        case .nothing: output += "null"
        case .boolean(let flag): output += flag ? "true" : "false"
        case .number(let number):
            output += number.isFinite ? NumberFormatting.text(number) : "null"
        case .text(let text): writeString(text, into: &output)
        case .date, .url, .file, .richText: writeString(value.textValue, into: &output)
        case .list(let items):
            writeContainer(items, open: "[", close: "]", into: &output, pretty: pretty, indent: indent) {
                item, output in write(item, into: &output, pretty: pretty, indent: indent + 1)
            }
        case .entity(let entity):
            write(.dictionary(entity.dictionaryNow), into: &output, pretty: pretty, indent: indent)
        case .dictionary(let dictionary):
            writeContainer(
                Array(dictionary.elements), open: "{", close: "}", into: &output, pretty: pretty, indent: indent
            ) { entry, output in
                writeString(entry.key, into: &output)
                output += pretty ? ": " : ":"
                write(entry.value, into: &output, pretty: pretty, indent: indent + 1)
            }
        }
    }

    private static func writeContainer<Element>(
        _ elements: [Element], open: String, close: String, into output: inout String, pretty: Bool, indent: Int,
        writeElement: (Element, inout String) -> Void
    ) {
        output += open
        guard !elements.isEmpty else {
            output += close
            return
        }
        let innerPad = pretty ? "\n" + String(repeating: "  ", count: indent + 1) : ""
        for (index, element) in elements.enumerated() {
            if index > 0 { output += "," }
            output += innerPad
            writeElement(element, &output)
        }
        if pretty { output += "\n" + String(repeating: "  ", count: indent) }
        output += close
    }

    private static func writeString(_ text: String, into output: inout String) {
        // Most texts need no escapes: copied whole.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            output += "\""
            output += text
            output += "\""
            return
        }
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                output += "\\u" + String(format: "%04x", scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
