import Foundation
import Testing

@testable import RelayKit

@Suite("Sets of secrets' names, as bits")
struct SecretNamesTests {
    @Test("joined, compared and kept as a number among variables, and back, without losing a name")
    func roundTrip() {
        let token = SecretNames(["SET_TOKEN_A"]), key = SecretNames(["SET_KEY_B"])
        let both = token.union(key)
        #expect(both.names == ["SET_TOKEN_A", "SET_KEY_B"])
        #expect(token.isSubset(of: both) && !both.isSubset(of: token))
        #expect(SecretNames(both.value) == both)
        #expect(SecretNames(Value.text("SET_TOKEN_A")).isEmpty && SecretNames(nil).isEmpty)
        #expect(SecretNames.none.isEmpty && SecretNames.none.names.isEmpty)
    }

    @Test("past 52 names, the later ones share a bit: a value made from one is held to the pins of each")
    func manyNames() {
        let names = (0..<80).map { "MANY_\($0)" }
        for name in names { _ = SecretNames([name]) }
        let last = SecretNames(["MANY_79"])
        // Never fewer names than the value was made from; the bit fits a number exactly.
        #expect(last.names.contains("MANY_79"))
        #expect(last.names.count > 1, "the 80th name met shares the last bit with others")
        #expect(SecretNames(last.value) == last)
        #expect(SecretNames(["MANY_0"]).names.contains("MANY_0"))
    }
}
