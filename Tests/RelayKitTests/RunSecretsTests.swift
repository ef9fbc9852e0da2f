import Foundation
import RelayKit
import RelayEngine
import Testing

/// How a run knows its secrets by their text, and masks them (Docs/Runs.md, "Secrets").
@Suite("Run secrets")
struct RunSecretsTests {
    @Test("a secret is masked as written and as a URL or JSON writes it; the longest first")
    func masksEveryForm() {
        let secrets = RunSecrets()
        secrets.add("TOKEN", value: "a b/c\"d")
        #expect(secrets.redact("x a b/c\"d y") == "x ••• y")
        #expect(secrets.redact("q=a%20b%2Fc%22d") == "q=•••")
        #expect(secrets.redact(#"{"t": "a b/c\"d"}"#) == #"{"t": "•••"}"#)
        #expect(secrets.names(in: Value.list([.dictionary(["k": .text("-a b/c\"d-")])])) == ["TOKEN"])
        #expect(secrets.names(in: Value.text("nothing here")).isEmpty)
        #expect(secrets.redact("nothing here") == "nothing here")
    }

    @Test("a secret's start cut off before '…' by a shortened message is masked too")
    func masksCutStarts() {
        let secrets = RunSecrets()
        secrets.add("TOKEN", value: "ghp_0123456789abcdef")
        #expect(secrets.redact("there is no file 'ghp_01234…'") == "there is no file '•••…'")
        #expect(secrets.redact("ends in gh…") == "ends in gh…")  // three characters say nothing
    }

    @Test("a secret's end shown after '…' by a message cut at its start (a script's last errors) is masked too")
    func masksCutEnds() {
        let secrets = RunSecrets()
        secrets.add("TOKEN", value: "ghp_0123456789abcdef")
        // Cut inside the secret: what is left of it follows the "…".
        let cut = Excerpt.end(of: "token was ghp_0123456789abcdef\n", limit: 13)
        #expect(cut == "…456789abcdef\n")
        #expect(secrets.redact(cut) == "…•••\n")
        #expect(secrets.redact("…def and more") == "…def and more")  // three characters say nothing
    }

    @Test("a preview is masked before it is cut, so no part of a secret is kept")
    func previewMaskedBeforeCut() {
        let secrets = RunSecrets()
        secrets.add("TOKEN", value: "SECRETSECRET")
        let text = String(repeating: "x", count: 75) + "SECRETSECRET and more"
        let (start, more) = secrets.redactedStart(of: text, limit: 80)
        #expect(start == String(repeating: "x", count: 75) + "••• a")
        #expect(more)
    }

    @Test("a text a step made from a secret is secret; a short one or one already holding it is not added")
    func derivedTexts() {
        let secrets = RunSecrets()
        secrets.add("TOKEN", value: "hunter22")
        secrets.derive(.text("aHVudGVyMjI="), from: ["TOKEN"])
        #expect(secrets.redact("auth aHVudGVyMjI=") == "auth •••")
        secrets.derive(.text("8"), from: ["TOKEN"])
        #expect(secrets.redact("8 items") == "8 items")
        secrets.derive(.text("Bearer hunter22"), from: ["TOKEN"])
        #expect(secrets.redact("Bearer hunter22") == "Bearer •••")
    }

    @Test("a step carrying a pinned secret may connect only to its hosts; not write, start programs or packages")
    func pinnedAccess() async throws {
        let gate = AccessGate.unrestricted
        gate.secrets.add("TOKEN", value: "hunter22")
        gate.secrets.pin("TOKEN", to: ["api.example.com"])
        try await RunSecrets.$carried.withValue(["TOKEN"]) {
            try await gate.authorize(Access(.net, "api.example.com"))
            try await gate.authorize(.read("/etc/hostname"))
            for access in [Access(.net, "evil.example"), Access(.write, "/tmp/out.txt"), Access(.run, "sh"), Access(.open, "https://evil.example/"), Access(.packages, "/tmp/SomeKit")] {
                await #expect(throws: AccessDenied.self) { try await gate.authorize(access) }
            }
        }
        // Without the secret, the same step's accesses go through.
        try await gate.authorize(Access(.net, "evil.example"))
    }
}
