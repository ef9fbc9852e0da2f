import RelayKit

/// A package's message line (Docs/PackageProtocol.md): the values it carries decode without a
/// crash, and a decoded value encoded and decoded again encodes the same.
enum WireHarness {
    static func check(_ bytes: [UInt8]) async -> String? {
        guard case .dictionary(let message)? = try? JSONReader.value(from: bytes) else { return nil }
        var carried: [Value] = [message["result"], message["input"]].compactMap { $0 }
        for key in ["params", "error"] {
            guard case .dictionary(let fields)? = message[key] else { continue }
            carried += fields.values
            if case .dictionary(let arguments)? = fields["arguments"] { carried += arguments.values }
        }
        for wire in carried {
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
}
