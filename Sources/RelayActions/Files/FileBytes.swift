import Foundation
import RelayKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's bytes in memory, for what needs them whole (Base64, a form's part).
enum FileBytes {
    /// The bytes of `file`, at most `limit` in all (`already` counts bytes read before, for a
    /// limit over several files); past it, an error saying `tooLong`. Stops when `stop` is raised.
    static func read(_ file: FileReference, limit: Int, already: Int = 0, stop: StopFlag? = nil, tooLong: () -> String) throws -> Data {
        let descriptor: Int32
        do { descriptor = try file.openForReading() } catch { throw IntentError(error.message) }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while stop?.isRaised != true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw IntentError("cannot read '\(file.path)': \(String(cString: strerror(errno)))")
            }
            guard already + data.count + count <= limit else { throw IntentError(tooLong()) }
            data.append(contentsOf: buffer[..<count])
        }
        throw CancellationError()
    }
}

/// The system's `read`, which `FileBytes.read` would otherwise hide.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
