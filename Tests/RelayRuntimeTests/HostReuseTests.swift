import Foundation
import RelayKit
import RelayEngine
import Testing

@testable import RelayRuntime

/// Which host a call goes to (Docs/Security.md, "What the kernel confines"): one confined to
/// exactly what the run grants, never one started for a run that was granted more.
@Suite("Package hosts and the grants of runs")
struct HostReuseTests {
    @Test("a run granted less than the host's run starts a host of its own; the same grants reuse it")
    func narrowerRunNewHost() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-reuse-\(UUID().uuidString)")
        let wide = folder.appendingPathComponent("wide")
        let narrow = folder.appendingPathComponent("wide/narrow")
        let data = folder.appendingPathComponent("data")
        for made in [narrow, data] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(at: folder) }
        // Every request is answered with a number the host drew at its start (which host it is;
        // its process id is the same in every host's namespace).
        let executable = try standInHost(
            in: folder, capabilities: ["manifest"], result: "\"$me\"", setup: "me=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')")
        let manifest = try await PackageManifest(json: ["protocol": .number(Double(HostProtocol.version)), "name": "Stand-in"])
        let package = HostedPackage(path: folder.path, manifest: manifest, executable: executable, dataFolder: data.path, connection: nil)
        defer { package.close() }

        func host(_ granted: Confinement) async throws -> Value {
            // A script just written may be open for writing in a child another test is forking.
            for _ in 0..<20 {
                do {
                    return try await package.request(HostProtocol.Manifest(), needing: granted)
                } catch let error as HostError where error.description.contains("busy") {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            return try await package.request(HostProtocol.Manifest(), needing: granted)
        }
        let wider = try await host(Confinement(read: [wide.path]))
        #expect(try await host(Confinement(read: [wide.path])) == wider, "the same grants reuse the host")
        let narrower = try await host(Confinement(read: [narrow.path]))
        #expect(narrower != wider, "a run granted less never reuses the wider host")
        #expect(try await host(Confinement(read: [narrow.path])) == narrower)
        #expect(try await host(Confinement(read: [wide.path], network: true)) != narrower)
    }
}
