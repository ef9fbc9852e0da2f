import Foundation

/// The test HTTP server (Tests/RelayRuntimeTests/Fixtures/http_server.py), one for all the tests
/// of this target; it ends with the test process (it reads its standard input until then).
final class LocalHTTPServer: @unchecked Sendable {
    static let shared = LocalHTTPServer()
    private let process = Process()
    private let input = Pipe()
    let base: String

    private init() {
        let script = RelayProcess.root.appendingPathComponent("Tests/RelayRuntimeTests/Fixtures/http_server.py")
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        process.standardOutput = output
        process.standardInput = input
        var port = "0"
        if (try? process.run()) != nil {
            var line = Data()
            while let byte = try? output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 { line.append(first) }
            port = String(decoding: line, as: UTF8.self)
        }
        base = "http://127.0.0.1:\(port)"
    }
}
