import Foundation
import RelayKit

/// `get-contents-of-url`: an HTTP request; the response as text, JSON as a value, or other content
/// as a file in the scratch folder (Docs/Actions.md).
struct GetContentsOfURL: Intent {
    static let shortcuts = [
        ShortcutsMapping("is.workflow.actions.url.getheaders", title: "Get Headers of URL", parameters: ["WFInput": "url"], fixed: ["method": "head"]),
        ShortcutsMapping(
            "is.workflow.actions.downloadurl", title: "Get Contents of URL",
            parameters: ["WFURL": "url", "WFHTTPMethod": "method", "WFHTTPHeaders": "headers", "WFJSONValues": "body"],
            values: ["WFHTTPMethod": ["GET": "get", "POST": "post", "PUT": "put", "PATCH": "patch", "DELETE": "delete", "HEAD": "head"]],
            defaults: ["WFHTTPBodyType": "JSON"], when: ["WFHTTPBodyType": ["JSON"]]),
        ShortcutsMapping(
            "is.workflow.actions.downloadurl", title: "Get Contents of URL",
            parameters: ["WFURL": "url", "WFHTTPMethod": "method", "WFHTTPHeaders": "headers", "WFFormValues": "body"],
            values: ["WFHTTPMethod": ["GET": "get", "POST": "post", "PUT": "put", "PATCH": "patch", "DELETE": "delete", "HEAD": "head"]],
            fixed: ["body-format": "form"], when: ["WFHTTPBodyType": ["Form"]]),
        ShortcutsMapping(
            "is.workflow.actions.downloadurl", title: "Get Contents of URL",
            parameters: ["WFURL": "url", "WFHTTPMethod": "method", "WFHTTPHeaders": "headers", "WFRequestVariable": "body"],
            values: ["WFHTTPMethod": ["GET": "get", "POST": "post", "PUT": "put", "PATCH": "patch", "DELETE": "delete", "HEAD": "head"]],
            when: ["WFHTTPBodyType": ["File"]]),
    ]
    static let name = "get-contents-of-url"
    static let summary = "Sends an HTTP request to the input URL. A JSON response becomes a dictionary (or list), text becomes text, anything else a file in the scratch folder; a status that is not 2xx is an error, unless fail-on-status is false: then the output is {status, headers, body}."
    static let examples = [
        IntentExample("- url: https://api.example.com/items\n- get-contents-of-url:\n    method: post\n    body: { name: Relay }"),
    ]
    static let output = OutputType.any

    @Parameter(primary: true, input: true, summary: "The URL.", access: .net) var url: URL
    @Parameter(summary: "The HTTP method; head asks for the headers alone, which are then the output (a dictionary).", choices: ["get", "post", "put", "patch", "delete", "head"])
    var method: String = "GET"
    @Parameter(summary: "Request headers: {Name: value}.") var headers: ValueDictionary?
    @Parameter(summary: "The request body: a dictionary or list (sent as JSON, or as a form with 'body-format: form', multipart when a value is a file), text, or a file.", access: .read)
    var body: Value?
    @Parameter(summary: "How a dictionary body is sent.", choices: ["json", "form"]) var bodyFormat: String = "json"
    @Parameter(summary: "Whether a status that is not 2xx fails the step; when false, the output is a dictionary of status, headers and body, whatever the status.")
    var failOnStatus: Bool = true

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw IntentError("get-contents-of-url takes an http or https URL, not '\(url.absoluteString)'")
        }
        let verb = method.uppercased()
        var lines = (headers ?? [:]).map { "\($0.key): \($0.value.textValue)" }
        let encoded = try body.map { try RequestBody.encode($0, format: bodyFormat.lowercased()) }
        if let encoded, let type = encoded.contentType,
            !lines.contains(where: { $0.lowercased().hasPrefix("content-type:") })
        {
            lines.append("Content-Type: \(type)")
        }
        let request = HTTPClient.Request(url: url, method: verb, headers: lines, body: encoded?.body)
        let spill = try scratchPath(".download-\(UUID().uuidString).part", in: context.scratchFolder)
        let transfer = HTTPClient.Transfer()
        let response = try await context.showingProgress({ transfer.display }) {
            try await HTTPClient.send(request, spillingTo: spill, transfer: transfer) { try await context.authorize($0) }
        }
        if !failOnStatus {
            var result = ValueDictionary()
            result["status"] = .number(Double(response.status))
            result["headers"] = .dictionary(response.headers)
            result["body"] = try ResponseValue.make(response, url: url, scratch: context.scratchFolder)
            return .value(.dictionary(result))
        }
        guard (200..<300).contains(response.status) else {
            let preview = ResponseValue.preview(response)
            if case .file(let path) = response.body { unlink(path) }
            throw IntentError(
                "\(verb) \(url.absoluteString) answered \(HTTPStatus.describe(response.status))" + (preview.isEmpty ? "" : ": \(preview)"),
                retryAfter: HTTPStatus.retryAfter(response))
        }
        if verb == "HEAD" { return .value(.dictionary(response.headers)) }
        return .value(try ResponseValue.make(response, url: url, scratch: context.scratchFolder))
    }
}

