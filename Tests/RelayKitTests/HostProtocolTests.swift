import Foundation
import RelayKit
import Testing

/// The package protocol's messages (Docs/PackageProtocol.md): each request and callback is a type
/// in `HostProtocol`, and the page shows each as it crosses, written by those types.
@Suite("The package protocol's requests and callbacks")
struct HostProtocolTests {
    private static let run = HostProtocol.Run(mode: .background, baseDirectory: "/home/ada/walks", scratch: "/tmp/relay-scratch")

    /// An example of every request and its reply, as Docs/PackageProtocol.md shows them.
    static func requests() throws -> [(any HostRequest, any Encodable & Sendable)] {
        [
        (HostProtocol.Hello(capabilities: ["show", "ask"]), HostProtocol.Hello(capabilities: ["hello", "manifest", "perform"])),
        (HostProtocol.Manifest(), ["protocol": .number(Double(HostProtocol.version)), "name": "TrailKit"] as Value),
        (
            HostProtocol.Perform(action: "favorite-trail", arguments: [["text": "1"], .nothing], run: run),
            HostProtocol.Perform.Reply(value: ["boolean": true], open: "https://trails.example/1")
        ),
        (
            HostProtocol.Query(
                type: "trail", kind: .request,
                request: HostProtocol.Query.Request(
                    QueryRequest(
                        conditions: [try FilterCondition(property: "distance", comparator: .lessThan, operand: .number(5))],
                        sort: [SortKey(property: "name")], limit: 2))),
            [["entity": ["type": "trail", "id": "1", "title": "Ridge Loop", "properties": [:] as Value]]] as [Value]
        ),
        (HostProtocol.Property(type: "trail", id: "1", name: "rating"), ["number": 4] as Value),
        (HostProtocol.Properties(type: "trail", ids: ["1", "2"], name: "rating"), [["number": 4], .nothing] as [Value]),
        (HostProtocol.Represent(type: "trail", id: "1", index: 0), HostProtocol.Represent.Reply(data: "JVBERi0xLjQK")),
        (
            HostProtocol.IndexRecord(type: "trail", id: "1"),
            HostProtocol.IndexRecord.Record(title: "Ridge Loop", keywords: ["Cascades"], content: "A loop along the ridge", modified: 1_763_800_000)
        ),
        (HostProtocol.RunConverter(index: 0, value: ["file": "/home/ada/walks/ridge.trail"], run: run), ["rich-text": [["heading", 1, [["text", "Ridge Loop"]]], ["paragraph", [["text", "Distance: 4.2 km"]]]]] as Value),
        (HostProtocol.ValueQuery(type: "trail", index: 0, value: ["file": "/home/ada/walks/ridge.trail"], run: run), Value.nothing),
        (HostProtocol.FileProperty(index: 0, file: ["file": "/home/ada/walks/ridge.trail"]), ["number": 4.2] as Value),
        ]
    }

    /// An example of every callback and its reply.
    static let callbacks: [(any HostCallback, any Encodable & Sendable)] = [
        (HostProtocol.Show(value: ["text": "Saved"]), HostProtocol.Empty()),
        (HostProtocol.Ask(Question(prompt: "How far?", type: .number, defaultValue: .number(5), key: "distance")), ["number": 7] as Value),
        (
            HostProtocol.Choose(ChoiceRequest(prompt: "Tidy?", options: ["Archive", "Delete", "Cancel"], defaultIndex: 0, destructive: [1])),
            [1]
        ),
        (HostProtocol.Confirm(prompt: "Delete 3 trails?"), HostProtocol.Empty()),
        (HostProtocol.Open(url: "https://trails.example/1"), HostProtocol.Empty()),
        (HostProtocol.Convert(value: ["text": "Ridge Loop"], to: .file(.pdf)), ["file": "/tmp/relay-scratch/Ridge Loop.pdf"] as Value),
        (HostProtocol.RunWorkflow(path: "tidy.yaml", input: ["list": []]), Value.nothing),
        (HostProtocol.RegisterUndo(action: "unfavorite-trail", arguments: ["trail": ["text": "1"]]), HostProtocol.Empty()),
    ]

    private static func page() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("Docs/PackageProtocol.md"), encoding: .utf8)
    }

    /// The request and its answer as lines, as the page shows them.
    static func lines(_ request: any HostMessage, _ reply: any Encodable, callback: Bool) throws -> [String] {
        let method = type(of: request).method
        let params = try request.params
        let result = try ValueCoding.encode(reply)
        let asked: WireMessage = callback ? .callback(id: 1, request: 2, method: method, params: params) : .request(id: 2, method: method, params: params)
        let answered: WireMessage = callback ? .reply(id: 1, .result(result)) : .answer(id: 2, .result(result))
        return [String(asked.line.dropLast()), String(answered.line.dropLast())]
    }

    @Test("every request and callback has an example, and Docs/PackageProtocol.md shows each as its type writes it")
    func documented() throws {
        #expect(try Self.requests().map { type(of: $0.0).method } == HostProtocol.requests.map { $0.method })
        #expect(Self.callbacks.map { type(of: $0.0).method } == HostProtocol.callbacks.map { $0.method })
        let page = try Self.page()
        for (request, reply) in try Self.requests() {
            for line in try Self.lines(request, reply, callback: false) { #expect(page.contains(line), "Docs/PackageProtocol.md lacks \(line)") }
        }
        for (callback, reply) in Self.callbacks {
            for line in try Self.lines(callback, reply, callback: true) { #expect(page.contains(line), "Docs/PackageProtocol.md lacks \(line)") }
        }
        #expect(page.contains("# The package-host protocol (version \(HostProtocol.version))"))
    }

    @Test("every example reads back as its type and is written again the same")
    func roundTrip() throws {
        func check<M: HostMessage>(_ message: M) throws {
            let params = try message.params
            #expect(try ValueCoding.decode(M.self, from: .dictionary(params)).params == params)
        }
        for (request, _) in try Self.requests() { try check(request) }
        for (callback, _) in Self.callbacks { try check(callback) }
    }

    @Test("a request with a field missing or of the wrong kind is refused naming the field")
    func refused() async throws {
        var handlers = HostHandlers<Void>()
        handlers.on(HostProtocol.Property.self) { property, _ in .text(property.name) }
        #expect(handlers.methods == ["property"])
        #expect(try await handlers.handle("property", ["type": "trail", "id": "1", "name": "rating"], in: ()) == .text("rating"))
        await #expect(throws: WireError("'id' must be a string")) {
            try await handlers.handle("property", ["type": "trail", "id": 1, "name": "rating"], in: ())
        }
        await #expect(throws: WireError("'name' is missing")) { try await handlers.handle("property", ["type": "trail", "id": "1"], in: ()) }
        await #expect(throws: WireError("unknown method 'perform'")) { try await handlers.handle("perform", [:], in: ()) }
    }
}
