import Foundation
import Testing

@testable import RelayKit
@testable import RelayEngine

/// The gate's rules (Docs/Security.md, "At run time" and "Paths"): paths resolved as the kernel
/// follows them, grants covering subfolders but not links out, hosts with or without a port.
@Suite("The access gate")
struct AccessGateTests {
    private let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("relay-gate-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url.appendingPathComponent("granted/sub"), withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(at: url.appendingPathComponent("secret"), withIntermediateDirectories: true)
        return URL(fileURLWithPath: ResolvedPath.resolve(url.path))
    }()

    @Test("paths resolve .., symbolic links (relative and absolute, chained) and not-yet-existing tails; a loop resolves nowhere")
    func resolving() throws {
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("granted/out").path, withDestinationPath: "../secret")
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("granted/abs").path, withDestinationPath: root.appendingPathComponent("granted/out").path)
        try manager.createSymbolicLink(atPath: root.appendingPathComponent("granted/loop").path, withDestinationPath: "loop")
        let base = root.path
        #expect(ResolvedPath.resolve("\(base)/granted/sub/../a.txt") == "\(base)/granted/a.txt")
        #expect(ResolvedPath.resolve("\(base)/granted/out/key") == "\(base)/secret/key")
        #expect(ResolvedPath.resolve("\(base)/granted/abs/new/file.txt") == "\(base)/secret/new/file.txt")
        #expect(ResolvedPath.resolve("\(base)/granted/out/../granted/x") == "\(base)/granted/x")
        #expect(!ResolvedPath.path(ResolvedPath.resolve("\(base)/granted/loop/x"), isWithin: base))
        #expect(ResolvedPath.resolve("~/x") == ResolvedPath.resolve(HomeFolder.path) + "/x")
        #expect(ResolvedPath.path("/a/bc", isWithin: "/a/b") == false)
        #expect(ResolvedPath.path("/a/b/c", isWithin: "/a/b"))
    }

    @Test("a grant covers its folder and what is inside, not a link out of it; write grants include reading")
    func grants() async throws {
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("granted/escape").path, withDestinationPath: "../secret")
        let gate = AccessGate(granted: [.write: .only([root.appendingPathComponent("granted").path])])
        #expect(gate.allows(.write(root.appendingPathComponent("granted/sub/new.txt").path)))
        #expect(gate.allows(.read(root.appendingPathComponent("granted/sub").path)))
        #expect(!gate.allows(.write(root.appendingPathComponent("granted/escape/key").path)))
        #expect(!gate.allows(.read(root.appendingPathComponent("secret/key").path)))
        #expect(!gate.allows(.write(root.appendingPathComponent("granted-not/x").path)))
        let reading = AccessGate(granted: [.read: .only([root.path])])
        #expect(!reading.allows(.write(root.appendingPathComponent("granted/x").path)), "reading does not grant writing")
        #expect(AccessGate.unrestricted.allows(.write("/etc/passwd")))
        #expect(!AccessGate().allows(Access(.open, "https://example.com")))
    }

    @Test("hosts: a name covers every port; NAME:PORT only that port; URLs name their host and port")
    func hosts() throws {
        let gate = AccessGate(granted: [.net: .only(["api.example.com", "127.0.0.1:8080"])])
        let allowed = ["https://API.example.com/x", "http://api.example.com:9000/", "http://127.0.0.1:8080/a"]
        func access(_ text: String) throws -> Access { try #require(URL(string: text).flatMap(Access.net)) }
        for url in allowed { #expect(gate.allows(try access(url)), "\(url)") }
        let refused = ["https://evil.example.com/api.example.com", "http://127.0.0.1:8081/", "https://api.example.com.evil.net/", "http://127.0.0.1/"]
        for url in refused { #expect(!gate.allows(try access(url)), "\(url)") }
    }

    @Test("a person is asked once per place: the folder of a file; yes once holds for the run and what is in the folder, no is remembered; with nobody to ask, denied and kept for the run's end")
    func asking() async throws {
        let asked = Counter()
        let places = Places()
        let gate = AccessGate(asker: { place in
            asked.add()
            places.add(place)
            return place.target.hasSuffix("yes") ? .once : .no
        })
        try await gate.authorize(.read("/nonexistent-relay/yes/a.txt"))
        try await gate.authorize(.read("/nonexistent-relay/yes/b.txt"))
        try await gate.authorize(.read("/nonexistent-relay/yes/deeper/c.txt"))
        await #expect(throws: AccessDenied.self) { try await gate.authorize(.read("/nonexistent-relay/no/a.txt")) }
        await #expect(throws: AccessDenied.self) { try await gate.authorize(.read("/nonexistent-relay/no/b.txt")) }
        #expect(asked.value == 2)
        #expect(places.all == [.read("/nonexistent-relay/yes"), .read("/nonexistent-relay/no")])
        #expect(gate.takeDenial()?.reason == .refused)
        #expect(gate.takeDenial() == nil)
        let nobody = AccessGate()
        do {
            try await nobody.authorize(.read(HomeFolder.path + "/.ssh/id_rsa"))
            Issue.record("expected a denial")
        } catch {
            #expect(error.description == "needs to read ~/.ssh/id_rsa, and it was not granted and there is no terminal to ask on; to grant it, run with --allow-read=~/.ssh")
        }
    }

    @Test("a package host's confinement is what the run may touch now: grants, free paths, prompt answers; a wider one covers a narrower")
    func confinement() async throws {
        let granted = root.appendingPathComponent("granted").path
        let gate = AccessGate(granted: [.read: .only([granted, granted + "/sub"]), .write: .only([granted + "/sub"])], asker: { _ in .once })
        gate.allowFreely(.read, root.appendingPathComponent("secret").path)
        var expected = Confinement(read: [granted, root.appendingPathComponent("secret").path], write: [granted + "/sub"])
        // The write grant inside the read grant stays: it allows more there.
        #expect(gate.confinement == expected)
        #expect(!gate.confinement.network)

        // A prompt's answer widens it; a host started before does not cover the run any more.
        let before = gate.confinement
        // A file found at run time is asked for its folder, which the host may then change (and read).
        try await gate.authorize(.write("/nonexistent-relay/answered/a.txt"))
        try await gate.authorize(.net(try #require(URL(string: "https://example.com/x")))!)
        expected.write.insert("/nonexistent-relay/answered")
        expected.network = true
        #expect(gate.confinement == expected)
        #expect(!before.covers(gate.confinement))
        #expect(gate.confinement.covers(before))

        // Everywhere is `/`, and covers any path; a read is covered by a write.
        let everywhere = AccessGate(granted: [.read: .everywhere]).confinement
        #expect(everywhere.read == ["/"])
        #expect(everywhere.covers(Confinement(read: ["/home/x/.ssh"])))
        #expect(!everywhere.covers(Confinement(write: ["/tmp/x"])))
        #expect(Confinement(write: ["/a"]).covers(Confinement(read: ["/a/b"], write: ["/a/c"])))
        #expect(!Confinement(write: ["/a"]).covers(Confinement(read: ["/ab"])))
        #expect(Confinement(read: ["/a", "/a/b", "/c/d"], write: ["/c"]).simplified == Confinement(read: ["/a"], write: ["/c"]))
    }

    @Test("a dry run's gate lets nothing be written, sent, opened or started, granted or not, and asks nobody; reads and the scratch folder as usual")
    func dryRun() async throws {
        let asked = Counter()
        let granted = root.appendingPathComponent("granted").path
        let gate = AccessGate(granted: [.write: .only([granted]), .net: .everywhere], asker: { _ in asked.add(); return .once }, dryRun: true)
        gate.allowFreely(.write, root.appendingPathComponent("scratch").path)
        for (access, wasGranted) in [
            (Access.write(granted + "/a.txt"), true), (.write("/tmp/elsewhere.txt"), false),
            (Access(.net, "example.com"), true), (Access(.open, "https://example.com"), false), (Access(.run, "sh"), false),
        ] {
            do {
                try await gate.authorize(access)
                Issue.record("a dry run allowed \(access)")
            } catch {
                #expect(error.reason == .dryRun(granted: wasGranted))
                #expect(error.isDryRun)
            }
        }
        #expect(asked.value == 0)
        try await gate.authorize(.write(root.appendingPathComponent("scratch/run-1/x.pdf").path))
        try await gate.authorize(.read(granted + "/a.txt"))
        try await gate.authorize(.read("/nonexistent-relay/asked.txt"))
        #expect(asked.value == 1)
        #expect(AccessDenied(access: .write("/tmp/x"), reason: .dryRun(granted: false)).description
            == "would write /tmp/x (not granted: a real run needs --allow-write=/tmp/x)")
        // Its hosts may change nothing, not even where the run may write.
        #expect(gate.confinement.write.isEmpty && gate.confinement.changesNothing && !gate.confinement.network)
        #expect(gate.confinement.read.contains(granted))
    }

    @Test("what a value names for a capability: files and paths, hosts, URLs; text is content where no path is taken")
    func targets() {
        let folder = URL(fileURLWithPath: "/work")
        #expect(Access.targets(of: .text("out/a.txt"), for: .write, type: .text, relativeTo: folder) == ["/work/out/a.txt"])
        #expect(Access.targets(of: .text("hello"), for: .read, type: .text, relativeTo: folder).isEmpty)
        #expect(Access.targets(of: .text("notes.md"), for: .read, type: .file, relativeTo: folder) == ["/work/notes.md"])
        #expect(Access.targets(of: .list([.text("a"), .text("b")]), for: .write, type: .file, relativeTo: folder) == ["/work/a", "/work/b"])
        #expect(Access.targets(of: .text("https://Example.com:8443/x"), for: .net, type: .url, relativeTo: folder) == ["example.com:8443"])
        #expect(Access.targets(of: .text("https://example.com"), for: .open, type: .url, relativeTo: folder) == ["https://example.com"])
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}

/// The places an asker was asked about, in order.
private final class Places: @unchecked Sendable {
    private let lock = NSLock()
    private var places: [Access] = []
    var all: [Access] { lock.withLock { places } }
    func add(_ place: Access) { lock.withLock { places.append(place) } }
}
