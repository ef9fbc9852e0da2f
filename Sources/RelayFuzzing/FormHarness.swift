import Foundation
import RelayRuntime

/// A webhook's query or form body: its pairs, written again and read again, are the same pairs.
enum FormHarness {
    static func check(_ bytes: [UInt8]) -> String? {
        guard let text = String(validating: bytes, as: UTF8.self), let pairs = FormEncoding.pairs(text) else { return nil }
        if pairs.count > bytes.count { return "\(pairs.count) pairs from \(bytes.count) bytes" }
        let written = FormEncoding.text(of: pairs)
        guard let again = FormEncoding.pairs(written) else { return "'\(written)', written from the pairs, does not read" }
        // Pairs with an empty name and value vanish when written (`=`): the rest are the same, in order.
        let kept = pairs.filter { !($0.0.isEmpty && $0.1.isEmpty) }
        let keptAgain = again.filter { !($0.0.isEmpty && $0.1.isEmpty) }
        guard kept.count == keptAgain.count, zip(kept, keptAgain).allSatisfy({ $0.0 == $1.0 && $0.1 == $1.1 }) else {
            return "'\(text)' read \(pairs), written '\(written)', read again \(again)"
        }
        return nil
    }
}
