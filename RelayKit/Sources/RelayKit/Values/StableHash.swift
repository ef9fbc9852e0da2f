import Foundation

/// FNV-1a, 64 bits: a hash that is the same in every process and run (Swift's `hashValue` is
/// seeded per process), for naming things on disk — lock files, build folders, grant files. Not
/// for anything a hostile party could collide on purpose: that is `ContentHash` (SHA-256).
public struct StableHash: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }

    /// The hash of `text`'s UTF-8 bytes.
    public static func of(_ text: String) -> UInt64 {
        var hash = StableHash()
        hash.add(text.utf8)
        return hash.value
    }
}
