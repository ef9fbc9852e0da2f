import Foundation
import RelayKit
import RelayEngine

internal import CLZFSE

/// The property list inside a signed shortcut file (Docs/Shortcuts.md, "Signed shortcuts"): an
/// Apple Encrypted Archive whose profile signs but does not encrypt, holding an Apple Archive
/// with `Shortcut.wflow` in it. Its data is readable without any key; who signed it is not
/// checked (that takes Apple's certificates, and a signature grants nothing here: the workflow
/// is checked and gated like any other). Each segment's SHA-256, where the file has one, is —
/// and a file whose SHA-256 cannot be worked out (libcrypto missing) is not read.
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
            guard profile <= 5 else { throw damaged("its profile is \(profile), which is not one of Apple's (0 to 5)") }
            throw ShortcutError(
                "this Apple Encrypted Archive is encrypted (profile \(profile)), not only signed as the Shortcuts app signs a shortcut; it cannot be read without its key")
        }
        _ = try reader.take(1)  // the scrypt strength, which this profile does not use
        let authenticationSize = Int(try reader.integer(4))
        try reader.skip(authenticationSize)
        try reader.skip(signatureSize + keySize + saltSize + macSize)
        var header = ByteReader(try reader.take(rootHeaderSize), in: "the root header")
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
            var segments = ByteReader(headers, in: "a cluster's segment headers")
            for _ in 0..<segmentsPerCluster where output.count < total {
                let plainSize = Int(try segments.integer(4))
                let storedSize = Int(try segments.integer(4))
                let sum = try segments.take(checksumSize)
                guard plainSize > 0 else { throw damaged("a segment holds nothing, with \(total - output.count) bytes of the archive left") }
                guard UInt64(plainSize) <= segmentSize else { throw damaged("a segment holds \(plainSize) bytes, more than the \(segmentSize) its segments may") }
                guard plainSize <= total - output.count else {
                    throw damaged("a segment holds \(plainSize) bytes, with only \(total - output.count) of the archive left")
                }
                guard storedSize <= plainSize else { throw damaged("a segment is stored in \(storedSize) bytes, more than the \(plainSize) it holds") }
                let stored = try reader.take(storedSize)
                let plain = storedSize < plainSize ? try decompress(stored, to: plainSize, compression) : stored
                if checksum == 2 {
                    guard let digest = ContentHash.of(Data(plain), .sha256) else {
                        throw ShortcutError("the signed file's SHA-256 sums cannot be checked: libcrypto (OpenSSL) is missing")
                    }
                    guard digest == hex(sum) else { throw damaged("a segment's SHA-256 is not the one its header holds") }
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
            // One byte more than expected: a result that fills the buffer was cut short. The
            // decoder reads up to 8 bytes past its input's end at a damaged block: the input is
            // given with zeros after it, so that those reads stay in it.
            var plain = [UInt8](repeating: 0, count: size + 1)
            var scratch = [UInt8](repeating: 0, count: lzfse_decode_scratch_size())
            let padded = stored + [UInt8](repeating: 0, count: 64)
            let written = plain.withUnsafeMutableBufferPointer { output in
                padded.withUnsafeBufferPointer { input in
                    scratch.withUnsafeMutableBytes { scratch in
                        lzfse_decode_buffer(output.baseAddress, output.count, input.baseAddress, stored.count, scratch.baseAddress)
                    }
                }
            }
            guard written <= size else { throw damaged("a segment's LZFSE data gives more than the \(size) bytes its header says") }
            guard written == size else { throw damaged("a segment's LZFSE data gives \(written) bytes, not the \(size) its header says") }
            plain.removeLast()
            return plain
        default:
            let name = [UInt8(ascii: "4"): "LZ4", UInt8(ascii: "b"): "LZBITMAP", UInt8(ascii: "f"): "LZVN", UInt8(ascii: "x"): "LZMA", UInt8(ascii: "z"): "zlib"][compression]
            throw ShortcutError(
                "the signed file is compressed with \(name ?? "an unknown method (\(compression))"); Relay reads the LZFSE the Shortcuts app writes, or none")
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// A name from the file, quoted, its control characters written as escapes (a line break in
    /// it would start a line of its own in a message).
    static func shown(_ name: String) -> String {
        "'" + name.unicodeScalars.map { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined() + "'"
    }

    static func damaged(_ what: String) -> ShortcutError { ShortcutError("not a readable signed shortcut: \(what)") }
}

/// The entries of an Apple Archive (`AA01`): a header of typed fields each, then the blobs the
/// header's blob fields announce.
enum AppleArchive {
    /// The data of the one regular file at `path` in `archive`. Two entries of that name (in any
    /// case of letters, as a file system that ignores case would take them) are refused: which
    /// one another reader took would be anyone's guess.
    static func file(named path: String, in archive: [UInt8]) throws(ShortcutError) -> Data {
        var reader = ByteReader(archive, in: "the archive")
        var names: [String] = []
        var found: Data?
        var entries = 0
        while !reader.isAtEnd {
            entries += 1
            guard entries <= Limits.shortcutArchiveEntries else {
                throw ShortcutError("the signed file's archive holds more than \(Limits.shortcutArchiveEntries) entries (Docs/Reliability.md, \"Limits\")")
            }
            let start = reader.offset
            let magic = try reader.take(4)
            guard magic == Array("AA01".utf8) || magic == Array("YAA1".utf8) else {
                throw SignedShortcut.damaged("the archive's entry at byte \(start) does not start with AA01")
            }
            let headerSize = Int(try reader.integer(2))
            guard headerSize >= 6 else { throw SignedShortcut.damaged("the archive's entry at byte \(start) has a header of \(headerSize) bytes") }
            var fields = ByteReader(try reader.take(headerSize - 6), in: "the header of the archive's entry at byte \(start)")
            var name: String?
            var kindOfEntry: UInt8?
            var blobs: [(key: String, size: Int)] = []
            while !fields.isAtEnd {
                let key = String(decoding: try fields.take(3), as: UTF8.self)
                let kind = try fields.take(1)[0]
                switch kind {
                case UInt8(ascii: "*"): break
                case UInt8(ascii: "1"), UInt8(ascii: "2"), UInt8(ascii: "4"), UInt8(ascii: "8"):
                    let value = try fields.integer(Int(kind - UInt8(ascii: "0")))
                    if key == "TYP" { kindOfEntry = UInt8(truncatingIfNeeded: value) }
                case UInt8(ascii: "P"):
                    let text = try fields.take(Int(try fields.integer(2)))
                    // A name ends at its NUL, if it has one; anything after it makes it another name.
                    if key == "PAT" { name = String(decoding: text.last == 0 ? text.dropLast() : text[...], as: UTF8.self) }
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
                default: throw SignedShortcut.damaged("a field of the archive's entry at byte \(start) is of kind \(kind), which is not one of Apple Archive's")
                }
            }
            let isPath = name.map { $0.caseInsensitiveCompare(path) == .orderedSame } ?? false
            for blob in blobs {
                let data = try reader.take(blob.size)
                guard isPath, blob.key == "DAT" else { continue }
                guard name == path, kindOfEntry == nil || kindOfEntry == UInt8(ascii: "F") else {
                    throw SignedShortcut.damaged("its \(SignedShortcut.shown(name ?? "")) is not a regular file named \(path)")
                }
                guard found == nil else { throw SignedShortcut.damaged("it holds \(path) twice") }
                found = Data(data)
            }
            if let name { names.append(name) }
        }
        if let found { return found }
        throw ShortcutError(
            "the signed file holds no \(path)\(names.isEmpty ? "" : "; it holds \(names.prefix(5).map(SignedShortcut.shown).joined(separator: ", "))")")
    }
}

/// Little-endian reading of untrusted bytes: every read is bounded by what is left.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0
    /// What the bytes are, for messages: the file, the archive, an entry's header.
    private let context: String

    init(_ bytes: [UInt8], in context: String = "the file") {
        self.bytes = bytes
        self.context = context
    }

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func take(_ count: Int) throws(ShortcutError) -> [UInt8] {
        guard count >= 0, count <= bytes.count - offset else { throw shortfall(count) }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func skip(_ count: Int) throws(ShortcutError) {
        guard count >= 0, count <= bytes.count - offset else { throw shortfall(count) }
        offset += count
    }

    /// Bytes asked for past the end.
    private func shortfall(_ count: Int) -> ShortcutError {
        SignedShortcut.damaged("\(context) ends at byte \(bytes.count): the \(count) bytes from byte \(offset) need \(count - (bytes.count - offset)) more")
    }

    /// An unsigned little-endian integer of `size` bytes (1 to 8).
    mutating func integer(_ size: Int) throws(ShortcutError) -> UInt64 {
        try take(size).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
