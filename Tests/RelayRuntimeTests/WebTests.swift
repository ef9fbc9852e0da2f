import Foundation
import RelayKit
import RelayEngine
import Testing

@testable import RelayActions
@testable import RelayRuntime

/// The local server of `Fixtures/http_server.py`, started once for the suite; it ends when the
/// test process does (it holds the server's standard input open).
final class LocalServer: @unchecked Sendable {
    private static let shared = LocalServer()

    /// The server's address; the first call starts it, on a thread of its own.
    static func base() async -> String {
        (try? await BlockingWork.run { _ in shared.base }) ?? "http://127.0.0.1:0"
    }
    private let process = Process()
    private let input = Pipe()
    let base: String

    private init() {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/http_server.py")
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        process.standardOutput = pipe
        process.standardInput = input
        var port = "0"
        if (try? process.run()) != nil {
            var line = Data()
            while let byte = try? pipe.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 { line.append(first) }
            port = String(decoding: line, as: UTF8.self)
        }
        base = "http://127.0.0.1:\(port)"
    }
}

@Suite("get-contents-of-url against a local server")
struct WebTests {
    /// The local server's host, the only one these runs may connect to (`example.com` is refused
    /// for its scheme before any connection).
    private static let granted: [Capability: GrantScope] = [.net: .only(["127.0.0.1", "example.com"])]

    private func fetch(_ yaml: String) async throws -> Value { try await run(yaml, granted: Self.granted) }
    private func fetchFailure(_ yaml: String) async -> RuntimeError? { await failure(yaml, granted: Self.granted) }