/// A header's value as a message shows it: printable ASCII only (a server chooses it), at most 100 characters.
private func shownHeader(_ value: String) -> String {
    let printable = value.unicodeScalars.prefix(100).map { (0x20..<0x7F).contains($0.value) ? Character($0) : "?" }
    return String(printable) + (value.unicodeScalars.count > 100 ? "…" : "")
}

/// A new path in the scratch folder, or the step's error.
private func scratchPath(_ name: String, in scratch: ScratchFolder) throws -> String {
    do {
        return try scratch.path(forNewFile: name)
    } catch {
        throw IntentError(error.message)
    }
}

/// A request body as bytes, with its content type.
enum RequestBody {
    static func encode(_ value: Value, format: String) throws -> (body: HTTPClient.Body, contentType: String?) {
        // A file is sent as it is read, however big.
        if case .file(let file) = value { return (.upload(file), file.contentType.mimeType) }
        let (data, contentType) = try encodeInMemory(value, format: format)
        return (.bytes(data), contentType)
    }

    private static func encodeInMemory(_ value: Value, format: String) throws -> (data: Data, contentType: String?) {
        switch value {
        case .dictionary(let entries) where format == "form" && entries.values.contains(where: { if case .file = $0 { true } else { false } }):
            return try multipart(entries)
        case .dictionary(let entries) where format == "form":
            let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
            let pairs = entries.map { key, value in
                let name = key.addingPercentEncoding(withAllowedCharacters: allowed) ?? key
                let text = value.textValue.addingPercentEncoding(withAllowedCharacters: allowed) ?? value.textValue
                return "\(name)=\(text)"
            }
            return (Data(pairs.joined(separator: "&").utf8), "application/x-www-form-urlencoded")
        case .dictionary, .list:
            return (Data(JSONWriter.string(for: value, pretty: false).utf8), "application/json")
        case .nothing:
            return (Data(), nil)
        default:
            return (Data(value.textValue.utf8), "text/plain; charset=utf-8")
        }
    }
}

