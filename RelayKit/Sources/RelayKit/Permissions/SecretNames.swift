import Foundation

/// A set of secrets' names, kept as bits: what a value was made from is followed through every
/// step of a run (Docs/Runs.md, "Secrets follow what is made from them"), so it must cost a step
/// next to nothing to copy, join and compare — no allocation, no hashing.
///
/// Each name this process meets gets a bit of its own, in the order met; the 53rd name and every
/// later one share the last bit, which then stands for all of them (a value made from one of them
/// is held to the pins of each: more careful, never less). 53 bits: a set is kept among a run's
/// variables as a number, which holds whole numbers exactly up to 2⁵³.
public struct SecretNames: Sendable, Hashable {
    public private(set) var bits: UInt64

    /// No secret.
    public static let none = SecretNames(bits: 0)

    private init(bits: UInt64) { self.bits = bits }

    /// The set of `names`.
    public init(_ names: some Sequence<String>) { self.init(names, table: .shared) }

    /// The set of `names`, numbered in `table` (a test's own, to start from none).
    init(_ names: some Sequence<String>, table: NameTable) {
        bits = 0
        for name in names { bits |= table.bit(for: name) }
    }

    public var isEmpty: Bool { bits == 0 }

    public func union(_ other: SecretNames) -> SecretNames { SecretNames(bits: bits | other.bits) }
    public mutating func formUnion(_ other: SecretNames) { bits |= other.bits }
    public func isSubset(of other: SecretNames) -> Bool { bits & ~other.bits == 0 }

    /// The names in the set (every name sharing the last bit, when it is set).
    public var names: Set<String> { names(in: .shared) }

    func names(in table: NameTable) -> Set<String> {
        guard bits != 0 else { return [] }
        return table.names(of: bits)
    }

    /// The set as a value to keep among variables, and back.
    public var value: Value { .number(Double(bits)) }
    public init(_ value: Value?) {
        if case .number(let number)? = value, number >= 0, number < 9_007_199_254_740_992 { bits = UInt64(number) } else { bits = 0 }
    }

    /// The bit of each name, in the order met; the 53rd name and every later one share the last.
    final class NameTable: @unchecked Sendable {
        static let shared = NameTable()
        private static let lastBit = 52
        private let lock = NSLock()
        private var bits: [String: UInt64] = [:]
        private var names: [String] = []

        func bit(for name: String) -> UInt64 {
            lock.withLock {
                if let bit = bits[name] { return bit }
                let bit: UInt64 = 1 << UInt64(min(names.count, Self.lastBit))
                bits[name] = bit
                names.append(name)
                return bit
            }
        }

        func names(of set: UInt64) -> Set<String> {
            lock.withLock {
                Set(names.enumerated().compactMap { index, name in set & (1 << UInt64(min(index, Self.lastBit))) != 0 ? name : nil })
            }
        }
    }
}

/// Where the secrets of what a step, or a run a step started, took in are gathered, from any task:
/// the files it read that the run wrote from secrets (`RunSecrets.stepReads`), the output of a
/// workflow it ran.
public final class SecretCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var names = SecretNames.none
    public init() {}
    public func add(_ more: SecretNames) { if !more.isEmpty { lock.withLock { names.formUnion(more) } } }
    public var all: SecretNames { lock.withLock { names } }
}
