import Foundation
import RelayKit
import Testing

@testable import TrailKit

@Suite("TrailKit")
struct TrailKitTests {
    @Test("the native query filters, sorts and limits like Relay's own filtering")
    func nativeQuery() async throws {
        let request = QueryRequest(
            conditions: [try FilterCondition(property: "distance", comparator: .greaterThan, operand: .number(2))],
            sort: [SortKey(property: "distance", ascending: false)], limit: 2)
        let found = try await TrailQuery().entities(matching: request)
        #expect(found.map(\.name) == ["Summit Scramble", "Canyon Rim Trail"])
    }

    @Test("the sheet says the distance (Relay renders it), and the PNG card is a well-formed file")
    func files() throws {
        let trail = try #require(Trail.all.first)
        #expect(trail.sheet.blocks.count == 4)
        let png = TrailCard.png(for: trail)
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(png.count > 600 * 400 * 3)
    }
}
