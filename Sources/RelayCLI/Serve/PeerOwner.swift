import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which user's process is at the other end of a connection to this machine's loopback: the page
/// of `relay serve` is yours alone, and another account on the machine is refused it
/// (Docs/Security.md, "Runs nobody started"). Linux says who owns each socket in /proc/net/tcp
/// and tcp6; the caller's socket is the one whose own port is the connection's far port and whose
/// far port is the server's.
enum PeerOwner {
    /// The owner of the caller's end of the connection from `clientPort` to `serverPort`, on
    /// loopback; nil when it cannot be found (not Linux, or the connection is gone).
    static func uid(clientPort: Int, serverPort: Int) -> uid_t? {
        #if os(Linux)
            for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
                guard let data = read(table) else { continue }
                for line in String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst() {
                    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                    guard fields.count > 7, port(of: fields[1]) == clientPort, port(of: fields[2]) == serverPort, let owner = UInt32(fields[7])
                    else { continue }
                    return uid_t(owner)
                }
            }
            return nil
        #else
            return nil
        #endif
    }

    #if os(Linux)
    /// A file of /proc, read to its end (its size says 0), up to 16 MiB: a table of some
    /// hundred thousand sockets.
    private static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < 16 << 20 {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }
    #endif

    /// `0100007F:1F90` → 8080.
    private static func port(of address: Substring) -> Int? {
        guard let colon = address.lastIndex(of: ":") else { return nil }
        return Int(address[address.index(after: colon)...], radix: 16)
    }

    /// Whether the caller at `clientPort` runs as this process's user. Where the system does not
    /// say (macOS), every local caller is taken to be.
    static func isOwnUser(clientPort: Int?, serverPort: Int) -> Bool {
        #if os(Linux)
            guard let clientPort, let owner = uid(clientPort: clientPort, serverPort: serverPort) else { return false }
            return owner == getuid()
        #else
            return true
        #endif
    }
}
