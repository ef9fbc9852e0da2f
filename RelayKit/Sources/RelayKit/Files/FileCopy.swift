internal import CFileStatus
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many bytes of a long piece of work (a copy, a download) are done, of how many: written by
/// the thread doing it, read by the step that draws its progress bar.
public final class ByteProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var done: Int64 = 0
    private var total: Int64 = 0

    public init() {}

    /// Sets the total, when it is known.
    public func expect(_ bytes: Int64) {
        lock.lock()
        total = bytes
        lock.unlock()
    }

    public func advance(by bytes: Int64) {
        lock.lock()
        done += bytes
        lock.unlock()
    }

    /// The bytes done and the total (0 when unknown).
    public var state: (done: Int64, total: Int64) {
        lock.lock()
        defer { lock.unlock() }
        return (done, total)
    }

    /// The fraction done (0 while the total is unknown) and a label: `120 MB of 1 GB`.
    public var display: (fraction: Double, label: String) {
        let (done, total) = state
        return Self.display(done: done, total: total)
    }

    /// The fraction and label for `done` bytes of `total` (0 when unknown).
    public static func display(done: Int64, total: Int64) -> (fraction: Double, label: String) {
        guard total > 0 else { return (0, ByteCount.text(done)) }
        return (min(Double(done) / Double(total), 1), "\(ByteCount.text(done)) of \(ByteCount.text(total))")
    }
}

/// Copies the bytes of one open file into another without holding them: `copy_file_range` where
/// the kernel offers it (no byte passes through Relay's memory, and file systems such as Btrfs and
/// XFS share the blocks instead of copying them), else 1 MiB at a time. The stop flag is read
/// between chunks, so a step's timeout or a signal stops a long copy within a chunk. Each chunk is
/// sent on its way to disk at once, so that the flush at the end of the atomic write (and the
/// disk) overlaps with the copy instead of following it.
public enum FileCopy {
    static let chunk = 1 << 20

    /// Copies everything from `source`'s current offset to its end into `destination`.
    public static func copy(from source: Int32, to destination: Int32, progress: ByteProgress? = nil, stop: StopFlag? = nil)
        throws(FileOperationError)
    {
        // Files that say they are empty (those of /proc and /sys among them) may still have bytes,
        // which only reading finds.
        var info = stat()
        let claimsBytes = fstat(source, &info) == 0 && info.st_size > 0
        if claimsBytes, try copyInKernel(from: source, to: destination, progress: progress, stop: stop) { return }
        try copyThroughBuffer(from: source, to: destination, progress: progress, stop: stop)
    }

    /// Copies with `copy_file_range`; false when the kernel cannot (other file systems, old
    /// kernels, special files) and nothing was copied, so the buffer copy takes over.
    private static func copyInKernel(from source: Int32, to destination: Int32, progress: ByteProgress?, stop: StopFlag?)
        throws(FileOperationError) -> Bool
    {
        var copiedAny = false
        var written = 0
        while true {
            if stop?.isRaised == true { throw FileOperationError("stopped") }
            let count = relay_copy_file_range(source, destination, chunk * 8)
            // Nothing at the start of a file that claims bytes: the kernel cannot copy it.
            if count == 0 { return copiedAny }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                if !copiedAny, [EXDEV, EINVAL, ENOSYS, EOPNOTSUPP, EBADF, EPERM].contains(code) { return false }
                throw FileOperationError(String(cString: strerror(code)))
            }
            copiedAny = true
            relay_start_writeback(destination, Int64(written), Int64(count))
            written += count
            progress?.advance(by: Int64(count))
        }
    }

    private static func copyThroughBuffer(from source: Int32, to destination: Int32, progress: ByteProgress?, stop: StopFlag?)
        throws(FileOperationError)
    {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var written = 0
        while true {
            if stop?.isRaised == true { throw FileOperationError("stopped") }
            let count = read(source, buffer, chunk)
            if count == 0 { return }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileOperationError("reading the source: \(String(cString: strerror(errno)))")
            }
            guard writeAll(UnsafeRawBufferPointer(start: buffer, count: count), to: destination) else {
                throw FileOperationError(String(cString: strerror(errno)))
            }
            relay_start_writeback(destination, Int64(written), Int64(count))
            written += count
            progress?.advance(by: Int64(count))
        }
    }
}

/// Writes every byte of `buffer` to `descriptor`, retrying interrupted and partial writes.
func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
    guard let base = buffer.baseAddress else { return true }
    var written = 0
    while written < buffer.count {
        let count = write(descriptor, base + written, buffer.count - written)
        if count < 0 {
            if errno == EINTR { continue }
            return false
        }
        written += count
    }
    return true
}
