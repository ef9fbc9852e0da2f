import RelayKit

/// A package's message line (Docs/PackageProtocol.md): read as a message or refused with a
/// reason; a message read, written and read again is the same message, written the same; and the
/// values it carries decode without a crash, and decoded, encoded and decoded again encode the same.
enum WireHarness {
    static func check(_ bytes: [UInt8]) async -> String? {
        guard let message = try? WireMessage(bytes: bytes) else { return nil }
        let line = message.line
        do {
            let again = try WireMessage(line: line.dropLast())
            guard again == message else { return "\(line.dropLast()) reads back as another message" }
            guard again.line == line else { return "\(line.dropLast()) is written again as \(again.line.dropLast())" }
        } catch {
            return "\(line.dropLast()), as written, does not read back: \(error)"
        }
        if let problem = typed(message) { return problem }
        for wire in carried(by: message) {
            guard let value = try? await WireValue.decode(wire, entity: { $0.dictionary }) else { continue }
            _ = value.textValue
            let encoded = WireValue.encode(value)
            do {
                let again = WireValue.encode(try await WireValue.decode(encoded, entity: { $0.dictionary }))
                if again != encoded { return "\(wire.briefDescription) encodes as \(encoded.briefDescription), then as \(again.briefDescription)" }
            } catch {
                return "\(value.briefDescription) encoded does not decode: \(error)"
            }
        }
        return nil
    }

    /// A request's or callback's `params`, read as its method's type (`HostProtocol`) if it has
    /// one: refused with a reason, or read, written and read again to the same.
    private static func typed(_ message: WireMessage) -> String? {
        switch message {
        case .request(_, let method, let params):
            guard let type = HostProtocol.requests.first(where: { $0.method == method }) else { return nil }
            return roundTrip(type, params)
        case .callback(_, _, let method, let params):
            guard let type = HostProtocol.callbacks.first(where: { $0.method == method }) else { return nil }
            return roundTrip(type, params)
        case .answer, .reply, .progress: return nil
        }
    }

    private static func roundTrip<Message: HostMessage>(_ type: Message.Type, _ params: ValueDictionary) -> String? {
        guard let message = try? ValueCoding.decode(Message.self, from: .dictionary(params)) else { return nil }
        do {
            let written = try message.params
            let again = try ValueCoding.decode(Message.self, from: .dictionary(written)).params
            return again == written ? nil : "'\(Message.method)' params are written as \(written), then as \(again)"
        } catch {
            return "'\(Message.method)' params, read and written, do not read back: \(error)"
        }
    }

    /// The values a message carries: a result, and the parameters (and an action's arguments).
    private static func carried(by message: WireMessage) -> [Value] {
        switch message {
        case .request(_, _, let params), .callback(_, _, _, let params):
            var values = Array(params.values)
            if case .dictionary(let arguments)? = params["arguments"] { values += arguments.values }
            return values
        case .answer(_, .result(let value)), .reply(_, .result(let value)): return [value]
        case .answer, .reply, .progress: return []
        }
    }
}
