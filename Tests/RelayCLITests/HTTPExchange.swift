import Foundation
import RelayKit

#if canImport(Glibc)
    import Glibc
#endif

/// One HTTP/1.1 exchange with a server on this machine, over a plain socket: the request's bytes
/// exactly as given (hostile ones too), and the answer read until the server closes.
struct HTTPExchange {
    struct Answer {
        var status: Int
        var headers: [String: String]
        var body: String
        /// Whether the server answered at all (it may close without a word).
        var answered: Bool { status != 0 }
    }

    /// `METHOD PATH` with `headers` and `body`, to `127.0.0.1:port`; `Connection: close` and the
    /// length are added.
    static func send(
        _ method: String, _ path: String, port: Int, headers: [String: String] = [:], body: Data = Data(), host: String? = nil
    ) async -> Answer {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return await raw(Data((text + "\r\n").utf8) + body, port: port)
    }

    static func send(_ method: String, _ path: String, port: Int, headers: [String: String] = [:], body: String) async -> Answer {
        await send(method, path, port: port, headers: headers, body: Data(body.utf8))
    }

    /// Sends `bytes` and reads the answer until the server closes, or 30 s without a byte.
    static func raw(_ bytes: Data, port: Int) async -> Answer {
        (try? await BlockingWork.run { _ in exchange(bytes, port: port) }) ?? Answer(status: 0, headers: [:], body: "")
    }

    /// Opens a connection to `port`, for a test that holds it; -1 when it cannot.
    static func connect(port: Int) -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            return -1
        }
        return socket
    }

    private static func exchange(_ bytes: Data, port: Int) -> Answer {
        let socket = connect(port: port)
        guard socket >= 0 else { return Answer(status: 0, headers: [:], body: "") }
        defer { close(socket) }
        var sent = 0
        bytes.withUnsafeBytes { buffer in
            while sent < buffer.count {
                let count = Glibc.send(socket, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                if count <= 0 { break }
                sent += count
            }
        }
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &chunk, chunk.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: chunk[0..<count])
            // A whole answer of a known length: read, as a browser or curl would, without
            // waiting for the server to close.
            if let end = received.range(of: Data("\r\n\r\n".utf8)) {
                let answer = parse(received)
                if let length = answer.headers["content-length"].flatMap(Int.init), received.count - end.upperBound >= length { return answer }
            }
        }
        return parse(received)
    }

    static func parse(_ data: Data) -> Answer {
        let text = String(decoding: data, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return Answer(status: 0, headers: [:], body: text) }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let status = lines.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = String(text[split.upperBound...])
        // A chunked body, joined.
        if headers["transfer-encoding"] == "chunked" {
            var joined = ""
            var rest = Substring(body)
            while let end = rest.range(of: "\r\n"), let size = Int(rest[..<end.lowerBound], radix: 16), size > 0 {
                let start = end.upperBound
                let stop = rest.utf8.index(start, offsetBy: size, limitedBy: rest.utf8.endIndex) ?? rest.endIndex
                joined += rest[start..<stop]
                rest = rest[stop...].dropFirst(2)
            }
            body = joined
        }
        return Answer(status: status, headers: headers, body: body)
    }
}
