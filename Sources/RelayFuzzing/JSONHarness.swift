import RelayKit

/// JSON: whatever reads, written (compact and pretty) and read again, is the same value.
enum JSONHarness {
    static func check(_ bytes: [UInt8]) -> String? {
        guard let value = try? JSONReader.value(from: bytes) else { return nil }
        for pretty in [false, true] {
            let text = JSONWriter.string(for: value, pretty: pretty)
            do {
                let again = try JSONReader.value(from: text)
                if again != value { return "written\(pretty ? " pretty" : "") and read again, \(value.briefDescription) became \(again.briefDescription)" }
            } catch {
                return "the writer's JSON does not read back: \(error)"
            }
        }
        return nil
    }
}