    @Test("a response that says it is JSON but is not names the URL, status, content type, place and text; lone surrogates read as U+FFFD")
    func invalidJSON() async throws {
        let base = await LocalServer.base()
        let error = try #require(await fetchFailure("- url: \(base)/badjson\n- get-contents-of-url"))
        #expect(
            error.message
                == "the response from \(base)/badjson (status 200, application/json) says it is JSON but is not: "
                + "expected ',' or '}' after a member, found 'x' at line 3, column 11 (offset 29), near `  \"age\": 3x`")
        #expect(try await fetch("- url: \(base)/surrogates\n- get-contents-of-url") == ["\u{FFFD}\u{1234}", "\u{FFFD}\u{FFFD}\n"])
    }

    @Test("JSON becomes a dictionary, text stays text, other content becomes a file by its type")
    func responses() async throws {
        let base = await LocalServer.base()
        let json = try await fetch("- url: \(base)/json\n- get-contents-of-url")
        #expect(try json.property("name") == "Ridge Loop")
        #expect(try json.property("distance") == 4.2)
        #expect(try await fetch("- url: \(base)/text\n- get-contents-of-url") == "café\n")
        let png = try await fetch("- url: \(base)/png\n- get-contents-of-url")
        guard case .file(let file) = png else { Issue.record("not a file: \(png)"); return }
        #expect(file.name == "png.png")
        #expect(try png.property("width") == 2)
        let html = try await fetch("- url: \(base)/html\n- get-contents-of-url\n- get-text")
        #expect(html.textValue.contains("Hi"))
    }

    @Test("a file named by its URL stays in the scratch folder, whatever the URL's last part says")
    func namedByURL() async throws {
        let base = await LocalServer.base()
        for (path, name) in [
            ("..%2F..%2Fescaped", "_.._escaped.html"), ("%2E%2E", "file.html"), ("a%2Fb%00c", "a_b_c.html"),
            (String(repeating: "x", count: 300), String(repeating: "x", count: 195) + ".html"),
        ] {
            let value = try await fetch("- url: \(base)/named/\(path)\n- get-contents-of-url")
            guard case .file(let file) = value else { Issue.record("not a file: \(value)"); continue }
            #expect(file.name == name)
            let folder = URL(fileURLWithPath: file.path).deletingLastPathComponent().path
            #expect(folder.contains("/relay-scratch-\(getuid())/run-") && !folder.hasSuffix(".."), "\(file.path)")
        }
    }

    @Test("methods, headers and JSON or form bodies are sent")
    func requests() async throws {
        let base = await LocalServer.base()
        let posted = try await fetch(
            """
            - url: \(base)/echo
            - get-contents-of-url:
                method: POST
                headers: { X-Token: abc }
                body: { name: Ridge Loop, km: 4.2 }
            """)
        #expect(try posted.property("method") == "POST")
        #expect(try posted.property("x-token") == "abc")
        #expect(try posted.property("content-type") == "application/json")
        #expect(try posted.property("body") == #"{"name":"Ridge Loop","km":4.2}"#)
        let form = try await fetch(
            "- url: \(base)/echo\n- get-contents-of-url:\n    method: put\n    body: { q: a&b c }\n    body-format: form")
        #expect(try form.property("method") == "PUT")
        #expect(try form.property("body") == "q=a%26b%20c")
        #expect(try await fetch("- url: \(base)/echo\n- get-contents-of-url: { method: DELETE }").property("method") == "DELETE")
        // A form with a file in it goes as multipart/form-data.
        let upload = FileManager.default.temporaryDirectory.appendingPathComponent("form-\(UUID().uuidString).txt")
        try "hello \"file\"".write(to: upload, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: upload) }
        let multipart = try await run(
            "- read-file: \(upload.path)\n  as: doc\n- url: \(base)/echo\n- get-contents-of-url:\n    method: post\n    body: { note: hi, doc: \"${doc}\" }\n    body-format: form",
            granted: Self.granted.merging([.read: .only([upload.path])]) { $1 })
        let type = try multipart.property("content-type").textValue
        #expect(type.hasPrefix("multipart/form-data; boundary=relay-"), "\(type)")
        let sent = try multipart.property("body").textValue
        #expect(sent.contains("Content-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n"), "\(sent)")
        #expect(sent.contains("name=\"doc\"; filename=\"\(upload.lastPathComponent)\"\r\nContent-Type: text/plain\r\n\r\nhello \"file\"\r\n"), "\(sent)")
        // Feeds: RSS and Atom items, the first ones asked for; a declared entity is not expanded.
        let rss = try await fetch("- url: \(base)/rss\n- get-rss-items: 2")
        #expect(rss.asList.count == 2)
        #expect(try rss.asList[0].property("title") == "Ridge Loop")
        #expect(try rss.asList[0].property("link") == .url(try #require(URL(string: "https://example.com/ridge"))))
        #expect(try rss.asList[0].property("published") == "Tue, 24 Nov 2026 09:30:00 GMT")
        #expect(try rss.asList[0].property("summary") == "<p>4.2 km</p>")
        #expect(try rss.asList[1].property("title") == "Lake & Back")
        #expect(try rss.asList[1].property("published") == "2026-11-20")
        let atom = try await fetch("- url: \(base)/atom\n- get-rss-items")
        #expect(atom.asList.count == 1)
        #expect(try atom.asList[0].property("title") == "First")
        #expect(try atom.asList[0].property("link") == .url(try #require(URL(string: "https://example.com/first"))))
        #expect(try atom.asList[0].property("published") == "2026-11-24T09:30:00Z")
        // A page's feeds, made absolute against the page; a feed's own URL is its one feed.
        #expect(try await fetch("- url: \(base)/gallery\n- get-rss-feeds") == .list([.url(try #require(URL(string: "\(base)/rss"))), .url(try #require(URL(string: "\(base)/atom")))]))
        #expect(try await fetch("- url: \(base)/rss\n- get-rss-feeds") == .list([.url(try #require(URL(string: "\(base)/rss")))]))
        #expect(try await fetch("- url: \(base)/html\n- get-rss-feeds") == .list([]))
        // A page's images, each once, relative to its <base>, a data: URL's too, fetched as files.
        let images = try await fetch("- url: \(base)/gallery\n- get-images")
        #expect(images.asList.count == 2, "\(images)")
        for image in images.asList {
            guard case .file(let file) = image else { Issue.record("not a file: \(image)"); continue }
            #expect(file.contentType.conforms(to: .png) && FileManager.default.contents(atPath: file.path)?.count == 75, "\(file.path)")
        }
        #expect(try await fetch("- url: \(base)/gallery\n- get-images: { limit: 1 }").asList.count == 1)
        #expect(try await fetch("- url: \(base)/png\n- get-images").asList.count == 1)
        // An image longer than a response kept in memory stays the file it arrived in.
        let big = try await fetch("- text: \"<img src='\(base)/big.png'>\"\n- get-images")
        guard case .file(let bigFile)? = big.asList.first else { Issue.record("not a file: \(big)"); return }
        #expect((try? FileManager.default.attributesOfItem(atPath: bigFile.path)[.size] as? Int) == 75 + (20 << 20))
        #expect(try await fetch("- text: \"<p><img src='\(base)/png'></p>\"\n- get-images").asList.count == 1)
        #expect(try await fetch("- text: \"![a trail](\(base)/png)\"\n- rich-text-from-markdown\n- get-images").asList.count == 1)
        // An image on a host not granted is asked for, as any request is, and refused.
        let foreign = await fetchFailure("- url: \(base)/gallery?foreign\n- get-images")
        #expect(foreign?.message.contains("localhost") == true, "\(String(describing: foreign))")
        // HEAD: the headers alone are the output; no body is waited for.
        let head = try await fetch("- url: \(base)/echo\n- get-contents-of-url: { method: head }")
        #expect(try head.property("x-method") == "HEAD", "\(head)")
        #expect(try head.property("content-length") == "1000")
        // expand-url: where the redirects end, each hop asked for.
        let target = "\(base)/echo?x=1"
        let expanded = try await fetch("- url: \(base)/redirect/301?to=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")\n- expand-url")
        #expect(expanded == .url(try #require(URL(string: target))), "\(expanded)")
    }

    @Test("a status that is not 2xx is an error showing it and the start of the body; so is a timeout")
    func failures() async throws {
        let base = await LocalServer.base()
        let notFound = await fetchFailure("- url: \(base)/status/404\n- get-contents-of-url")
        #expect(notFound?.message == "GET \(base)/status/404 answered 404 Not Found: no such trail here")
        // The step's own timeout: is the only limit on the whole exchange.
        let slow = await fetchFailure("- url: \(base)/slow\n- get-contents-of-url:\n  timeout: 0.5")
        #expect(slow?.message.contains("timed out after 0.5 seconds") == true, "\(slow?.message ?? "")")
        let closed = await fetchFailure("- url: http://127.0.0.1:9/\n- get-contents-of-url:\n  timeout: 5")
        #expect(closed?.message.contains("failed:") == true, "\(closed?.message ?? "")")
        let scheme = await fetchFailure("- url: ftp://example.com/x\n- get-contents-of-url")
        #expect(scheme?.message.contains("takes an http or https URL") == true)
    }

    @Test("a server that sends nothing for the stall limit fails the request, with libcurl's reason")
    func stalled() async throws {
        let base = await LocalServer.base()
        var request = HTTPClient.Request(url: try #require(URL(string: base + "/slow")), method: "GET", headers: [], body: nil)
        request.stallSeconds = 1
        // The server answers after 3 s: an answer means the stall limit did not act.
        do {
            let response = try await HTTPClient.send(request, spillingTo: NSTemporaryDirectory() + "relay-stall-\(UUID().uuidString)") { _ in }
            Issue.record("a stalled response was waited for: \(response.status)")
        } catch {
            #expect("\(error)".contains("too slow") || "\(error)".contains("Timeout"), "\(error)")
        }
    }

    @Test("an error page is shown as a short line of its text; with fail-on-status false, status, headers and body are the output")
    func statusAndHeaders() async throws {
        let base = await LocalServer.base()
        let gone = try #require(await fetchFailure("- url: \(base)/gone-page\n- get-contents-of-url"))
        #expect(gone.message.hasPrefix("GET \(base)/gone-page answered 410 Gone: "), "\(gone.message)")
        #expect(gone.message.contains("The trail moved. x x") && !gone.message.contains("<"), "\(gone.message)")
        #expect(gone.message.hasSuffix("…") && gone.message.count < 300, "\(gone.message)")
        let answer = try await fetch("- url: \(base)/gone-page\n- get-contents-of-url: { fail-on-status: false }")
        #expect(try answer.property("status") == .number(410))
        let headers = try answer.property("headers")
        #expect(try headers.property("x-trail") == "ridge, loop")
        #expect(try headers.property("content-type") == "text/html")
        guard case .file(let page) = try answer.property("body") else {
            Issue.record("the HTML body is not a file: \(answer)")
            return
        }
        #expect(try String(decoding: page.contents(), as: UTF8.self).hasPrefix("<html>"))
        let ok = try await fetch("- url: \(base)/text\n- get-contents-of-url: { fail-on-status: false }\n- get-value: body")
        #expect(ok == "caf\u{E9}\n")
    }

    /// The port of the local server, for URLs written another way.
    private static func port(_ base: String) -> String { String(base.split(separator: ":").last ?? "0") }

    @Test("get-images leaves out, with a warning, an image it cannot have and one relative to no page; HTML nested too deep is an error")
    func imagesLeftOut() async throws {
        let base = await LocalServer.base()
        let output = CollectedOutput()
        let html = "<img src='\(base)/status/404'><img src='\(base)/logo.svg'><img src='data:image/png;base64,'><img src='photo.png'><img src='\(base)/png'>"
        let images = try await run("- text: \"\(html)\"\n- get-images", output: output, granted: Self.granted)
        let names = images.asList.map { value -> String in if case .file(let file) = value { file.name } else { "\(value)" } }
        #expect(names == ["logo.svg", "png.png"], "\(names)")
        #expect(output.traces.contains { $0.contains("warning: get-images: 2 images left out (GET \(base)/status/404 answered 404 Not Found, …)") }, "\(output.traces)")
        #expect(output.traces.contains { $0.contains("1 image written relative to a page (src=\"photo.png\") left out") }, "\(output.traces)")
        let deep = String(repeating: "<div>", count: 300) + "<img src='\(base)/png'>"
        let tooDeep = await fetchFailure("- text: \"\(deep)\"\n- get-images")
        #expect(tooDeep?.message.contains("more than 256 levels deep") == true, "\(String(describing: tooDeep))")
        let markdown = FileManager.default.temporaryDirectory.appendingPathComponent("images-\(UUID().uuidString).md")
        try "![a](\(base)/png)".write(to: markdown, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: markdown) }
        let wrongFile = await failure("- get-images", input: .file(FileReference(path: markdown.path)), granted: Self.granted.merging([.read: .only([markdown.path])]) { $1 })
        #expect(wrongFile?.message.contains("is Markdown (rich-text-from-markdown reads it") == true, "\(String(describing: wrongFile))")
    }

    @Test("a URL whose host cannot be named is refused before anything is sent, even with nothing else granted")
    func urlNamingNoHost() async throws {
        let base = await LocalServer.base()
        let port = Self.port(base)
        for url in ["http:/127.0.0.1:\(port)/echo", "http:127.0.0.1:\(port)/echo", "http:///127.0.0.1:\(port)/echo"] {
            let error = await failure(
                "- url: \"\(url)\"\n- get-contents-of-url: { method: POST, body: secret }", granted: [.read: .everywhere])
            #expect(error?.message == Access.namesNoHost(url), "\(url)")
        }
    }

    @Test("every redirect is a new connection through the gate: a hop to a host not granted is refused, and the body is not sent there")
    func redirectsAskTheGate() async throws {
        let base = await LocalServer.base()
        let port = Self.port(base)
        let elsewhere = "http://localhost:\(port)/echo"
        for code in [302, 307, 308] {
            let error = await failure(
                "- url: \(base)/redirect/\(code)?to=\(elsewhere)\n- get-contents-of-url: { method: POST, body: secret }",
                granted: [.net: .only(["127.0.0.1"])])
            #expect(error?.denial?.access == Access(.net, "localhost:\(port)"), Comment(rawValue: String(code)))
        }
        // Granted, a 307 repeats the POST with its body, a 302 and a 303 go on as a GET without it,
        // and credentials do not follow to another host.
        let both: [Capability: GrantScope] = [.net: .only(["127.0.0.1", "localhost"])]
        let kept = try await run(
            "- url: \(base)/redirect/307?to=\(elsewhere)\n- get-contents-of-url: { method: POST, body: secret, headers: { Authorization: Bearer x } }",
            granted: both)
        #expect(try kept.property("method") == "POST")
        #expect(try kept.property("body") == "secret")
        #expect(try kept.property("host") == .text("localhost:\(port)"))
        #expect(try kept.property("authorization") == .nothing)
        for code in [302, 303] {
            let changed = try await run("- url: \(base)/redirect/\(code)?to=/echo\n- get-contents-of-url: { method: POST, body: secret }", granted: both)
            #expect(try changed.property("method") == "GET", Comment(rawValue: String(code)))
            #expect(try changed.property("body") == "", Comment(rawValue: String(code)))
        }
        // The same host keeps its credentials.
        let same = try await run(
            "- url: \(base)/redirect/302?to=/echo\n- get-contents-of-url: { headers: { Authorization: Bearer x } }", granted: both)
        #expect(try same.property("authorization") == "Bearer x")
        let loop = await failure("- url: \(base)/loop\n- get-contents-of-url", granted: both)
        #expect(loop?.message.contains("more than 10 redirects") == true)
        let toFile = await failure("- url: \(base)/redirect/302?to=file:///etc/passwd\n- get-contents-of-url", granted: both)
        #expect(toFile?.message.contains("which is not an http or https URL") == true)
    }
}
