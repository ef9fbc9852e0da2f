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
