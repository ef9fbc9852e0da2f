import Foundation
import RelayKit
import RelayEngine
import RelayRuntime

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a webhook's caller sent, as the run sees it in `${trigger}` (Docs/Automations.md,
/// "Webhooks"). Never its headers: they hold the token.
struct HookRequest: Sendable {
    var name: String
    /// The query parameters, in order; a name given twice keeps its last value.
    var query: [(String, String)]
    /// The body's media type as sent, without its parameters; nil without a body.
    var contentType: String?
    var size: Int
    /// The body, as the run's input: JSON a value, text text, anything else a file.
    var body: WorkflowRun.Input = .none
    /// The folder the body's file was written in, removed once the run is over.
    var spool: String? = nil
    /// Gives back what the body holds of the server's memory for bodies, once the run is over.
    var release: (@Sendable () -> Void)? = nil

    /// The run is over, or will not be: its body's file and memory are given back.
    func finished() {
        if let spool { try? FileManager.default.removeItem(atPath: spool) }
        release?()
    }

    /// `${trigger.request}` and `${trigger.query}`.
    var value: (request: Value, query: Value) {
        var query = ValueDictionary()
        for (name, value) in self.query { query[name] = .text(value) }
        let request: ValueDictionary = [
            "method": .text("POST"), "path": .text("/hooks/\(name)"), "type": contentType.map { .text($0) } ?? .nothing,
            "size": .number(Double(size)), "query": .dictionary(query),
        ]
        return (.dictionary(request), .dictionary(query))
    }
}

/// Told a run's ID once it is in the history and how it ended, for a caller that waits for it: a
/// webhook's, or the page's "Run now".
final class RunWatcher: @unchecked Sendable {
    private let lock = NSLock()
    private var id: Int64??
    private var outcome: WorkflowRun.Outcome??
    private var waiters: [CheckedContinuation<Void, Never>] = []

    private var error = ""

    /// Whether the run started.
    var started: Bool { lock.withLock { id != nil || outcome != nil } }

    /// What the run said went wrong, as its console was told it (its secrets masked).
    var errorText: String { lock.withLock { error.trimmingCharacters(in: .whitespacesAndNewlines) } }

    /// Keeps `text`, the run's error, up to some thousands of characters.
    func noteError(_ text: String) {
        lock.withLock { if error.utf8.count < 8_192 { error += text.count > 8_192 ? String(text.prefix(8_192)) : text } }
    }

    /// The run's ID is known (nil: not recorded).
    func recorded(_ id: Int64?) {
        lock.withLock { if self.id == nil { self.id = .some(id) } }
        wake()
    }

    /// The run ended (nil: it never started, the server stopping).
    func ended(_ outcome: WorkflowRun.Outcome?) {
        lock.withLock { self.outcome = .some(outcome) }
        wake()
    }

    private func wake() {
        let waiting: [CheckedContinuation<Void, Never>] = lock.withLock {
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Waits until the run ends or `seconds` pass; how it ended, or nil (still going, or never ran),
    /// and whether it ended.
    func outcome(within seconds: Double) async -> (WorkflowRun.Outcome?, ended: Bool) {
        await waitUntil(seconds) { $0.outcome != nil }
        return lock.withLock { (outcome ?? nil, outcome != nil) }
    }

    /// Waits until the run's ID is known, it ends, or `seconds` pass.
    func id(within seconds: Double) async -> Int64? {
        await waitUntil(seconds) { $0.id != nil || $0.outcome != nil }
        return lock.withLock { (id ?? nil) ?? (outcome ?? nil)?.runID }
    }

    private func waitUntil(_ seconds: Double, _ done: @escaping (RunWatcher) -> Bool) async {
        let deadline = ContinuousClock.now + .seconds(seconds)
        let timer = Task { [self] in
            try? await Task.sleep(until: deadline)
            wake()
        }
        defer { timer.cancel() }
        while !lock.withLock({ done(self) }), ContinuousClock.now < deadline, !Task.isCancelled {
            await withCheckedContinuation { continuation in
                let now = lock.withLock { () -> Bool in
                    if done(self) { return true }
                    waiters.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }
}

/// The tokens of webhooks (Docs/Automations.md, "Webhooks"): `relay serve token NAME` makes one
/// and prints it once; only its SHA-256 digest is kept, in a file of its own that only its owner
/// can read, in Relay's state folder. A token given is compared with it in constant time.
struct HookTokens: Sendable {
    let folder: URL

    init(stateFolder: URL) { folder = stateFolder.appendingPathComponent("hooks") }

    /// Makes a new token for `name`, replacing the one it had; the token.
    func make(for name: String) throws -> String {
        let token = "relay_" + Self.randomText()
        guard let digest = Self.digest(token) else { throw ServeError("making a token needs libcrypto (OpenSSL), which could not be opened") }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(folder.path, 0o700)
        let file = self.file(for: name)
        let temporary = folder.appendingPathComponent(".\(name).\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data((digest + "\n").utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ServeError("could not write \(temporary.path)")
        }
        guard rename(temporary.path, file.path) == 0 else {
            unlink(temporary.path)
            throw ServeError("could not write \(file.path): \(String(cString: strerror(errno)))")
        }
        return token
    }

    /// Whether `name` has a token.
    func exists(_ name: String) -> Bool { kept(name) != nil }

    /// Whether `token` is the token of `name`: compared digest to digest, every byte, so the time
    /// taken says nothing of how much matched.
    func matches(_ token: String, hook name: String) -> Bool {
        guard let kept = kept(name), let given = Self.digest(token) else { return false }
        return Self.sameDigests(kept, given)
    }

    /// Whether two digests are the same, every byte compared whatever the first that differs.
    static func sameDigests(_ a: String, _ b: String) -> Bool {
        let (a, b) = (Array(a.utf8), Array(b.utf8))
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    private func file(for name: String) -> URL { folder.appendingPathComponent(name + ".sha256") }

    private func kept(_ name: String) -> String? {
        guard let data = FileManager.default.contents(atPath: file(for: name).path),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines), text.utf8.count == 64
        else { return nil }
        return text
    }

    static func digest(_ token: String) -> String? { ContentHash.of(Data(token.utf8)) }

    /// 32 random bytes as URL-safe base64 text.
    static func randomText() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// The bytes of webhook bodies held in memory at once — waiting their turn or being run — held to
/// a bound: one call's 16 MiB is allowed, a thousand waiting are not.
final class BodyBudget: @unchecked Sendable {
    static let bound = 32 << 20
    private let lock = NSLock()
    private var held = 0

    /// Takes `bytes`, when they fit; whether they did.
    func take(_ bytes: Int) -> Bool {
        lock.withLock {
            guard held + bytes <= Self.bound else { return false }
            held += bytes
            return true
        }
    }

    func give(_ bytes: Int) {
        lock.withLock { held = max(0, held - bytes) }
    }
}

/// The calls to a webhook in the last minute, held to its `limit:`.
final class CallWindow: @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [String: [Date]] = [:]

    /// Counts a call to `name` now, when fewer than `limit` came in the last minute; else how many
    /// seconds until one may.
    func admit(_ name: String, limit: Int, now: Date = Date()) -> Double? {
        lock.withLock {
            var recent = (calls[name] ?? []).filter { now.timeIntervalSince($0) < 60 }
            defer { calls[name] = recent }
            guard recent.count < limit else { return max(1, 60 - now.timeIntervalSince(recent[0])) }
            recent.append(now)
            return nil
        }
    }
}
