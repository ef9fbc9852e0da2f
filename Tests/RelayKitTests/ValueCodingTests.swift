import Foundation
import RelayKit
import Testing

/// Codable types to and from JSON-shaped values: what the package protocol's messages are made
/// with (Docs/PackageProtocol.md).
@Suite("Codable messages as values")
struct ValueCodingTests {
    struct Inner: Codable, Equatable {
        var name: String
        var flag: Bool
    }

    struct Sample: Codable, Equatable {
        var count: Int
        var ratio: Double
        var items: [Inner]
        var note: String?
        var payload: Value
        var byName: [String: Int]
        var small: UInt8
    }

    private let sample = Sample(
        count: 3, ratio: 0.5, items: [Inner(name: "a", flag: true), Inner(name: "b", flag: false)], note: nil,
        payload: ["text": "kept as it is"], byName: ["x": 1], small: 7)

    @Test("a value read back is the value written; a Value field is carried as it is, in order")
    func roundTrip() throws {
        let encoded = try ValueCoding.encode(sample)
        #expect(try encoded.property("payload") == ["text": "kept as it is"])
        #expect(try encoded.property("count") == .number(3))
        // A nil optional is left out.
        #expect(try encoded.property("note") == .nothing)
        #expect(try ValueCoding.decode(Sample.self, from: encoded) == sample)
        // Written in declaration order.
        guard case .dictionary(let fields) = encoded else { Issue.record("not an object"); return }
        #expect(Array(fields.keys.prefix(3)) == ["count", "ratio", "items"])
    }

    @Test("a field missing or of the wrong kind is an error naming where it is")
    func located() throws {
        var broken = try ValueCoding.encode(sample)
        guard case .dictionary(var fields) = broken else { return }
        fields["items"] = [["name": "a", "flag": true], ["name": 5, "flag": true]]
        broken = .dictionary(fields)
        #expect(throws: WireError("'items.[1].name' must be a string")) { try ValueCoding.decode(Sample.self, from: broken) }
        fields["items"] = [["flag": true]]
        #expect(throws: WireError("'items.[0].name' is missing")) { try ValueCoding.decode(Sample.self, from: .dictionary(fields)) }
        fields["items"] = []
        fields["count"] = 1.5
        #expect(throws: WireError("'count' must be a whole number")) { try ValueCoding.decode(Sample.self, from: .dictionary(fields)) }
        fields["count"] = 1e300
        #expect(throws: WireError("'count' must be a whole number")) { try ValueCoding.decode(Sample.self, from: .dictionary(fields)) }
        fields["count"] = 1
        fields["small"] = 300
        #expect(throws: WireError.self) { try ValueCoding.decode(Sample.self, from: .dictionary(fields)) }
        #expect(throws: WireError("the message must be an object")) { try ValueCoding.decode(Sample.self, from: .list([])) }
        #expect(throws: WireError("the message must be an object")) { try ValueCoding.decode(Sample.self, from: .text("x")) }
    }

    @Test("a whole number too large for a JSON number to hold exactly is refused, not rounded")
    func largeNumbers() throws {
        struct Big: Codable { var id: Int }
        #expect(try ValueCoding.encode(Big(id: 1 << 53)) == ["id": .number(9_007_199_254_740_992)])
        #expect(throws: WireError.self) { try ValueCoding.encode(Big(id: (1 << 53) + 1)) }
        #expect(throws: WireError.self) { try ValueCoding.encode(Big(id: .min)) }
    }

    @Test("values nested 10,000 deep decode into a Value field without a crash")
    func deep() throws {
        var value: Value = .nothing
        for _ in 0..<10_000 { value = .list([value]) }
        struct Holder: Codable { var payload: Value }
        #expect(try ValueCoding.decode(Holder.self, from: ["payload": value]).payload == value)
    }
}
