import Foundation
import RelayKit
import Testing

/// The package wire format carries every number, NaN and the infinities included (JSON has none).
@Suite("Package wire values")
struct WireValueTests {
    @Test("NaN, Infinity and -Infinity cross the wire and come back", arguments: [Double.nan, .infinity, -.infinity, 0, -1.5, 1e300])
    func numbers(number: Double) async throws {
        let line = JSONWriter.string(for: WireValue.encode(.number(number)), pretty: false)
        let back = try await WireValue.decode(try JSONReader.value(from: line), in: EntityCatalog())
        guard case .number(let decoded) = back else {
            Issue.record("not a number: \(back)")
            return
        }
        #expect(decoded == number || (decoded.isNaN && number.isNaN), "\(line)")
    }
}
