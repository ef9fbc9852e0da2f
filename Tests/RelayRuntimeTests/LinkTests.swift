import Foundation
import RelayKit
import Testing

@testable import RelayRuntime

/// `get-links`: the URLs a document links to, where `get-text` keeps only the links' text.
@Suite("get-links")
struct LinkTests {
    @Test("links from Markdown text, rich text, HTML and lists, each once, relative ones left out")
    func links() async throws {
        let markdown = #"""
            - text: "See [map](https://a.example/map), [notes](notes.md), <mailto:x@y.z> and https://b.example/x?y=1.\n\n> [again](https://a.example/map)\n\n| a |\n|---|\n| [c](http://c.example/) |"
            """#
        #expect(try await run(markdown + "\n- get-links").asList.map(\.textValue)
            == ["https://a.example/map", "mailto:x@y.z", "https://b.example/x?y=1", "http://c.example/"])
        #expect(try await run(markdown + "\n- rich-text-from-markdown\n- get-links").asList.count == 4)
        // get-text keeps the link's text, not its destination.
        #expect(try await run(markdown + "\n- rich-text-from-markdown\n- get-text").textValue.hasPrefix("See map, notes, "))
        #expect(try await run("- list: [\"[a](https://a.example/)\", \"https://a.example/\", \"no links\"]\n- get-links").asList.count == 1)
        #expect(try await run("- text: \"\"\n- get-links") == .list([]))
        let deep = String(repeating: "> ", count: 5000) + "[x](https://deep.example/)"
        do {
            _ = try await run("- text: \"\(deep)\"\n- get-links")
        } catch let error as RuntimeError {
            #expect(error.message.contains("deep"), "\(error.message)")
        }
    }
}
