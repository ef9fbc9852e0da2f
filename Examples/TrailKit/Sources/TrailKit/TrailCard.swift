import Foundation

/// The trail card as a 600×400 PNG: a band coloured by difficulty with the name in capitals,
/// the distance, region and difficulty below, and a bar as long as the trail. Drawn into an RGB
/// buffer with a 5×7 pixel font and encoded here (zlib "stored" blocks), so the package needs no
/// image library.
enum TrailCard {
    static let width = 600, height = 400

    static func png(for trail: Trail) -> Data {
        let shade = [Difficulty.easy: 1, .moderate: 2, .hard: 3][trail.difficulty] ?? 0
        var canvas = png(
            title: trail.name.uppercased(),
            lines: [trail.distanceText.uppercased(), trail.region.uppercased(), trail.difficulty.rawValue.uppercased()], shade: shade, encode: false)
        // The distance bar: 50 px a kilometre, at most the card's width.
        let length = min(Int(trail.distance * 50), width - 80)
        canvas.fill(x: 40, y: 340, width: length, height: 24, color: (40, 40, 40))
        return canvas.encoded()
    }

    static func png(title: String, lines: [String], shade: Int) -> Data {
        png(title: title, lines: lines, shade: shade, encode: false).encoded()
    }

    private static func png(title: String, lines: [String], shade: Int, encode: Bool) -> Canvas {
        let bands: [(UInt8, UInt8, UInt8)] = [(70, 90, 120), (60, 140, 80), (200, 140, 40), (170, 50, 50)]
        var canvas = Canvas(width: width, height: height, background: (245, 242, 235))
        canvas.fill(x: 0, y: 0, width: width, height: 120, color: bands[min(max(shade, 0), bands.count - 1)])
        canvas.write(title, x: 40, y: 40, scale: 6, color: (255, 255, 255))
        for (index, line) in lines.enumerated() {
            canvas.write(line, x: 40, y: 150 + index * 56, scale: 5, color: (40, 40, 40))
        }
        return canvas
    }
}

/// An RGB pixel buffer that can be filled, written on with the 5×7 font, and encoded as PNG.
struct Canvas {
    let width: Int, height: Int
    private var pixels: [UInt8]

    init(width: Int, height: Int, background: (UInt8, UInt8, UInt8)) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        fill(x: 0, y: 0, width: width, height: height, color: background)
    }

    mutating func fill(x: Int, y: Int, width: Int, height: Int, color: (UInt8, UInt8, UInt8)) {
        for row in max(y, 0)..<min(y + height, self.height) {
            for column in max(x, 0)..<min(x + width, self.width) {
                let offset = (row * self.width + column) * 3
                pixels[offset] = color.0
                pixels[offset + 1] = color.1
                pixels[offset + 2] = color.2
            }
        }
    }

    /// Writes `text` with its top left at (x, y), each font pixel a `scale`×`scale` square.
    mutating func write(_ text: String, x: Int, y: Int, scale: Int, color: (UInt8, UInt8, UInt8)) {
        var left = x
        for character in text {
            let glyph = PixelFont.glyph(for: character)
            for (index, bit) in glyph.enumerated() where bit == "1" {
                fill(x: left + (index % 5) * scale, y: y + (index / 5) * scale, width: scale, height: scale, color: color)
            }
            left += 6 * scale
            if left + 5 * scale > width { break }
        }
    }

    /// The PNG file: signature, IHDR (8-bit RGB), one IDAT of stored zlib blocks, IEND.
    func encoded() -> Data {
        var raw = Data(capacity: (width * 3 + 1) * height)
        for row in 0..<height {
            raw.append(0)  // filter: none
            raw.append(contentsOf: pixels[(row * width * 3)..<((row + 1) * width * 3)])
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, 2, 0, 0, 0])
        png.appendChunk("IHDR", header)
        png.appendChunk("IDAT", Self.zlibStored(raw))
        png.appendChunk("IEND", Data())
        return png
    }

    /// `data` as a zlib stream of uncompressed ("stored") deflate blocks.
    private static func zlibStored(_ data: Data) -> Data {
        var stream = Data([0x78, 0x01])
        var offset = 0
        let bytes = [UInt8](data)
        repeat {
            let count = min(65_535, bytes.count - offset)
            let last: UInt8 = offset + count == bytes.count ? 1 : 0
            stream.append(last)
            stream.append(UInt8(count & 0xFF))
            stream.append(UInt8(count >> 8))
            stream.append(UInt8(~count & 0xFF))
            stream.append(UInt8((~count >> 8) & 0xFF))
            stream.append(contentsOf: bytes[offset..<(offset + count)])
            offset += count
        } while offset < bytes.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        stream.appendBigEndian((b << 16) | a)
        return stream
    }
}

extension Data {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }

    /// A PNG chunk: length, type, data, and the CRC-32 of type and data.
    mutating func appendChunk(_ type: String, _ data: Data) {
        appendBigEndian(UInt32(data.count))
        let typed = Data(type.utf8) + data
        append(typed)
        appendBigEndian(CRC32.checksum(typed))
    }
}

enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

/// A 5×7 pixel font of capitals, digits and a little punctuation; each glyph is 35 bits, row by row.
enum PixelFont {
    static func glyph(for character: Character) -> String {
        glyphs[Character(character.uppercased())] ?? glyphs["?"] ?? ""
    }

    private static let glyphs: [Character: String] = [
        "A": "01110100011000111111100011000110001", "B": "11110100011000111110100011000111110",
        "C": "01110100011000010000100001000101110", "D": "11110100011000110001100011000111110",
        "E": "11111100001000011110100001000011111", "F": "11111100001000011110100001000010000",
        "G": "01110100011000010111100011000101111", "H": "10001100011000111111100011000110001",
        "I": "01110001000010000100001000010001110", "J": "00111000100001000010000101001001100",
        "K": "10001100101010011000101001001010001", "L": "10000100001000010000100001000011111",
        "M": "10001110111010110101100011000110001", "N": "10001100011100110101100111000110001",
        "O": "01110100011000110001100011000101110", "P": "11110100011000111110100001000010000",
        "Q": "01110100011000110001101011001001101", "R": "11110100011000111110101001001010001",
        "S": "01111100001000001110000010000111110", "T": "11111001000010000100001000010000100",
        "U": "10001100011000110001100011000101110", "V": "10001100011000110001100010101000100",
        "W": "10001100011000110101101011010101010", "X": "10001100010101000100010101000110001",
        "Y": "10001100010101000100001000010000100", "Z": "11111000010001000100010001000011111",
        "0": "01110100011001110101110011000101110", "1": "00100011000010000100001000010001110",
        "2": "01110100010000100010001000100011111", "3": "11111000100010000010000011000101110",
        "4": "00010001100101010010111110001000010", "5": "11111100001111000001000011000101110",
        "6": "00110010001000011110100011000101110", "7": "11111000010001000100010000100001000",
        "8": "01110100011000101110100011000101110", "9": "01110100011000101111000010001001100",
        ".": "00000000000000000000000000110001100", "-": "00000000000000011111000000000000000",
        ",": "00000000000000000000011000010001000", " ": "00000000000000000000000000000000000",
        "?": "01110100010000100010001000000000100", "'": "00100001000100000000000000000000000",
    ]
}
