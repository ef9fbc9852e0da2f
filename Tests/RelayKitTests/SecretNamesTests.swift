import Foundation
import Testing

@testable import RelayKit

@Suite("Sets of secrets' names, as bits")
struct SecretNamesTests {
    @Test("joined, compared and kept as a number, and back, without losing a name")
    func roundTrip() {
        let table = SecretNames.NameTable()
        let token = SecretNames(["TOKEN_A"], table: table), key = SecretNames(["KEY_B"], table: table)
        let both = token.union(key)
        #expect(both.names(in: table) == ["TOKEN_A", "KEY_B"])
        #expect(token.isSubset(of: both) && !both.isSubset(of: token))
        #expect(SecretNames(both.value) == both)
        #expect(SecretNames(Value.text("TOKEN_A")).isEmpty && SecretNames(nil).isEmpty)
        #expect(SecretNames.none.isEmpty && SecretNames.none.names.isEmpty)
        #expect(SecretNames(["TOKEN_A"], table: table) == token, "a name keeps its bit")
    }

    @Test("past 52 names, the later ones share a bit: a value made from one is held to the pins of each")
    func manyNames() {
        let table = SecretNames.NameTable()
        let sets = (0..<80).map { SecretNames(["MANY_\($0)"], table: table) }
        #expect(Set(sets.prefix(52).map(\.bits)).count == 52, "the first 52 names have a bit each")
        let last = sets[79]
        // Never fewer names than the value was made from; the bit fits a number exactly.
        #expect(last.names(in: table).contains("MANY_79") && last.names(in: table).contains("MANY_52"))
        #expect(sets[0].names(in: table) == ["MANY_0"])
        #expect(SecretNames(last.value) == last)
    }
}
