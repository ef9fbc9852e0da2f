import CPipeSignal
import CSpawn
import Foundation
import RelayKit

/// `relay lsp` started as an editor starts it, spoken to message by message through its standard
/// input and output. Each read waits at most `patience` for the server (a failure, not a hang).
final class EditorSession {
    private let pid: pid_t
    private var input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []
    private let patience: Int32 = 60_000
    private var exited = false

    init(_ arguments: [String] = ["lsp"], home: URL, environment more: [String: String] = [:]) throws {
        let argv = ([RelayProcess.executable.path] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        environment.merge(more) { $1 }
        let environ = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { environ.forEach { free($0) } }
        let null = open("/dev/null", O_WRONLY)
        defer { close(null) }
        var child = relay_child()
        let started = (argv + [nil]).withUnsafeBufferPointer { pointers in
            (environ + [nil]).withUnsafeBufferPointer { entries in
                relay_spawn(
                    RelayProcess.executable.path, UnsafeMutablePointer(mutating: pointers.baseAddress), UnsafeMutablePointer(mutating: entries.baseAddress),
                    0, 0, -1, 0, relay_streams(input: -1, output: -1, errors: null), relay_tree(contained: 0, process_limit: 0, control_group: -1), &child)
            }
        }
        guard started == 0 else { throw POSIXError(POSIXErrorCode(rawValue: started) ?? .EIO) }
        pid = child.pid
        input = child.input
        output = child.output
    }

    deinit {
        if input >= 0 { close(input) }
        close(output)
        if !exited {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// Sends bytes as they are (a broken message, for the tests of one).
    func sendRaw(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { relay_write_all(input, $0.baseAddress, $0.count) }
    }

    /// Sends a JSON message, framed.
    func send(_ json: [String: Any]) throws {
        let body = try JSONSerialization.data(withJSONObject: json.merging(["jsonrpc": "2.0"]) { $1 })
        sendRaw(Array("Content-Length: \(body.count)\r\n\r\n".utf8) + Array(body))
    }

    /// Sends a request.
    func request(_ id: Int, _ method: String, _ params: [String: Any] = [:]) throws {
        try send(["id": id, "method": method, "params": params])
    }

    /// Sends a notification.
    func notify(_ method: String, _ params: [String: Any] = [:]) throws {
        try send(["method": method, "params": params])
    }

    /// The next message the server sends, or nil when its output ends or it says nothing for
    /// `patience`.
    func receive() throws -> [String: Any]? {
        while true {
            if let end = emptyLine() {
                let headers = String(decoding: buffer[..<end], as: UTF8.self)
                guard let line = headers.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
                    let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
                else { throw CocoaError(.coderReadCorrupt) }
                if buffer.count >= end + 4 + length {
                    let body = Data(buffer[(end + 4)..<(end + 4 + length)])
                    buffer.removeFirst(end + 4 + length)
                    return try JSONSerialization.jsonObject(with: body) as? [String: Any]
                }
            }
            guard fill() else { return nil }
        }
    }

    /// Messages until one `matches` (the others — diagnostics of earlier versions — are passed over).
    func receive(until matches: ([String: Any]) -> Bool) throws -> [String: Any]? {
        while let message = try receive() {
            if matches(message) { return message }
        }
        return nil
    }

    /// The response to request `id`.
    func response(_ id: Int) throws -> [String: Any]? {
        try receive { ($0["id"] as? Int) == id }
    }

    /// The diagnostics published for `version` of a document.
    func diagnostics(version: Int) throws -> [[String: Any]]? {
        let published = try receive { message in
            message["method"] as? String == "textDocument/publishDiagnostics" && ((message["params"] as? [String: Any])?["version"] as? Int) == version
        }
        return (published?["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]]
    }

    /// Closes the server's input and returns its exit status.
    func finish() -> Int32 {
        if input >= 0 { close(input) }
        input = -1
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        exited = true
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : -(status & 0x7F)
    }

    private func fill() -> Bool {
        var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, patience) > 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }

    private func emptyLine() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}