extension RequestBody {
    /// A form with a file in it, as `multipart/form-data` (as a browser sends a form with a file
    /// field): each text a part, each file a part with its name and type. In memory, so at most
    /// `Limits.responseInMemory` bytes of files in all.
    static func multipart(_ entries: ValueDictionary) throws -> (data: Data, contentType: String?) {
        let boundary = "relay-" + UUID().uuidString
        var data = Data()
        // A name or file name in a header: quotes and line breaks percent-encoded, as HTML's forms do.
        func quoted(_ text: String) -> String {
            text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
        }
        var fileBytes = 0
        for (key, value) in entries {
            data.append(Data("--\(boundary)\r\n".utf8))
            if case .file(let file) = value {
                let bytes = try FileBytes.read(file, limit: Limits.responseInMemory, already: fileBytes) {
                    "a form's files may have \(ByteCount.text(Int64(Limits.responseInMemory))) in all; send a large file alone as the body"
                }
                fileBytes += bytes.count
                data.append(Data("Content-Disposition: form-data; name=\"\(quoted(key))\"; filename=\"\(quoted(file.name))\"\r\n".utf8))
                data.append(Data("Content-Type: \(file.contentType.mimeType ?? "application/octet-stream")\r\n\r\n".utf8))
                data.append(bytes)
            } else {
                data.append(Data("Content-Disposition: form-data; name=\"\(quoted(key))\"\r\n\r\n".utf8))
                data.append(Data(value.textValue.utf8))
            }
            data.append(Data("\r\n".utf8))
        }
        data.append(Data("--\(boundary)--\r\n".utf8))
        return (data, "multipart/form-data; boundary=\(boundary)")
    }
}

/// A response body as a workflow value: JSON as a value and text as text when it is in memory
/// (up to `Limits.responseInMemory`), anything else a file in the scratch folder.
enum ResponseValue {
    /// The start of a response's body for a message: an HTML page's text rather than its markup,
    /// white space run together, what is not printable shown as "?", at most 200 characters.
    static func preview(_ response: HTTPClient.Response) -> String {
        var text = String(decoding: response.body.prefix(4096), as: UTF8.self)
        if response.contentType?.lowercased().contains("html") == true, let page = try? HTMLReader.richText(from: text) {
            text = page.plainText
        }
        let words = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        let shown = String(String.UnicodeScalarView(words.unicodeScalars.map { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format ? "?" : $0 }))
        return Excerpt.start(of: shown, limit: 200)
    }

    static func make(_ response: HTTPClient.Response, url: URL, scratch: ScratchFolder) throws -> Value {
        let mime = response.contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let type = mime.flatMap(ContentType.init(mimeType:))
            ?? ContentType(fileExtension: url.pathExtension)
            ?? ContentSniffing.type(fileExtension: "", content: response.body.prefix(ContentSniffing.prefixLength))
        let fileExtension = type.preferredExtension ?? (url.pathExtension.isEmpty ? "data" : url.pathExtension)
        // The URL's last part, decoded, without its extension; the scratch folder makes it a plain file name.
        let last = (url.lastPathComponent as NSString).deletingPathExtension
        let base = last.isEmpty || last == "/" ? "download" : last
        let body: Data
        switch response.body {
        case .file(let spilled):
            let path = try scratchPath("\(base).\(fileExtension)", in: scratch)
            guard rename(spilled, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(spilled)
                throw IntentError("cannot keep the response from \(url.absoluteString) as '\(path)': \(reason)")
            }
            return .file(FileReference(path: path))
        case .upload(let file):
            return .file(file)  // a request's body: a response is never one
        case .bytes(let data):
            body = data
        }
        if type.conforms(to: .json) || mime?.hasSuffix("+json") == true {
            do {
                return try JSONReader.value(from: body)
            } catch {
                // Everything needed to tell whose fault it is: the server, its answer, and where the text goes wrong.
                throw IntentError(
                    "the response from \(url.absoluteString) (status \(HTTPStatus.describe(response.status)), "
                        + "\(response.contentType.map(shownHeader) ?? "no content type")) says it is JSON but is not: \(error)")
            }
        }
        if type.conforms(to: .text), !type.conforms(to: .html), !type.conforms(to: .rtf),
            let text = String(data: body, encoding: .utf8)
        {
            return .text(text)
        }
        let path = try scratchPath("\(base).\(fileExtension)", in: scratch)
        do {
            try body.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw IntentError("cannot write the response to '\(path)': \(error.localizedDescription)")
        }
        return .file(FileReference(path: path))
    }
}
