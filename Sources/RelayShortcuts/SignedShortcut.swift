import Foundation
import RelayKit

internal import CLZFSE

/// The property list inside a signed shortcut file (Docs/Shortcuts.md, "Signed shortcuts"): an
/// Apple Encrypted Archive whose profile signs but does not encrypt, holding an Apple Archive
/// with `Shortcut.wflow` in it. Its data is readable without any key; who signed it is not
/// checked (that takes Apple's certificates, and a signature grants nothing here: the workflow
/// is checked and gated like any other). Each segment's SHA-256, where the file has one, is.
enum SignedShortcut {
    /// The bytes of the `Shortcut.wflow` property list in `bytes`, a file that starts with `AEA1`.
    static func propertyList(_ bytes: [UInt8]) throws(ShortcutError) -> Data {
        try AppleArchive.file(named: "Shortcut.wflow", in: archive(bytes))
    }

    /// The sizes of the prologue's parts, for the profile that signs and does not encrypt.
    private static let signatureSize = 128, keySize = 32, saltSize = 32, macSize = 32, rootHeaderSize = 48

    /// The Apple Archive the signed file wraps.
    static func archive(_ bytes: [UInt8]) throws(ShortcutError) -> [UInt8] {
        var reader = ByteReader(bytes)
        guard try reader.take(4) == Array("AEA1".utf8) else { throw damaged("it does not start with AEA1") }
        let profile = Int(try reader.integer(2)) | Int(try reader.integer(1)) << 16
        guard profile == 0 else {
            throw ShortcutError(
                "this Apple Encrypted Archive is encrypted (profile \(profile)), not only signed as the Shortcuts app signs a shortcut; it cannot be read without its key")
        }
        _ = try reader.take(1)  // the scrypt strength, which this profile does not use
        let authenticationSize = Int(try reader.integer(4))
        try reader.skip(authenticationSize)
        try reader.skip(signatureSize + keySize + saltSize + macSize)
        var header = ByteReader(try reader.take(rootHeaderSize))
        let originalSize = try header.integer(8)
        _ = try header.integer(8)  // the archive's size
        let segmentSize = try header.integer(4)
        let segmentsPerCluster = try header.integer(4)
        let compression = try header.take(1)[0]
        let checksum = try header.take(1)[0]
        guard originalSize <= UInt64(Limits.shortcutBytes) else {
            throw ShortcutError(
                "the signed file's archive is \(originalSize) bytes; a shortcut may have at most \(Limits.shortcutBytes) (Docs/Reliability.md, \"Limits\")")
        }
        guard segmentSize > 0, segmentsPerCluster > 0, segmentsPerCluster <= 1 << 16 else {
            throw damaged("its segments are \(segmentSize) bytes, \(segmentsPerCluster) to a cluster")
        }
        let checksumSize: Int
        switch checksum {
        case 0: checksumSize = 0
        case 1: checksumSize = 8
        case 2: checksumSize = 32
        default: throw damaged("checksum kind \(checksum) is not one of Apple's")
        }
        let total = Int(originalSize)
        var output: [UInt8] = []
        output.reserveCapacity(total)
        try reader.skip(macSize)  // the first cluster's
        while output.count < total {
            let headers = try reader.take(Int(segmentsPerCluster) * (8 + checksumSize))
            try reader.skip(macSize + Int(segmentsPerCluster) * macSize)
            var segments = ByteReader(headers)
            for _ in 0..<segmentsPerCluster where output.count < total {
                let plainSize = Int(try segments.integer(4))
                let storedSize = Int(try segments.integer(4))
                let sum = try segments.take(checksumSize)
                guard plainSize > 0, UInt64(plainSize) <= segmentSize, plainSize <= total - output.count else {
                    throw damaged("a segment of \(plainSize) bytes, with \(total - output.count) of the archive left")
                }
                let stored = try reader.take(storedSize)
                let plain = storedSize < plainSize ? try decompress(stored, to: plainSize, compression) : stored
                guard plain.count == plainSize else { throw damaged("a segment is \(plain.count) bytes, not the \(plainSize) its header says") }
                if checksum == 2, let digest = ContentHash.of(Data(plain), .sha256), digest != hex(sum) {
                    throw damaged("a segment's SHA-256 is not the one its header holds")
                }
                output += plain
            }
        }
        return output
    }

