import Foundation
import RelayKit

/// The test HTTP server (Tests/RelayRuntimeTests/Fixtures/http_server.py), one for all the tests
/// of this target; it ends with the test process (it reads its standard input until then).
final class LocalHTTPServer: @unchecked Sendable {
    private static let shared = LocalHTTPServer()

    /// The server's address, `http://127.0.0.1:PORT`; the first call starts it, on a thread of
    /// its own (starting Python takes a while on a loaded machine).
    static func base() async -> String {
        (try? await BlockingWork.run { _ in shared.base }) ?? "http://127.0.0.1:0"
    }
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
