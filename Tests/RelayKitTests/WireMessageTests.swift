import Testing

@testable import RelayKit

@Suite("The package protocol's messages")
struct WireMessageTests {
    @Test("each shape reads as it is documented and is written back the same", arguments: [
        (#"{"id":1,"method":"perform","params":{"action":"greet"}}"#, WireMessage.request(id: 1, method: "perform", params: ["action": "greet"])),
        (#"{"id":2,"result":"hi"}"#, .answer(id: 2, .result("hi"))),
        (#"{"id":3,"error":{"message":"no","cancelled":true}}"#, .answer(id: 3, .failure(WireFailure(message: "no", cancelled: true)))),
        (
            #"{"id":4,"error":{"message":"denied","refused":{"capability":"read","path":"/x"}}}"#,
            .answer(id: 4, .failure(WireFailure(message: "denied", refused: WireFailure.Refusal(capability: "read", path: "/x"))))
        ),
        (#"{"id":6,"error":{"message":"busy","retry-after":30}}"#, .answer(id: 6, .failure(WireFailure(message: "busy", retryAfter: 30)))),
        (#"{"callback":5,"request":1,"method":"confirm","params":{"prompt":"ok?"}}"#, .callback(id: 5, request: 1, method: "confirm", params: ["prompt": "ok?"])),
        (#"{"reply":5,"result":true}"#, .reply(id: 5, .result(true))),
        (#"{"progress":0.5,"request":1,"label":"half"}"#, .progress(request: 1, fraction: 0.5, label: "half")),
    ])
    func shapes(line: String, message: WireMessage) throws {
        #expect(try WireMessage(line: line) == message)
        #expect(try WireMessage(line: message.line.dropLast()) == message)
        #expect(message.line == line + "\n")
    }

    @Test("what is missing takes its default: no params, no result, no message, no label")
    func defaults() throws {
        #expect(try WireMessage(line: #"{"id":1,"method":"manifest"}"#) == .request(id: 1, method: "manifest", params: [:]))
        #expect(try WireMessage(line: #"{"id":1}"#) == .answer(id: 1, .result(.nothing)))
        #expect(try WireMessage(line: #"{"reply":1,"error":{}}"#) == .reply(id: 1, .failure(WireFailure(message: "the callback failed"))))
        #expect(try WireMessage(line: #"{"progress":1,"request":2,"label":null}"#) == .progress(request: 2, fraction: 1, label: nil))
        // A wait no retry can keep is no wait.
        #expect(try WireMessage(line: #"{"id":1,"error":{"message":"m","retry-after":-1}}"#) == .answer(id: 1, .failure(WireFailure(message: "m"))))
        #expect(try WireMessage(line: #"{"id":1,"error":{"message":"m","retry-after":"soon"}}"#) == .answer(id: 1, .failure(WireFailure(message: "m"))))
    }

    @Test("a line that is not a message says what is wrong", arguments: [
        ("[1]", "a message must be a JSON object"),
        ("{\"id\": 1.5}", "'id' must be a whole number"),
        ("{\"id\": 1e300}", "'id' must be a whole number"),
        ("{\"id\": \"1\"}", "'id' must be a whole number"),
        ("{\"id\": 1, \"method\": 7}", "'method' must be a string"),
        ("{\"id\": 1, \"method\": \"m\", \"params\": [1]}", "'params' must be an object"),
        ("{\"callback\": 1, \"method\": \"m\"}", "'request' must be a whole number"),
        ("{\"id\": 1, \"error\": \"no\"}", "'error' must be an object"),
        ("{\"hello\": 1}", "a message must have an 'id', 'callback', 'reply' or 'progress'"),
        ("{\"id\": 1,", "a message must be JSON"),
    ])
    func refused(line: String, reason: String) {
        #expect {
            try WireMessage(line: line)
        } throws: { error in
            (error as? WireError)?.message.hasPrefix(reason) == true
        }
    }
}
