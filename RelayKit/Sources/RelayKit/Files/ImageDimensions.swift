import Foundation

/// Reads an image's pixel size from its header, without decoding it: PNG's IHDR chunk, JPEG's
/// start-of-frame segment, GIF's logical screen. Fast enough to list and filter thousands of photos.
public enum ImageDimensions {
    /// The width and height of the image `file`, or nil if it is not a readable PNG, JPEG or GIF.
    /// It is opened as its reads are: at the path the gate allowed, with no link followed
    /// (`FileReference.openForReading`).
    public static func read(_ file: FileReference) -> (width: Int, height: Int)? {
        guard let descriptor = try? file.openForReading() else { return nil }
        return read(FileHandle(fileDescriptor: descriptor, closeOnDealloc: true))
    }

    private static func read(_ handle: FileHandle) -> (width: Int, height: Int)? {
        guard let prefix = try? handle.read(upToCount: 32) else { return nil }
        let bytes = [UInt8](prefix)
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), bytes.count >= 24 {
            return (Int(bigEndian32(bytes, 16)), Int(bigEndian32(bytes, 20)))
        }
        if bytes.starts(with: Array("GIF8".utf8)), bytes.count >= 10 {
            return (Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8)
        }
        if bytes.starts(with: [0xFF, 0xD8]) {
            try? handle.seek(toOffset: 0)
            guard let data = try? handle.read(upToCount: 1 << 20) else { return nil }
            return jpegSize([UInt8](data))
        }
        return nil
    }

    /// Walks JPEG segments to the first start-of-frame marker (SOF0–SOF15, not DHT/JPG/DAC).
    static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        var offset = 2
        while offset + 9 < bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6])
                let width = Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8])
                return (width, height)
            }
            guard length >= 2 else { return nil }
            offset += 2 + length
        }
        return nil
    }

    private static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
