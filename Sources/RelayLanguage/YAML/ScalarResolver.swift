import RelayKit
/// What a scalar means under YAML 1.2's core schema.
public enum ResolvedScalar: Sendable, Equatable {
    case null
    case boolean(Bool)
    case number(Double)
    case text(String)
}

/// Resolves scalars by YAML 1.2 core-schema rules, respecting quotes and explicit tags:
/// `5` is a number, `"5"` is text, `no` is text (unlike YAML 1.1), `~` and empty are null.
public enum ScalarResolver {
    public static func resolve(_ node: YAMLNode) -> ResolvedScalar {
        guard case .scalar(let text, let style) = node.kind else { return .null }
        switch node.tag {
        case "tag:yaml.org,2002:str", "!": return .text(text)
        case "tag:yaml.org,2002:null": return .null
        case "tag:yaml.org,2002:bool":
            if case .boolean(let flag) = resolvePlain(text) { return .boolean(flag) }
            return .text(text)
        case "tag:yaml.org,2002:int", "tag:yaml.org,2002:float":
            if case .number(let number) = resolvePlain(text) { return .number(number) }
            return .text(text)
        default: break
        }
        return style.isQuotedOrBlock ? .text(text) : resolvePlain(text)
    }

    /// Resolves a plain (unquoted, untagged) scalar.
    public static func resolvePlain(_ text: String) -> ResolvedScalar {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .boolean(true)
        case "false", "False", "FALSE": return .boolean(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .number(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .number(-.infinity)
        case ".nan", ".NaN", ".NAN": return .number(.nan)
        default: break
        }
        guard let first = text.utf8.first, "+-.0123456789".utf8.contains(first) else { return .text(text) }
        if text.hasPrefix("0x"), let value = Int(text.dropFirst(2), radix: 16) { return .number(Double(value)) }
        if text.hasPrefix("0o"), let value = Int(text.dropFirst(2), radix: 8) { return .number(Double(value)) }
        if isCoreNumber(text), let value = Double(text) { return .number(value) }
        return .text(text)
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
    private static func isCoreNumber(_ text: String) -> Bool {
        var scanner = ByteScanner(bytes: Array(text.utf8))
        _ = scanner.skip("+") || scanner.skip("-")
        let integerDigits = scanner.skipDigits()
        var fractionDigits = 0
        if scanner.skip(".") { fractionDigits = scanner.skipDigits() }
        guard integerDigits > 0 || fractionDigits > 0 else { return false }
        if scanner.skip("e") || scanner.skip("E") {
            _ = scanner.skip("+") || scanner.skip("-")
            guard scanner.skipDigits() > 0 else { return false }
        }
        return scanner.atEnd
    }
}
