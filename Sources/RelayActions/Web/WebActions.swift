import Foundation
import RelayKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Actions on URLs and encodings.
public enum WebActions: IntentPackage {
    public static let name = "web"
    public static let intents: [any Intent.Type] = [
        MakeURL.self, URLEncode.self, URLDecode.self, Base64Encode.self, Base64Decode.self, OpenURL.self,
        GetContentsOfURL.self, ExpandURL.self, GetRSSItems.self, GetRSSFeeds.self, GetImages.self,
    ]
}

/// `url`: a URL from text.
struct MakeURL: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.url", title: "URL", parameters: ["WFURLActionURL": "url"]),
    ]
    static let name = "url"
    static let summary = "Outputs a URL; the text must be an absolute URL with a scheme, like https://example.com."
    static let examples = [
        IntentExample("- url: https://example.com/search?q=relay\n- get-details: host", output: "example.com"),
        IntentExample("- url: \"https://ada@example.com:8443/a?q=a%20b\"\n- get-details: port", output: "8443"),
    ]
    static let output = OutputType.url

    @Parameter(primary: true, summary: "The URL.") var url: URL

    func perform(_ context: any IntentContext) async throws -> IntentResult { .value(.url(url)) }
}

/// `url-encode`: percent-encodes text.
struct URLEncode: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.urlencode", title: "URL Encode", parameters: ["WFInput": "input"], defaults: ["WFEncodeMode": "Encode"],
            when: ["WFEncodeMode": ["Encode"]]),
    ]
    static let name = "url-encode"
    static let summary = "Percent-encodes the input for use in a URL (everything but letters, digits and -._~)."
    static let examples = [
        IntentExample("- text: \"a b&c\"\n- url-encode", output: "a%20b%26c"),
    ]
    static let output = OutputType.text

    @Parameter(primary: true, input: true, summary: "The text.") var text: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return .value(.text(text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text))
    }
}

/// `url-decode`: decodes percent-encoded text.
struct URLDecode: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.urlencode", title: "URL Encode", parameters: ["WFInput": "input"], when: ["WFEncodeMode": ["Decode"]]),
    ]
    static let name = "url-decode"
    static let summary = "Decodes percent-encoded text (and + as a space)."
    static let examples = [
        IntentExample("- text: a%20b%26c\n- url-decode", output: "a b&c"),
    ]
    static let output = OutputType.text

    @Parameter(primary: true, input: true, summary: "The text.") var text: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard let decoded = text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
            throw IntentError("'\(text)' is not valid percent-encoded text")
        }
        return .value(.text(decoded))
    }
}

/// `base64-encode`: Base64 of the text's UTF-8 bytes.
struct Base64Encode: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.base64encode", title: "Base64 Encode", parameters: ["WFInput": "input", "input": "input"],
            defaults: ["WFEncodeMode": "Encode"], when: ["WFEncodeMode": ["Encode"]]),
    ]
    static let name = "base64-encode"
    static let summary = "Encodes the input as Base64: a text's UTF-8 bytes, or a file's bytes (an image, a PDF …)."
    static let examples = [
        IntentExample("- text: Relay\n- base64-encode", output: "UmVsYXk="),
        IntentExample("- read-file: ~/Pictures/logo.png\n- base64-encode"),
    ]
    static let output = OutputType.text

    @Parameter(primary: true, input: true, summary: "A text, or a file (at most 192 MiB: its Base64 is a text a run holds).", access: .read)
    var value: Value

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        switch value {
        case .file(let file):
            // Base64 is 4 bytes for 3: the text must stay within the largest a run holds.
            let limit = Limits.textBytes / 4 * 3
            let data = try await BlockingWork.run { stop in
                try FileBytes.read(file, limit: limit, stop: stop) {
                    "'\(file.path)' is over \(ByteCount.text(Int64(limit))), whose Base64 would pass the largest text a run holds (Docs/Reliability.md)"
                }
            }
            return .value(.text(data.base64EncodedString()))
        case .list, .dictionary, .entity:
            throw IntentError("base64-encode takes a text or a file, not \(value.type.withArticle)")
        default:
            return .value(.text(Data(value.textValue.utf8).base64EncodedString()))
        }
    }
}

/// `base64-decode`: text from Base64.
struct Base64Decode: Intent {
    static let shortcuts = [
        ShortcutsMapping(
            "is.workflow.actions.base64encode", title: "Base64 Encode", parameters: ["WFInput": "input", "input": "input"],
            when: ["WFEncodeMode": ["Decode"]]),
    ]
    static let name = "base64-decode"
    static let summary =
        "Decodes Base64: into text when the bytes are UTF-8 text, else into a file in the run's scratch folder, named by what its bytes are (decoded.png)."
    static let examples = [
        IntentExample("- text: UmVsYXk=\n- base64-decode", output: "Relay"),
        IntentExample("- text: iVBORw0KGgoAAAANSUhEUg==\n- base64-decode\n- get-details: name", output: "decoded.png"),
    ]
    static let output = OutputType.any

    @Parameter(primary: true, input: true, summary: "The Base64 text.") var text: String

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        var cleaned = text.filter { !$0.isWhitespace }
        cleaned = cleaned.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while cleaned.count % 4 != 0 { cleaned += "=" }
        guard let data = Data(base64Encoded: cleaned) else { throw IntentError("the input is not Base64") }
        if !data.contains(0), let decoded = String(data: data, encoding: .utf8) { return .value(.text(decoded)) }
        // Bytes that are not text are a file, its type told by its first bytes.
        let type = ContentSniffing.type(ofContent: data.prefix(ContentSniffing.prefixLength)) ?? .data
        let name = "decoded" + (type.preferredExtension.map { "." + $0 } ?? "")
        do {
            let path = try context.scratchFolder.path(forNewFile: name)
            try AtomicFile.write(data, to: path)
            return .value(.file(FileReference(path: path)))
        } catch {
            throw IntentError(error.message)
        }
    }
}
