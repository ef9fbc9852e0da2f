import Foundation
import Testing

@testable import RelayKit

@Suite("URL templates (Docs/Language.md, 'Opening URLs')")
struct URLTemplateTests {
    private func url(_ template: String, _ values: [String: Value]) throws -> String {
        try URLTemplate(template).url { values[$0] }.absoluteString
    }

    @Test("placeholders are replaced, encoded for their position")
    func encoding() throws {
        #expect(try url("https://trails.example.com/trail/{id}", ["id": 1]) == "https://trails.example.com/trail/1")
        #expect(try url("https://x.org/trail/{name}", ["name": "Ridge / Loop?"]) == "https://x.org/trail/Ridge%20%2F%20Loop%3F")
        #expect(try url("https://x.org/search?q={name}&r={region}", ["name": "a&b=c+d", "region": "Cascades"])
            == "https://x.org/search?q=a%26b%3Dc%2Bd&r=Cascades")
        #expect(try url("https://x.org/page#{section}", ["section": "a b/c?"]) == "https://x.org/page#a%20b/c?")
        #expect(try url("https://{region}.x.org/{id}", ["region": "café", "id": 2]) == "https://caf%C3%A9.x.org/2")
        #expect(try url("https://x.org/{id}", ["id": 4.2]) == "https://x.org/4.2")
    }

    @Test("${…} in URL text is encoded for where it stands; a value before '://' gives the scheme and host as it is")
    func urlText() {
        var url = URLText()
        url.appendLiteral("https://api.example.com/search/")
        url.appendValue("a&b=c#x/y z")
        url.appendLiteral("?q=")
        url.appendValue("a&b=c#x/y z")
        url.appendLiteral("#")
        url.appendValue("a&b#c")
        #expect(url.text == "https://api.example.com/search/a%26b%3Dc%23x%2Fy%20z?q=a%26b%3Dc%23x/y%20z#a&b%23c")

        var based = URLText()
        based.appendValue("https://api.example.com")
        based.appendLiteral("/trails?q=")
        based.appendValue("x&admin=1")
        #expect(based.text == "https://api.example.com/trails?q=x%26admin%3D1")

        var host = URLText()
        host.appendLiteral("https://")
        host.appendValue("evil.com/steal?")
        host.appendLiteral("/x")
        #expect(host.text == "https://evil.com%2Fsteal%3F/x")
        // A file URL's path keeps its slashes; a '?' or '#' in it is still encoded.
        var file = URLText()
        file.appendLiteral("file://")
        file.appendValue("/tmp/My Files/a?b#c.txt")
        #expect(file.text == "file:///tmp/My%20Files/a%3Fb%23c.txt")
        #expect(URL(string: file.text)?.path == "/tmp/My Files/a?b#c.txt")
    }

    @Test("placeholders are listed in order")
    func placeholders() throws {
        #expect(try URLTemplate("https://x.org/{region}/{id}?v={version}").placeholders == ["region", "id", "version"])
    }

    @Test("a missing value or a malformed template is an error")
    func errors() throws {
        #expect(throws: URLTemplate.Problem.self) { try url("https://x.org/{id}", [:]) }
        #expect(throws: URLTemplate.Problem.self) { try url("https://x.org/{id}", ["id": ""]) }
        #expect(throws: URLTemplate.Problem.self) { try URLTemplate("https://x.org/{id") }
        #expect(throws: URLTemplate.Problem.self) { try URLTemplate("https://x.org/id}") }
        #expect(throws: URLTemplate.Problem.self) { try URLTemplate("https://x.org/{a b}") }
        do {
            _ = try url("https://x.org/{region}/{id}", ["id": 1])
        } catch {
            #expect("\(error)" == "the URL template 'https://x.org/{region}/{id}' needs 'region', which has no value")
        }
    }
}
