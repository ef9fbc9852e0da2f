import Foundation
import RelayKit
import Testing

@testable import RelayRuntime

/// A package whose declarations Relay cannot take (two cases with one display name) is refused
/// with that problem, not with how its host ended.
@Suite("A package that declares something wrongly")
struct HostDeclarationTests {
    @Test("a host that cannot start for a declaration is the package's error naming it, without the host's exit or its standard error")
    func declarationError() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-declaration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let problem = "intent 'feel': parameter 'mood': the cases 'glad' and 'sad' have one display name, 'Fine'"
        let wrong = try standInHost(
            in: folder, capabilities: [],
            result: "null", setup: "echo 'a warning first' >&2; printf '%s\\n' \"\(HostProtocol.declarationErrorPrefix)\(problem)\" >&2; exit \(HostProtocol.declarationErrorStatus)")
        let error = try await loadError(folder, wrong)
        #expect(error?.message == "package '\(folder.lastPathComponent)' cannot be loaded: \(problem); fix its declaration in the package's sources (Docs/Packages.md)", "\(String(describing: error))")
        #expect(error?.standardError == "")
        // Another failure to start still says how the host ended, with what it printed.
        let crashed = try standInHost(in: folder, capabilities: [], result: "null", setup: "echo 'it broke' >&2; exit 1")
        let other = try await loadError(folder, crashed)
        #expect(other?.message.contains("exited with status 1") == true, "\(String(describing: other))")
        #expect(other?.standardError.contains("it broke") == true)
    }

    /// The error of loading the package at `folder` whose host is `executable`, retried while
    /// the script just written is busy (open for writing in a child another test is forking).
    private func loadError(_ folder: URL, _ executable: URL) async throws -> HostError? {
        for _ in 0..<20 {
            do {
                let package = try await HostedPackage.load(path: folder.path, executable: executable)
                package.close()
                return nil
            } catch {
                if error.message.contains("busy") {
                    try await Task.sleep(for: .milliseconds(50))
                    continue
                }
                return error
            }
        }
        return nil
    }
}