    /// `stored`, decompressed to `size` bytes.
    private static func decompress(_ stored: [UInt8], to size: Int, _ compression: UInt8) throws(ShortcutError) -> [UInt8] {
        switch compression {
        case UInt8(ascii: "-"): return stored
        case UInt8(ascii: "e"):
            // One byte more than expected: a result that fills the buffer was cut short.
            var plain = [UInt8](repeating: 0, count: size + 1)
            var scratch = [UInt8](repeating: 0, count: lzfse_decode_scratch_size())
            let written = plain.withUnsafeMutableBufferPointer { output in
                stored.withUnsafeBufferPointer { input in
                    scratch.withUnsafeMutableBytes { scratch in
                        lzfse_decode_buffer(output.baseAddress, output.count, input.baseAddress, input.count, scratch.baseAddress)
                    }
                }
            }
            guard written == size else { throw damaged("a segment's LZFSE data gives \(written) bytes, not \(size)") }
            plain.removeLast()
            return plain
        default:
            let name = [UInt8(ascii: "4"): "LZ4", UInt8(ascii: "b"): "LZBITMAP", UInt8(ascii: "f"): "LZVN", UInt8(ascii: "x"): "LZMA", UInt8(ascii: "z"): "zlib"][compression]
            throw ShortcutError(
                "the signed file is compressed with \(name ?? "an unknown method (\(compression))"); Relay reads the LZFSE the Shortcuts app writes, or none")
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func damaged(_ what: String) -> ShortcutError { ShortcutError("not a readable signed shortcut: \(what)") }
}

/// The entries of an Apple Archive (`AA01`): a header of typed fields each, then the blobs the
/// header's blob fields announce.
enum AppleArchive {
    /// The data of the regular file at `path` in `archive`.
    static func file(named path: String, in archive: [UInt8]) throws(ShortcutError) -> Data {
        var reader = ByteReader(archive)
        var names: [String] = []
        while !reader.isAtEnd {
            let start = reader.offset
            let magic = try reader.take(4)
            guard magic == Array("AA01".utf8) || magic == Array("YAA1".utf8) else {
                throw SignedShortcut.damaged("an archive entry at byte \(start) does not start with AA01")
            }
            let headerSize = Int(try reader.integer(2))
            guard headerSize >= 6 else { throw SignedShortcut.damaged("an archive entry's header is \(headerSize) bytes") }
            var fields = ByteReader(try reader.take(headerSize - 6))
            var name: String?
            var blobs: [(key: String, size: Int)] = []
            while !fields.isAtEnd {
                let key = String(decoding: try fields.take(3), as: UTF8.self)
                let kind = try fields.take(1)[0]
                switch kind {
                case UInt8(ascii: "*"): break
                case UInt8(ascii: "1"), UInt8(ascii: "2"), UInt8(ascii: "4"), UInt8(ascii: "8"): try fields.skip(Int(kind - UInt8(ascii: "0")))
                case UInt8(ascii: "P"):
                    let text = try fields.take(Int(try fields.integer(2)))
                    if key == "PAT" { name = String(decoding: text.prefix { $0 != 0 }, as: UTF8.self) }
                case UInt8(ascii: "F"): try fields.skip(4)
                case UInt8(ascii: "G"): try fields.skip(20)
                case UInt8(ascii: "H"): try fields.skip(32)
                case UInt8(ascii: "I"): try fields.skip(48)
                case UInt8(ascii: "J"): try fields.skip(64)
                case UInt8(ascii: "S"): try fields.skip(8)
                case UInt8(ascii: "T"): try fields.skip(12)
                case UInt8(ascii: "A"): blobs.append((key, Int(try fields.integer(2))))
                case UInt8(ascii: "B"): blobs.append((key, Int(try fields.integer(4))))
                case UInt8(ascii: "C"):
                    let size = try fields.integer(8)
                    guard size <= UInt64(archive.count) else { throw SignedShortcut.damaged("a blob of \(size) bytes in an archive of \(archive.count)") }
                    blobs.append((key, Int(size)))
                default: throw SignedShortcut.damaged("an archive field of kind '\(Unicode.Scalar(kind))'")
                }
            }
            for blob in blobs {
                let data = try reader.take(blob.size)
                if blob.key == "DAT", name == path { return Data(data) }
            }
            if let name { names.append(name) }
        }
        throw ShortcutError(
            "the signed file holds no \(path)\(names.isEmpty ? "" : "; it holds \(names.prefix(5).map { "'\($0)'" }.joined(separator: ", "))")")
    }
}

/// Little-endian reading of untrusted bytes: every read is bounded by what is left.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func take(_ count: Int) throws(ShortcutError) -> [UInt8] {
        guard count >= 0, count <= bytes.count - offset else {
            throw SignedShortcut.damaged("it ends at byte \(bytes.count), \(count) bytes short of what byte \(offset) announces")
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func skip(_ count: Int) throws(ShortcutError) {
        guard count >= 0, count <= bytes.count - offset else {
            throw SignedShortcut.damaged("it ends at byte \(bytes.count), \(count) bytes short of what byte \(offset) announces")
        }
        offset += count
    }

    /// An unsigned little-endian integer of `size` bytes (1 to 8).
    mutating func integer(_ size: Int) throws(ShortcutError) -> UInt64 {
        try take(size).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
