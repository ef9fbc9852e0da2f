import Foundation
import RelayKit
import Testing

/// Secrets: where their values come from, and that they are shown nowhere and sent only where
/// they are pinned (Docs/Runs.md, "Secrets").
@Suite("Secrets")
struct SecretTests {
    /// A value with characters a URL and JSON encode, so that every encoded form is looked for too.
    static let token = "tok_3xAmple+/=Secret\"9"

    /// A fresh folder with its own home, state and config folders, and `workflow` as `w.yaml`.
    private func sandbox(_ workflow: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relay-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("home"), withIntermediateDirectories: true)
        try workflow.write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        return folder
    }

    private func relay(_ arguments: [String], in folder: URL, input: String = "", _ extra: [String: String] = [:]) async throws -> RelayProcess.Result {
        let environment = [
            "HOME": folder.appendingPathComponent("home").path, "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
            "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path, "RELAY_KEYRING": "off",
        ].merging(extra) { $1 }
        return try await RelayProcess.running(arguments, in: folder, input: input, environment: environment)
    }

    /// The forms of `token` that would give it away: as written, URL- and JSON-encoded, in Base64.
    private static var leaks: [String] {
        [
            token, token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token,
            token.replacingOccurrences(of: "\"", with: "\\\""), Data(token.utf8).base64EncodedString(), "tok_3xAmple",
        ]
    }

    private func expectNoLeak(_ text: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for leak in Self.leaks {
            #expect(!text.contains(leak), "\(what) holds the secret: \(text)", sourceLocation: sourceLocation)
        }
    }

    @Test("a secret used in a URL, a header, a body and a text is in no output, trace, JSON, error or the history")
    func secretShownNowhere() async throws {
        let base = await LocalHTTPServer.base()
        let folder = try sandbox(
            """
            secrets: [API_TOKEN]
            permissions:
              net: [127.0.0.1]
              secrets: { API_TOKEN: [127.0.0.1] }
            steps:
              - get-contents-of-url:
                  url: "\(base)/echo?token=${secrets.API_TOKEN}"
                  method: post
                  headers: { Authorization: "Bearer ${secrets.API_TOKEN}" }
                  body: { token: "${secrets.API_TOKEN}" }
              - show
              - text: "the token is ${secrets.API_TOKEN}"
                as: sentence
              - base64-encode:
                input: "${secrets.API_TOKEN}"
              - show
              - show: "${sentence}"
              - calculate: "${sentence} * 2"
            """)
        let run = try await relay(["run", "w.yaml", "--trace", "--json", "--allow-declared"], in: folder, ["API_TOKEN": Self.token])
        #expect(run.status == 1, "\(run.standardError)")
        // The server was sent the secret, and answered it back: shown masked.
        #expect(run.standardOutput.contains("\"authorization\": \"Bearer •••\""), "\(run.standardOutput)")
        // Texts made from it — its Base64, a sentence holding it — are shown as ••• whole.
        #expect(run.standardOutput.hasSuffix("\"•••\"\n\"•••\"\n") && !run.standardOutput.contains("the token is"), "\(run.standardOutput)")
        #expect(run.standardError.contains("w.yaml:18:5: error: step 'calculate'"), "\(run.standardError)")
        #expect(run.standardError.contains("trace: w.yaml:6: get-contents-of-url"), "\(run.standardError)")
        expectNoLeak(run.standardOutput, "standard output")
        expectNoLeak(run.standardError, "standard error")

        let listed = try await relay(["runs", "--json"], in: folder)
        #expect(listed.status == 0)
        #expect(listed.standardOutput.contains("•••"), "\(listed.standardOutput)")
        expectNoLeak(listed.standardOutput, "relay runs --json")
        let shown = try await relay(["runs", "show", "1"], in: folder)
        #expect(shown.standardOutput.contains("w.yaml:18:5 calculate — failed"), "\(shown.standardOutput)")
        expectNoLeak(shown.standardOutput, "relay runs show")
        // Nor in the database's bytes: its file, its write-ahead log.
        let state = folder.appendingPathComponent("state/relay")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? [] where name.hasPrefix("history") {
            let bytes = try Data(contentsOf: state.appendingPathComponent(name))
            expectNoLeak(String(decoding: bytes, as: UTF8.self), name)
        }
    }

    @Test("a pinned secret is followed through what is made from it: split and joined, in a JSON file, a number plus one, a branch on it", arguments: [
        // Split into characters and joined with dots: no text of the secret is left.
        "  - split-text: { text: \"${secrets.API_TOKEN}\", by: characters }\n  - combine-text: \".\"\n  - get-contents-of-url: \"BASE/echo?x=${previous}\"",
        // In a dictionary, then a JSON file, sent as a request's body.
        "  - dictionary: { t: \"${secrets.API_TOKEN}\" }\n  - convert: json\n  - get-contents-of-url: { url: \"BASE/echo\", method: post, body: \"${previous}\" }",
        // Its length plus one.
        "  - text: \"${secrets.API_TOKEN}\"\n  - count: characters\n  - calculate: \"${previous} + 1\"\n  - get-contents-of-url: \"BASE/echo?n=${previous}\"",
        // Guessed through a branch on it: what the branch sends tells the secret's first letter.
        "  - if: ${secrets.API_TOKEN matches '^t'}\n    then:\n      - get-contents-of-url: \"BASE/echo?first=t\"",
        // A variable set from it, read in a loop.
        "  - set: { parts: \"${secrets.API_TOKEN}\" }\n  - list: [1]\n  - for-each:\n    do:\n      - get-contents-of-url: \"BASE/echo?p=${parts}\"",
    ])
    func pinnedSecretFollowed(steps: String) async throws {
        let base = await LocalHTTPServer.base()
        let folder = try sandbox(
            "secrets: [API_TOKEN]\npermissions: { secrets: { API_TOKEN: [api.example.com] } }\nsteps:\n" + steps.replacingOccurrences(of: "BASE", with: base) + "\n")
        let sent = try await relay(["run", "w.yaml", "--allow-net=127.0.0.1"], in: folder, ["API_TOKEN": Self.token])
        #expect(sent.status == 4, "\(sent.standardError)")
        #expect(sent.standardError.contains("the secret API_TOKEN"), "\(sent.standardError)")
        expectNoLeak(sent.standardOutput + sent.standardError, "the run")
    }

    @Test("a workflow run by a step gets its input with the secrets it was made from, and gives them back with its output")
    func subWorkflowFollowed() async throws {
        let base = await LocalHTTPServer.base()
        let folder = try sandbox(
            "secrets: [API_TOKEN]\npermissions: { secrets: { API_TOKEN: [api.example.com] } }\nsteps:\n  - text: \"${secrets.API_TOKEN}\"\n  - run-workflow: send.yaml\n")
        try "steps:\n  - split-text: characters\n  - combine-text: \".\"\n  - get-contents-of-url: \"\(base)/echo?x=${previous}\"\n"
            .write(to: folder.appendingPathComponent("send.yaml"), atomically: true, encoding: .utf8)
        let sent = try await relay(["run", "w.yaml", "--allow-net=127.0.0.1"], in: folder, ["API_TOKEN": Self.token])
        #expect(sent.status == 4 && sent.standardError.contains("the secret API_TOKEN"), "\(sent.standardError)")
        try "steps:\n  - count: characters\n".write(to: folder.appendingPathComponent("send.yaml"), atomically: true, encoding: .utf8)
        let counted = try await relay(["run", "w.yaml"], in: folder, ["API_TOKEN": Self.token])
        #expect(counted.status == 0 && counted.standardOutput == "•••\n", "\(counted.standardOutput)\(counted.standardError)")
    }

    @Test("what is made from a secret is shown as ••• whole: a number from it, a text of its letters, a branch chosen by it")
    func madeFromSecretShown() async throws {
        for (steps, shown) in [
            ("  - text: \"${secrets.API_TOKEN}\"\n  - count: characters\n  - calculate: \"${previous} + 1\"", "•••\n"),
            ("  - split-text: { text: \"${secrets.API_TOKEN}\", by: characters }\n  - combine-text: \".\"", "•••\n"),
            ("  - if: ${secrets.API_TOKEN matches '^t'}\n    then:\n      - text: starts with t\n    else:\n      - text: does not", "•••\n"),
            // Each time of a loop starts from the loop's input, whatever the time before left.
            (
                "  - text: \"${secrets.API_TOKEN}\"\n  - repeat: 2\n    do:\n      - count: characters\n"
                    + "      - set: { last: \"${previous}\" }\n      - number: 0\n  - text: \"${last} characters\"", "•••\n"
            ),
            // A block's input given by `input:` carries its secrets into the block.
            (
                "  - number: 1\n  - repeat: 1\n    input: \"${secrets.API_TOKEN}\"\n    do:\n      - count: characters\n"
                    + "      - set: { n: \"${previous}\" }\n  - text: \"${n} characters\"", "•••\n"
            ),
            // A variable a branch on it did not set tells as much as one it set: the branch not
            // taken, the step its `if:` skipped, the case not matched, the `on-error` not run.
            (
                "  - set: { flag: \"no\" }\n  - if: ${secrets.API_TOKEN matches '^z'}\n    then: [ { set: { flag: \"yes\" } } ]\n"
                    + "  - text: \"${flag}\"", "•••\n"
            ),
            ("  - text: \"no\"\n    as: flag\n  - text: \"yes\"\n    as: flag\n    when: ${secrets.API_TOKEN matches '^z'}\n  - text: \"${flag}\"", "•••\n"),
            ("  - set: { flag: \"no\" }\n  - set: { flag: \"yes\" }\n    when: ${secrets.API_TOKEN matches '^z'}\n  - text: \"${flag}\"", "•••\n"),
            (
                "  - set: { flag: \"no\" }\n  - match: ${secrets.API_TOKEN}\n    cases:\n      zzz: [ { set: { flag: \"yes\" } } ]\n"
                    + "  - text: \"${flag}\"", "•••\n"
            ),
            (
                "  - set: { flag: \"ok\" }\n  - split-text: { text: \"${secrets.API_TOKEN}\", by: characters }\n"
                    + "    on-error: [ { set: { flag: \"failed\" } } ]\n  - text: \"${flag}\"", "•••\n"
            ),
            // A loop that runs no time, by a count made from it, leaves what it would have set, too.
            (
                "  - set: { flag: \"no\" }\n  - text: \"${secrets.API_TOKEN}\"\n  - count: characters\n  - calculate: \"${previous} - 22\"\n"
                    + "  - repeat: ${previous}\n    do: [ { set: { flag: \"yes\" } } ]\n  - text: \"${flag}\"", "•••\n"
            ),
            // A file variable set before its file was written from the secret, or deleted in a
            // branch on it, reads the file as it is now: its size tells of the secret.
            (
                "  - text: public\n  - save-file: { to: \"${scratch}/p.txt\", overwrite: true }\n    as: pf\n  - text: \"${secrets.API_TOKEN}\"\n"
                    + "  - save-file: { to: \"${scratch}/p.txt\", overwrite: true }\n  - nothing\n  - text: \"${pf.size}\"", "•••\n"
            ),
            (
                "  - text: public\n  - save-file: { to: \"${scratch}/p.txt\", overwrite: true }\n    as: pf\n"
                    + "  - if: ${secrets.API_TOKEN matches '^t'}\n    then: [ { delete-file: \"${pf}\" } ]\n"
                    + "  - text: \"${pf.size}\"\n    on-error: [ { text: gone } ]", "•••\n"
            ),
            // What is not made from it is shown as it is.
            ("  - text: \"${secrets.API_TOKEN}\"\n    as: kept\n  - number: 41\n  - calculate: \"${previous} + 1\"", "42\n"),
        ] {
            let folder = try sandbox("secrets: [API_TOKEN]\nsteps:\n" + steps + "\n")
            let run = try await relay(["run", "w.yaml"], in: folder, ["API_TOKEN": Self.token])
            #expect(run.status == 0 && run.standardOutput == shown, "\(steps): \(run.standardOutput)\(run.standardError)")
        }
    }

    @Test("a file written from a secret is that secret's: read back, copied and read, or where a program may read it, it is held to the pin")
    func throughFiles() async throws {
        let folder = try sandbox("steps:\n  - nothing\n")
        let header = "secrets: [API_TOKEN]\npermissions: { secrets: { API_TOKEN: [api.example.com] } }\nsteps:\n"
            + "  - text: \"${secrets.API_TOKEN}\"\n  - save-file: { to: \"${scratch}/t.txt\", overwrite: true }\n"
        for (steps, shown) in [
            ("  - read-file: \"${scratch}/t.txt\"\n  - base64-encode\n", "•••\n"),
            ("  - copy-file: { file: \"${scratch}/t.txt\", to: \"${scratch}/u.txt\" }\n  - read-file: \"${scratch}/u.txt\"\n  - base64-encode\n", "•••\n"),
            // Renamed by its path (no value made from the secret in the step): it takes its secret along.
            (
                "  - text: \"${scratch}/t.txt\"\n  - rename-file: { file: \"${previous}\", name: v.txt }\n  - text: \"${scratch}/v.txt\"\n"
                    + "  - read-file: \"${previous}\"\n  - base64-encode\n", "•••\n"
            ),
        ] {
            try (header + steps).write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
            let run = try await relay(["run", "w.yaml"], in: folder, ["API_TOKEN": Self.token])
            #expect(run.status == 0 && run.standardOutput == shown, "\(steps): \(run.standardOutput)\(run.standardError)")
        }
        let base = await LocalHTTPServer.base()
        try (header + "  - read-file: \"${scratch}/t.txt\"\n  - base64-encode:\n    as: encoded\n"
            + "  - get-contents-of-url: { url: \"\(base)/echo\", method: post, body: \"${encoded}\" }\n")
            .write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let sent = try await relay(["run", "w.yaml", "--allow-net=127.0.0.1"], in: folder, ["API_TOKEN": Self.token])
        #expect(sent.status == 4, "\(sent.standardOutput)\(sent.standardError)")
        #expect(sent.standardError.contains("pins it to api.example.com"), "\(sent.standardError)")
        // A program reads what it likes in the scratch folder (its TMPDIR), or in what the run may
        // read: started while such a file is there, it is given the secret, so its pin must name it.
        let out = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let writable = header.replacingOccurrences(of: "API_TOKEN: [api.example.com]", with: "API_TOKEN: { net: [api.example.com], write: [out] }")
        for text in [
            header + "  - nothing\n  - run-shell-script: 'cp \"$TMPDIR/t.txt\" out/leak.txt'\n",
            writable + "  - save-file: { to: out/kept.txt, overwrite: true }\n  - delete-file: \"${scratch}/t.txt\"\n  - nothing\n"
                + "  - run-shell-script: 'cp out/kept.txt out/leak.txt'\n",
        ] {
            let grants = ["--allow-run", "--allow-write=out"]
            let steps = text
            try text.write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
            let copied = try await relay(["run", "w.yaml"] + grants, in: folder, ["API_TOKEN": Self.token])
            #expect(copied.status == 4, "\(steps): \(copied.standardOutput)\(copied.standardError)")
            #expect(copied.standardError.contains("refused to start sh in a step given the secret API_TOKEN"), "\(copied.standardError)")
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("leak.txt").path))
        }
        // A file a step made from it in the scratch folder (a conversion, a PDF), or whatever a
        // program given it may have written there, is the secret's too: an unpinned program is refused.
        let runsSh = header.replacingOccurrences(of: "API_TOKEN: [api.example.com]", with: "API_TOKEN: { net: [api.example.com], run: [sh] }")
        for text in [
            "secrets: [API_TOKEN]\npermissions: { secrets: { API_TOKEN: { net: [api.example.com], run: [sh] } } }\nsteps:\n"
                + "  - text: \"${secrets.API_TOKEN}\"\n  - convert: html\n  - nothing\n  - run-shell-script: { script: 'cat \"$TMPDIR\"/*.html', shell: bash }\n",
            runsSh + "  - nothing\n  - run-shell-script: { script: 'cp \"$TMPDIR/t.txt\" \"$TMPDIR/copy.txt\"', shell: sh }\n"
                + "  - delete-file: \"${scratch}/t.txt\"\n  - nothing\n  - run-shell-script: { script: 'cat \"$TMPDIR/copy.txt\"', shell: bash }\n",
        ] {
            try text.write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
            let run = try await relay(["run", "w.yaml", "--allow-run"], in: folder, ["API_TOKEN": Self.token])
            #expect(run.status == 4, "\(text): \(run.standardOutput)\(run.standardError)")
            #expect(run.standardError.contains("refused to start bash in a step given the secret API_TOKEN"), "\(run.standardError)")
            expectNoLeak(run.standardOutput + run.standardError, "the run")
        }
        // Once the file is gone, a program is given nothing of it.
        try (header + "  - delete-file: \"${scratch}/t.txt\"\n  - nothing\n  - run-shell-script: 'echo ran'\n")
            .write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let after = try await relay(["run", "w.yaml", "--allow-run"], in: folder, ["API_TOKEN": Self.token])
        #expect(after.status == 0 && after.standardOutput == "ran\n", "\(after.standardOutput)\(after.standardError)")
    }

    @Test("a file named from a secret is listed by undo with the secret masked, and still undone")
    func secretInFileName() async throws {
        let folder = try sandbox("secrets: [API_TOKEN]\nsteps:\n  - text: hello\n  - save-file: \"out-${secrets.API_TOKEN}.txt\"\n")
        let run = try await relay(["run", "w.yaml", "--allow-write=."], in: folder, ["API_TOKEN": Self.token])
        #expect(run.status == 0, "\(run.standardError)")
        let written = folder.appendingPathComponent("out-\(Self.token).txt")
        #expect(FileManager.default.fileExists(atPath: written.path))
        let listing = try await relay(["undo", "--list"], in: folder)
        // Named as the granted folder it is in: the rest may be made from the secret.
        #expect(listing.standardOutput.contains("created  ") && listing.standardOutput.contains("/•••\n"), "\(listing.standardOutput)")
        expectNoLeak(listing.standardOutput + listing.standardError, "undo --list")
        let undone = try await relay(["undo"], in: folder)
        #expect(undone.status == 0, "\(undone.standardError)")
        #expect(!FileManager.default.fileExists(atPath: written.path))
    }

    @Test("a pin's long form lets what is made from a secret be written in its folders and handed to its programs, and nowhere else")
    func longFormPin() async throws {
        let folder = try sandbox("steps:\n  - nothing\n")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("reports"), withIntermediateDirectories: true)
        func run(_ steps: String) async throws -> RelayProcess.Result {
            try """
                secrets: [API_TOKEN]
                permissions: { secrets: { API_TOKEN: { net: [api.example.com], write: [reports], run: [sh] } } }
                steps:
                  - text: "${secrets.API_TOKEN}"
                  - base64-encode

                """.appending(steps).write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
            return try await relay(["run", "w.yaml", "--allow-write=.", "--allow-run"], in: folder, ["API_TOKEN": Self.token])
        }
        let kept = try await run("  - save-file: { to: reports/token.txt }\n  - text: saved\n")
        #expect(kept.status == 0 && kept.standardOutput == "saved\n", "\(kept.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("reports/token.txt").path))
        let elsewhere = try await run("  - save-file: { to: token.txt }\n")
        #expect(elsewhere.status == 4, "\(elsewhere.standardError)")
        #expect(elsewhere.standardError.contains("pins it to api.example.com, writing in"), "\(elsewhere.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("token.txt").path))
        let handed = try await run("  - run-shell-script: \"cat > /dev/null; echo read\"\n")
        // Allowed; what it prints is made from what it was given, whatever it is.
        #expect(handed.status == 0 && handed.standardOutput == "•••\n", "\(handed.standardOutput)\(handed.standardError)")
        // What the program gives back is made from what it was given.
        let encoded = try await run("  - run-shell-script: base64\n")
        #expect(encoded.status == 0 && encoded.standardOutput == "•••\n", "\(encoded.standardOutput)\(encoded.standardError)")
        let other = try await run("  - run-shell-script: { script: \"cat > /dev/null; echo read\", shell: bash }\n")
        #expect(other.status == 4, "\(other.standardError)")
        #expect(other.standardError.contains("the program sh"), "\(other.standardError)")
        // A misspelt place is a located error with a suggestion.
        try "secrets: [API_TOKEN]\npermissions: { secrets: { API_TOKEN: { wirte: [reports] } } }\nsteps:\n  - nothing\n"
            .write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let misspelt = try await relay(["check", "w.yaml"], in: folder)
        #expect(misspelt.status != 0 && misspelt.standardError.contains("w.yaml:2:40: error: the secret 'API_TOKEN' in 'permissions' may go to 'net', 'write' or 'run', not 'wirte'"), "\(misspelt.standardError)")
        #expect(misspelt.standardError.contains("did you mean 'write'"), "\(misspelt.standardError)")
    }

    @Test("a fail whose message is made from a secret says ••• whole, a number from it too")
    func failMadeFromSecret() async throws {
        let folder = try sandbox(
            "secrets: [API_TOKEN]\nsteps:\n  - text: \"${secrets.API_TOKEN}\"\n  - count: characters\n  - fail: \"length ${previous}\"\n")
        let run = try await relay(["run", "w.yaml"], in: folder, ["API_TOKEN": Self.token])
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardError.contains("step 'fail': •••\n"), "\(run.standardError)")
        #expect(!run.standardError.contains("length \(Self.token.count)"), "\(run.standardError)")
    }

    @Test("a secret rebuilt in a step's parameter is not shown by its error, in standard error, a retry's trace, ${error} or the history")
    func rebuiltInError() async throws {
        let letters = (1...8).map { "${c[\($0)]}" }.joined(separator: " ")
        let folder = try sandbox(
            "secrets: [API_TOKEN]\nsteps:\n  - split-text: { text: \"${secrets.API_TOKEN}\", by: characters }\n    as: c\n"
                + "  - number: \"q \(letters)\"\n    retry: { times: 1, delay: 0 }\n    on-error: [ { text: \"${error}\" } ]\n")
        let run = try await relay(["run", "w.yaml", "--trace"], in: folder, ["API_TOKEN": Self.token])
        #expect(run.standardError.contains("attempt 1 of 2 failed: its message is not shown"), "\(run.standardError)")
        #expect(run.status == 0, "\(run.standardError)")
        // The token's first letters, spaced out as the parameter spaced them; ${error}, the output, is •••.
        let spaced = Self.token.prefix(8).map(String.init).joined(separator: " ")
        #expect(!run.standardOutput.contains(spaced) && run.standardOutput == "•••\n", "\(run.standardOutput)")
        #expect(!run.standardError.contains(spaced), "\(run.standardError)")
        let failing = try sandbox(
            "secrets: [API_TOKEN]\nsteps:\n  - split-text: { text: \"${secrets.API_TOKEN}\", by: characters }\n    as: c\n"
                + "  - number: \"q \(letters)\"\n")
        let failed = try await relay(["run", "w.yaml"], in: failing, ["API_TOKEN": Self.token])
        #expect(failed.status == 1, "\(failed.standardError)")
        #expect(failed.standardError.contains("w.yaml:5:5: error: step 'number': its message is not shown: it holds a value made from a secret (•••)"), "\(failed.standardError)")
        for place in [folder, failing] {
            let listed = try await relay(["runs", "--json"], in: place)
            #expect(!listed.standardOutput.contains(spaced), "\(listed.standardOutput)")
        }
    }

    @Test("on-error steps and the steps after a stop are chosen by what chose them; a denial or a note does not name what was made from a secret")
    func chosenByFailureOrStop() async throws {
        let base = await LocalHTTPServer.base()
        let header = "secrets: [API_TOKEN]\npermissions: { net: [127.0.0.1], write: [out], secrets: { API_TOKEN: [api.example.com] } }\nsteps:\n"
        // Whether the on-error steps run, or the steps after a stop, tells of the condition.
        for steps in [
            "  - if: ${secrets.API_TOKEN matches '^t'}\n    then: [ { fail: x } ]\n    on-error: [ { get-contents-of-url: \"\(base)/echo\" } ]\n",
            "  - if: ${secrets.API_TOKEN matches '^z'}\n    then: [ { stop } ]\n  - get-contents-of-url: \"\(base)/echo\"\n",
        ] {
            let folder = try sandbox(header + steps)
            let run = try await relay(["run", "w.yaml", "--allow-net=127.0.0.1", "--allow-write=out"], in: folder, ["API_TOKEN": Self.token])
            #expect(run.status == 4, "\(steps): \(run.standardOutput)\(run.standardError)")
            // Chosen by the secret, the step does not say where it would have gone, either.
            #expect(run.standardError.contains("refused to connect to ••• in a step given the secret API_TOKEN"), "\(run.standardError)")
        }
        // A value made before, shown or quoted by a step a branch on it chose: which one is shown
        // tells of it, so none is.
        for steps in [
            "  - text: visible-text\n    as: p\n  - if: ${secrets.API_TOKEN matches '^t'}\n    then: [ { number: \"${p}\" } ]\n",
            "  - text: visible-text\n    as: p\n  - if: ${secrets.API_TOKEN matches '^t'}\n    then: [ { notify: \"${p}\" } ]\n",
        ] {
            let folder = try sandbox(header + steps)
            let run = try await relay(["run", "w.yaml", "--allow-net=127.0.0.1", "--allow-write=out"], in: folder, ["API_TOKEN": Self.token])
            #expect(!run.standardError.contains("visible-text"), "\(steps): \(run.standardError)")
            // The history's errors neither (the first step's own output is its own).
            let shown = try await relay(["runs", "show", "last", "--json"], in: folder)
            let errors = shown.standardOutput.split(separator: "\n").filter { $0.contains("\"error") }
            #expect(!errors.contains { $0.contains("visible-text") }, "\(errors)")
        }
        // A path made of its letters, refused; a short piece of it quoted in a note.
        let letters = (1...12).map { "${c[\($0)]}" }
        let split = "  - split-text: { text: \"${secrets.API_TOKEN}\", by: characters }\n    as: c\n"
        for steps in [
            split + "  - create-folder: \"out/\(letters[0..<4].joined())/\(letters[4..<8].joined())/\(letters[8..<12].joined())\"\n",
            split + "  - text: \"\(letters[0..<4].joined())\"\n  - format-date: x\n",
        ] {
            let folder = try sandbox(header + steps)
            let run = try await relay(["run", "w.yaml", "--allow-write=out", "--allow-net=127.0.0.1"], in: folder, ["API_TOKEN": Self.token])
            #expect(run.status != 0, "\(run.standardError)")
            #expect(run.standardError.contains("step '"), "\(run.standardError)")
            #expect(!run.standardError.contains(String(Self.token.prefix(4))), "\(steps): \(run.standardError)")
            let shown = try await relay(["runs", "show", "last"], in: folder)
            #expect(!shown.standardOutput.contains(String(Self.token.prefix(4))), "\(shown.standardOutput)")
        }
    }

    @Test("a stop chosen by a secret in a loop chooses the later turns: they send nothing elsewhere, and how many ran is not kept or shown")
    func stopInLoopChoosesLaterTurns() async throws {
        let base = await LocalHTTPServer.base()
        let header = "secrets: [API_TOKEN]\npermissions: { net: [127.0.0.1], secrets: { API_TOKEN: [api.example.com] } }\nsteps:\n"
            + "  - split-text: { text: \"${secrets.API_TOKEN}\", by: characters }\n  - get-item: 1\n    as: c\n"
        // The first letter, found by how far a loop over the alphabet got before a branch on it stopped.
        for loop in [
            "  - for-each: [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y, z]\n    as: L\n    do:\n",
            "  - for-each: [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x, y, z]\n    as: L\n    parallel: 2\n    do:\n",
        ] {
            let folder = try sandbox(
                header + loop + "      - get-contents-of-url: \"\(base)/echo?${L}\"\n      - if: ${L == c}\n        then: [ { stop } ]\n")
            let run = try await relay(["run", "w.yaml", "--allow-net=127.0.0.1"], in: folder, ["API_TOKEN": Self.token])
            #expect(run.status == 4, "\(loop): \(run.standardOutput)\(run.standardError)")
            #expect(run.standardError.contains("refused to connect to ••• in a step given the secret API_TOKEN"), "\(run.standardError)")
        }
        // Counted, traced or shown as progress, the turns before the stop would say where it was.
        let folder = try sandbox(
            header + "  - repeat: 26\n    do:\n      - text: inside\n      - if: ${index == 20}\n        then: [ { stop } ]\n"
                + "      - if: ${c == 'q'}\n        then: [ { stop } ]\n  - text: done\n")
        let run = try await relay(["run", "w.yaml", "--trace", "--allow-net=127.0.0.1"], in: folder, ["API_TOKEN": Self.token])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.components(separatedBy: "trace: w.yaml:9: text").count == 2, "\(run.standardError)")
        let listed = try await relay(["runs", "show", "last", "--json"], in: folder)
        #expect(listed.standardOutput.range(of: #""runs": *20\b"#, options: .regularExpression) == nil, "\(listed.standardOutput)")
    }

    @Test("an error does not quote a short item of a list made from a secret, nor say how long the list or a text made from it is")
    func shortItemsAndSizes() async throws {
        let split = "secrets: [API_TOKEN]\nsteps:\n  - text: \"${secrets.API_TOKEN}\"\n"
        for (steps, hidden) in [
            ("  - match-text: \".{1,5}\"\n  - get-item: { from: 2, to: -1 }\n  - get-value: zzz\n", String(Self.token.dropFirst(5).prefix(5))),
            ("  - split-text: characters\n  - get-item: { from: 3, to: 3 }\n  - round-number\n", "'\(Self.token.dropFirst(2).prefix(1))'"),
            ("  - split-text: characters\n    as: cs\n  - number: \"${cs}\"\n", "\(Self.token.count) items"),
        ] {
            let folder = try sandbox(split + steps)
            let run = try await relay(["run", "w.yaml"], in: folder, ["API_TOKEN": Self.token])
            #expect(run.status == 1, "\(steps): \(run.standardError)")
            #expect(run.standardError.contains("its message is not shown"), "\(steps): \(run.standardError)")
            #expect(!run.standardError.contains(hidden), "\(steps): \(run.standardError)")
            let shown = try await relay(["runs", "show", "last"], in: folder)
            #expect(!shown.standardOutput.contains(hidden), "\(shown.standardOutput)")
        }
    }

    @Test("--trace does not say the type of a value a secret chose; undo --list and a dry run do not name a place made from one, however short its pieces")
    func placesAndTypesMadeFromSecret() async throws {
        let branch = try sandbox(
            "secrets: [API_TOKEN]\nsteps:\n  - if: ${secrets.API_TOKEN matches '^t'}\n    then: [ { number: 1 } ]\n    else: [ { text: abc } ]\n")
        let traced = try await relay(["run", "w.yaml", "--trace"], in: branch, ["API_TOKEN": Self.token])
        #expect(traced.status == 0, "\(traced.standardError)")
        #expect(traced.standardError.contains("w.yaml:3: if → ••• ("), "\(traced.standardError)")
        #expect(!traced.standardError.contains("if → number") && !traced.standardError.contains("if → text"), "\(traced.standardError)")

        // Pieces of three letters, too short to be known as the secret's.
        let split = "  - split-text: { text: \"${secrets.API_TOKEN}\", by: characters }\n    as: c\n"
        let piece = String(Self.token.prefix(3))
        let pinned = try sandbox(
            "secrets: [API_TOKEN]\npermissions: { write: [out], secrets: { API_TOKEN: { write: [out] } } }\nsteps:\n" + split
                + "  - text: hi\n  - save-file: \"out/a-${c[1]}${c[2]}${c[3]}.txt\"\n")
        let wrote = try await relay(["run", "w.yaml", "--allow-declared"], in: pinned, ["API_TOKEN": Self.token])
        #expect(wrote.status == 0, "\(wrote.standardError)")
        let listed = try await relay(["undo", "--list"], in: pinned)
        #expect(listed.standardOutput.contains("/out/•••"), "\(listed.standardOutput)")
        #expect(!listed.standardOutput.contains("a-\(piece)"), "\(listed.standardOutput)")

        // A dry run holds the secret to its pins, and does not name what it would touch.
        let dry = try sandbox(
            "secrets: [API_TOKEN]\npermissions: { secrets: { API_TOKEN: { write: [out] } } }\nsteps:\n" + split
                + "  - text: hi\n  - save-file: \"elsewhere/${c[1]}${c[2]}${c[3]}.txt\"\n")
        let refused = try await relay(["run", "w.yaml", "--dry-run"], in: dry, ["API_TOKEN": Self.token])
        #expect(refused.status == 4, "\(refused.standardError)")
        #expect(!refused.standardError.contains("/\(piece)"), "\(refused.standardError)")
        let unpinned = try sandbox(
            "secrets: [API_TOKEN]\nsteps:\n" + split + "  - text: hi\n  - save-file: \"out/${c[1]}${c[2]}${c[3]}.txt\"\n"
                + "  - open: \"https://example.com/?t=${c[1]}${c[2]}${c[3]}\"\n  - open: \"https://example.com/?t=${secrets.API_TOKEN}\"\n")
        let skipped = try await relay(["run", "w.yaml", "--dry-run"], in: unpinned, ["API_TOKEN": Self.token])
        #expect(skipped.status == 0, "\(skipped.standardError)")
        #expect(skipped.standardError.contains("save-file would write •••"), "\(skipped.standardError)")
        #expect(!skipped.standardError.contains(piece) && !skipped.standardError.contains("t=\(Self.token)"), "\(skipped.standardError)")
    }

    @Test("a variables: default made from a secret is the secret's; secrets are read by name only, not whole or by an index")
    func defaultsAndWholeSecrets() async throws {
        let base = await LocalHTTPServer.base()
        let header = "secrets: [API_TOKEN]\npermissions: { net: [127.0.0.1], secrets: { API_TOKEN: [api.example.com] } }\n"
        let spread = "  - split-text: characters\n  - combine-text: \"-\"\n"
        let defaulted = try sandbox(header + "variables:\n  t: \"${secrets.API_TOKEN}\"\nsteps:\n  - text: \"${t}\"\n" + spread)
        let shown = try await relay(["run", "w.yaml", "--allow-net=127.0.0.1"], in: defaulted, ["API_TOKEN": Self.token])
        #expect(shown.status == 0 && shown.standardOutput == "•••\n", "\(shown.standardOutput)\(shown.standardError)")
        let sent = try sandbox(
            header + "variables:\n  t: \"${secrets.API_TOKEN}\"\nsteps:\n  - text: \"${t}\"\n" + spread + "  - get-contents-of-url: \"\(base)/echo?${previous}\"\n")
        let refused = try await relay(["run", "w.yaml", "--allow-net=127.0.0.1"], in: sent, ["API_TOKEN": Self.token])
        #expect(refused.status == 4, "\(refused.standardError)")
        for read in ["${secrets}", "${secrets['API_TOKEN']}", "${secrets[previous]}"] {
            let folder = try sandbox(header + "steps:\n  - text: \"\(read)\"\n")
            let run = try await relay(["run", "w.yaml"], in: folder, ["API_TOKEN": Self.token])
            #expect(run.status == 2, "\(read): \(run.standardOutput)\(run.standardError)")
            #expect(run.standardError.contains("w.yaml:4:14: error: secrets are read one at a time, as ${secrets.NAME}"), "\(run.standardError)")
            #expect(!run.standardOutput.contains(String(Self.token.prefix(6))))
        }
    }

    @Test("a step chosen by a secret shows, notifies and warns of nothing, and asks nothing; a dry run says nothing of it")
    func chosenStepsSayNothing() async throws {
        let loop = "secrets: [API_TOKEN]\nsteps:\n  - list: [a, s, t, u]\n  - for-each: ${previous}\n    as: letter\n    do:\n"
            + "      - show: \"${letter}\"\n      - if: ${secrets.API_TOKEN matches '^' + letter}\n        then:\n"
        for (then, arguments) in [
            ("          - show: hit\n", [String]()),
            ("          - notify: hit\n", []),
            ("          - find-files: .\n", []),
            ("          - save-file: out.txt\n", ["--dry-run"]),
            ("          - open: https://example.com\n", ["--dry-run"]),
        ] {
            let folder = try sandbox(loop + then)
            let run = try await relay(["run", "w.yaml"] + arguments, in: folder, ["API_TOKEN": Self.token, "PATH": "/usr/bin:/bin"])
            #expect(run.status == 0, "\(then): \(run.standardError)")
            // The letters in order, and nothing between them, whichever matched.
            #expect(run.standardOutput.hasPrefix("a\ns\nt\nu\n"), "\(then): \(run.standardOutput)")
            #expect(!run.standardError.contains("•••") && !run.standardError.contains("dry run") && !run.standardError.contains("warning"), "\(then): \(run.standardError)")
        }
        let asking = try sandbox(
            "secrets: [API_TOKEN]\nsteps:\n  - if: ${secrets.API_TOKEN matches '^t'}\n    then:\n      - ask: Sure?\n        default: yes\n")
        let asked = try await relay(["run", "w.yaml", "--answer", "Sure?=yes"], in: asking, ["API_TOKEN": Self.token])
        #expect(asked.status == 1, "\(asked.standardError)")
        #expect(asked.standardError.contains("a step it chose by a secret failed"), "\(asked.standardError)")
    }

    @Test("a secret is never on a program's command line, where every user can read it: a script given one is run from a file; a URL made from one is not opened")
    func notOnCommandLines() async throws {
        let pin = "secrets: [API_TOKEN]\npermissions: { secrets: { API_TOKEN: { net: [api.example.com], run: [sh] } } }\nsteps:\n"
        let script = try sandbox(pin + "  - run-shell-script: 'echo \"$0\" | grep -c relay-scratch; echo ran # ${secrets.API_TOKEN}'\n")
        let ran = try await relay(["run", "w.yaml", "--allow-run"], in: script, ["API_TOKEN": Self.token])
        #expect(ran.status == 0, "\(ran.standardError)")
        // Run from a file in the scratch folder: $0 is its path.
        #expect(ran.standardOutput == "•••\n", "\(ran.standardOutput)")
        let arguments = try sandbox(pin + "  - run-shell-script: { script: 'echo \"$@\"', input-mode: arguments }\n    input: \"${secrets.API_TOKEN}\"\n")
        let refused = try await relay(["run", "w.yaml", "--allow-run"], in: arguments, ["API_TOKEN": Self.token])
        #expect(refused.status == 1, "\(refused.standardError)")
        #expect(refused.standardError.contains("is not given as a program's arguments"), "\(refused.standardError)")
        let opened = try sandbox(
            "secrets: [API_TOKEN]\npermissions: { secrets: { API_TOKEN: [api.example.com] } }\nsteps:\n  - open: \"https://api.example.com/?t=${secrets.API_TOKEN}\"\n")
        let notOpened = try await relay(["run", "w.yaml", "--allow-open", "--open-with", "echo"], in: opened, ["API_TOKEN": Self.token])
        #expect(notOpened.status == 1, "\(notOpened.standardError)")
        expectNoLeak(notOpened.standardOutput + notOpened.standardError, "open")
    }

    @Test("relay undo does not name a path made from a secret in what it could not revert, nor undo --list after")
    func undoMessagesMasked() async throws {
        let folder = try sandbox(
            "secrets: [API_TOKEN]\npermissions: { write: [pinned], secrets: { API_TOKEN: { write: [pinned] } } }\nsteps:\n"
                + "  - split-text: { text: \"${secrets.API_TOKEN}\", by: characters }\n    as: c\n"
                + "  - rename-file: { file: pinned/plain.txt, name: \"r-${c[1]}${c[2]}${c[3]}.txt\" }\n"
                + "  - text: content\n  - save-file: \"pinned/d-${c[1]}${c[2]}${c[3]}/x.txt\"\n")
        let pinned = folder.appendingPathComponent("pinned")
        try FileManager.default.createDirectory(at: pinned, withIntermediateDirectories: true)
        try "old".write(to: pinned.appendingPathComponent("plain.txt"), atomically: true, encoding: .utf8)
        let run = try await relay(["run", "w.yaml", "--allow-declared"], in: folder, ["API_TOKEN": Self.token])
        #expect(run.status == 0, "\(run.standardError)")
        // Tidied since: the folder made is gone, and a new file took the old name.
        let piece = String(Self.token.prefix(3))
        try FileManager.default.removeItem(at: pinned.appendingPathComponent("d-\(piece)"))
        try "new".write(to: pinned.appendingPathComponent("plain.txt"), atomically: true, encoding: .utf8)
        let undone = try await relay(["undo"], in: folder)
        #expect(undone.standardError.contains("not reverted"), "\(undone.standardError)")
        #expect(!(undone.standardOutput + undone.standardError).contains(piece), "\(undone.standardOutput)\(undone.standardError)")
        let listed = try await relay(["undo", "--list"], in: folder)
        #expect(!listed.standardOutput.contains(piece), "\(listed.standardOutput)")
    }

    @Test("a workflow's declared output that a value made from a secret is not: the error does not quote it, however short")
    func outputNotQuoted() async throws {
        let folder = try sandbox(
            "secrets: [API_TOKEN]\noutput: number\nsteps:\n  - split-text: { text: \"${secrets.API_TOKEN}\", by: characters }\n"
                + "  - get-item: { from: 1, to: 4 }\n  - combine-text: \"\"\n")
        let run = try await relay(["run", "w.yaml"], in: folder, ["API_TOKEN": Self.token])
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardError.contains("its message is not shown"), "\(run.standardError)")
        #expect(!run.standardError.contains(String(Self.token.prefix(4))), "\(run.standardError)")
    }

    @Test("what a program given a secret writes to standard error is not in its step's error, in whatever form")
    func programErrorsHidden() async throws {
        let folder = try sandbox(
            "secrets: [API_TOKEN]\npermissions: { secrets: { API_TOKEN: { net: [api.example.com], run: [sh] } } }\nsteps:\n"
                + "  - text: \"${secrets.API_TOKEN}\"\n  - run-shell-script: 'read v; echo \"$v\" | rev >&2; exit 1'\n")
        let run = try await relay(["run", "w.yaml", "--allow-run"], in: folder, ["API_TOKEN": Self.token])
        #expect(run.status == 1, "\(run.standardError)")
        #expect(run.standardError.contains("the script exited with status 1 (what it wrote to standard error is not shown"), "\(run.standardError)")
        #expect(!run.standardError.contains(String(Self.token.reversed().prefix(8))), "\(run.standardError)")
    }

    @Test("how often a step chosen by a secret ran is not in the history, the trace or a loop's progress")
    func countsChosenBySecret() async throws {
        let folder = try sandbox(
            "secrets: [PIN]\nsteps:\n  - number: \"${secrets.PIN}\"\n    as: n\n  - repeat: ${n % 1000}\n    do:\n      - text: inside\n  - text: done\n")
        let run = try await relay(["run", "w.yaml", "--trace"], in: folder, ["PIN": "4829173"])
        #expect(run.status == 0 && run.standardOutput == "done\n", "\(run.standardOutput)\(run.standardError)")
        #expect(!run.standardError.contains("trace: w.yaml:7: text"), "\(run.standardError)")
        #expect(run.standardError.contains("trace: w.yaml:5: repeat"), "\(run.standardError)")
        let listed = try await relay(["runs", "--json"], in: folder)
        // No count of 173 (a duration or a date may hold those digits), and no record of the inner step.
        #expect(listed.standardOutput.range(of: #""(runs|skipped|attempts)": *173\b"#, options: .regularExpression) == nil, "\(listed.standardOutput)")
        #expect(!listed.standardOutput.contains("w.yaml:7:9"), "\(listed.standardOutput)")
        #expect(listed.standardOutput.contains("w.yaml:5:5"), "\(listed.standardOutput)")
    }

    @Test("a pinned secret sent to another host, written to a file or handed to a program is refused with exit 4")
    func pinnedSecretStaysPinned() async throws {
        let base = await LocalHTTPServer.base()
        let folder = try sandbox(
            """
            secrets: [API_TOKEN]
            permissions: { secrets: { API_TOKEN: [api.example.com] } }
            steps:
              - get-contents-of-url: { url: "\(base)/echo", headers: { X-Token: "${secrets.API_TOKEN}" } }
            """)
        let sent = try await relay(["run", "w.yaml", "--allow-net=127.0.0.1"], in: folder, ["API_TOKEN": Self.token])
        #expect(sent.status == 4, "\(sent.standardError)")
        #expect(sent.standardError.contains("connect to 127.0.0.1"), "\(sent.standardError)")
        #expect(sent.standardError.contains("the secret API_TOKEN"), "\(sent.standardError)")
        #expect(sent.standardError.contains("pins it to api.example.com"), "\(sent.standardError)")
        expectNoLeak(sent.standardError, "the denial")

        try """
            secrets: [API_TOKEN]
            permissions: { secrets: { API_TOKEN: [api.example.com] } }
            steps:
              - text: "token=${secrets.API_TOKEN}"
              - save-file: { to: out.txt }
            """.write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let written = try await relay(["run", "w.yaml", "--allow-write=."], in: folder, ["API_TOKEN": Self.token])
        #expect(written.status == 4, "\(written.standardError)")
        #expect(written.standardError.contains("write"), "\(written.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.txt").path))

        try """
            secrets: [API_TOKEN]
            permissions: { secrets: { API_TOKEN: [api.example.com] } }
            steps:
              - run-shell-script: { script: "echo hi", input: "${secrets.API_TOKEN}" }
            """.write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let program = try await relay(["run", "w.yaml", "--allow-run"], in: folder, ["API_TOKEN": Self.token])
        #expect(program.status == 4, "\(program.standardError)")

        // Unpinned, it goes wherever the run may connect, and is still never shown.
        try """
            secrets: [API_TOKEN]
            steps:
              - get-contents-of-url: { url: "\(base)/echo", headers: { X-Token: "${secrets.API_TOKEN}" } }
            """.write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let unpinned = try await relay(["run", "w.yaml", "--allow-net=127.0.0.1"], in: folder, ["API_TOKEN": Self.token])
        #expect(unpinned.status == 0, "\(unpinned.standardError)")
        #expect(unpinned.standardOutput.contains("\"x-token\": \"•••\""), "\(unpinned.standardOutput)")
        expectNoLeak(unpinned.standardOutput, "standard output")
    }

    @Test("relay secrets set, list and remove keep values in a 0600 file; a file others may read is refused, naming chmod 600")
    func secretsFile() async throws {
        let folder = try sandbox(
            """
            secrets: [API_TOKEN]
            steps:
              - text: "${secrets.API_TOKEN}"
              - save-file: { to: token.txt, overwrite: true }
              - text: kept
            """)
        let set = try await relay(["secrets", "set", "API_TOKEN"], in: folder, input: Self.token + "\n")
        #expect(set.status == 0, "\(set.standardError)")
        let file = folder.appendingPathComponent("config/relay/secrets.json").path
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let listed = try await relay(["secrets", "list"], in: folder)
        #expect(listed.standardOutput == "API_TOKEN\n")
        expectNoLeak(listed.standardOutput + set.standardOutput + set.standardError, "relay secrets")

        // The secret is not pinned, so it may be written where the run may write: the value read is the one kept.
        let token = folder.appendingPathComponent("token.txt")
        let run = try await relay(["run", "w.yaml", "--allow-write=\(token.path)"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "kept\n")
        #expect(try String(contentsOf: token, encoding: .utf8) == Self.token + "\n")
        // The environment comes first.
        let fromEnvironment = try await relay(["run", "w.yaml", "--allow-write=\(token.path)"], in: folder, ["API_TOKEN": "abc"])
        #expect(fromEnvironment.standardOutput == "kept\n")
        #expect(try String(contentsOf: token, encoding: .utf8) == "abc\n")

        chmod(file, 0o644)
        let refused = try await relay(["run", "w.yaml"], in: folder)
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("chmod 600"), "\(refused.standardError)")
        #expect(refused.standardError.contains("w.yaml:1:11"), "\(refused.standardError)")
        chmod(file, 0o600)

        #expect(try await relay(["secrets", "remove", "API_TOKEN"], in: folder).status == 0)
        #expect(try await relay(["secrets", "list"], in: folder).standardOutput == "")
        let unset = try await relay(["check", "w.yaml"], in: folder)
        #expect(unset.status == 2)
        #expect(unset.standardError.contains("w.yaml:1:11: error: the secret 'API_TOKEN' is not set"), "\(unset.standardError)")
        #expect(unset.standardError.contains("relay secrets set API_TOKEN"))
    }

    @Test("--set secrets.NAME, a secret's value written in the workflow and an undeclared secret are refused, saying where secrets go")
    func refusedWays() async throws {
        let folder = try sandbox(
            """
            secrets: [API_TOKEN]
            steps:
              - text: "${secrets.API_TOKEN}"
            """)
        let given = try await relay(["run", "w.yaml", "--set", "secrets.API_TOKEN=x"], in: folder)
        #expect(given.status == 2)
        #expect(given.standardError.contains("relay secrets set NAME"), "\(given.standardError)")

        try "secrets: [API_TOKEN]\nsteps:\n  - text: \"\(Self.token.dropLast(2)) ${secrets.API_TOKEN}\"\n".write(
            to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let written = try await relay(["run", "w.yaml"], in: folder, ["API_TOKEN": String(Self.token.dropLast(2))])
        #expect(written.status == 2)
        // Said at the secret's name, not where the value is: where would tell which of many guesses it is.
        #expect(written.standardError.contains("w.yaml:1:11: error: the value of the secret 'API_TOKEN' is written in the workflow file"), "\(written.standardError)")
        expectNoLeak(written.standardError, "the error")
        try "secrets: [API_TOKEN]\nsteps:\n  - text: \"0000 1111 4821 9999 ${secrets.API_TOKEN}\"\n".write(
            to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let guessed = try await relay(["check", "w.yaml"], in: folder, ["API_TOKEN": "4821"])
        #expect(guessed.status == 0 && !guessed.standardError.contains("is written"), "a short value is not looked for: \(guessed.standardError)")

        try "secrets: [API_TOKEN]\nsteps:\n  - text: \"${secrets.API_TOKN}\"\n".write(to: folder.appendingPathComponent("w.yaml"), atomically: true, encoding: .utf8)
        let misspelt = try await relay(["check", "w.yaml"], in: folder, ["API_TOKEN": "x"])
        #expect(misspelt.status == 2)
        #expect(misspelt.standardError.contains("the secret 'API_TOKN' is not declared; did you mean 'API_TOKEN'?"), "\(misspelt.standardError)")
    }

    @Test("a command line that holds a secret's value is not kept in the history, and the run cannot be run again")
    func commandLineWithSecret() async throws {
        let folder = try sandbox(
            """
            secrets: [API_TOKEN]
            steps:
              - text: "${input} ${secrets.API_TOKEN}"
            """)
        let run = try await relay(["run", "w.yaml", "--input", Self.token], in: folder, ["API_TOKEN": Self.token])
        #expect(run.status == 0, "\(run.standardError)")
        // Made from a secret (and from input that holds it), the output is shown as ••• whole.
        #expect(run.standardOutput == "•••\n")
        let listed = try await relay(["runs", "--json"], in: folder)
        expectNoLeak(listed.standardOutput, "relay runs --json")
        let again = try await relay(["runs", "rerun", "1"], in: folder, ["API_TOKEN": Self.token])
        #expect(again.status == 2)
        #expect(again.standardError.contains("its command line held a secret's value"), "\(again.standardError)")
        let state = folder.appendingPathComponent("state/relay")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? [] where name.hasPrefix("history") {
            expectNoLeak(String(decoding: try Data(contentsOf: state.appendingPathComponent(name)), as: UTF8.self), name)
        }
    }

    @Test("the REPL reads a secret with :secret and shows it as •••, in values, :vars and errors; :save declares it")
    func repl() async throws {
        let folder = try sandbox("steps:\n  - nothing\n")
        let session = try await relay(
            ["repl"], in: folder,
            input: ":secret API_TOKEN\ntext: \"key ${secrets.API_TOKEN}\"\nhash: sha256\nset: {digest: \"${previous}\"}\n:vars\nfail: \"${secrets.API_TOKEN}\"\n:save saved.yaml\n:secret MISSING\n",
            ["API_TOKEN": Self.token])
        // Made from the secret, in whatever form (its digest too): ••• whole, in values and :vars.
        #expect(session.standardOutput.components(separatedBy: "\n").filter { $0 == "•••" }.count == 3, "\(session.standardOutput)")
        #expect(session.standardOutput.contains("digest = •••"), "\(session.standardOutput)")
        // No digest, and none of what Relay keeps beside the variables.
        #expect(session.standardOutput.range(of: "[0-9a-f]{64}", options: .regularExpression) == nil, "\(session.standardOutput)")
        #expect(!session.standardOutput.contains("#"), "\(session.standardOutput)")
        #expect(session.standardError.contains("error: step 'fail': •••"), "\(session.standardError)")
        #expect(session.standardError.contains("the secret 'MISSING' is not set"), "\(session.standardError)")
        expectNoLeak(session.standardOutput + session.standardError, "the REPL")
        let saved = try String(contentsOf: folder.appendingPathComponent("saved.yaml"), encoding: .utf8)
        #expect(saved.hasPrefix("secrets: [API_TOKEN]\nsteps:\n"), "\(saved)")
        let again = try await relay(["run", "saved.yaml"], in: folder, ["API_TOKEN": Self.token])
        #expect(again.standardOutput == "•••\n", "\(again.standardOutput)\(again.standardError)")
        // :load holds the session to the loaded workflow's pins, and :type of a value made from the
        // secret says •••.
        let base = await LocalHTTPServer.base()
        try ("secrets: [API_TOKEN]\npermissions: { net: [127.0.0.1], secrets: { API_TOKEN: [api.example.com] } }\nsteps:\n"
            + "  - text: \"${secrets.API_TOKEN}\"\n  - count: characters\n  - get-contents-of-url: \"\(base)/echo?n=${previous}\"\n")
            .write(to: folder.appendingPathComponent("pinned.yaml"), atomically: true, encoding: .utf8)
        let loaded = try await relay(
            ["repl", "--allow-net=127.0.0.1"], in: folder, input: ":secret API_TOKEN\n:load pinned.yaml\n:type\n", ["API_TOKEN": Self.token])
        #expect(loaded.standardError.contains("in a step given the secret API_TOKEN"), "\(loaded.standardError)")
        #expect(!loaded.standardOutput.contains("a number") && !loaded.standardOutput.contains("/echo"), "\(loaded.standardOutput)")
    }

    @Test("a notification shows a secret as •••, and a step asking a question that holds one runs with its answer")
    func shownByActions() async throws {
        let folder = try sandbox(
            """
            secrets: [API_TOKEN]
            steps:
              - notify: "token ${secrets.API_TOKEN}"
              - ask: "Use ${secrets.API_TOKEN}?"
                as: answer
              - text: "${answer}"
            """)
        // No notify-send on this PATH: the notification is printed on standard error.
        let empty = folder.appendingPathComponent("no-programs")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let run = try await relay(["run", "w.yaml", "--allow-run", "--answer", "answer=ok"], in: folder, ["API_TOKEN": Self.token, "PATH": empty.path])
        #expect(run.status == 0, "\(run.standardError)")
        // Given the secret, the notification says nothing of its own: which text it shows would tell.
        #expect(run.standardError.contains("•••: •••"), "\(run.standardError)")
        expectNoLeak(run.standardOutput + run.standardError, "the run")
    }

    @Test("relay check --permissions lists the secrets and where each may go")
    func checkPermissions() async throws {
        let folder = try sandbox(
            """
            secrets: [API_TOKEN, OTHER]
            permissions: { net: [api.example.com], secrets: { API_TOKEN: [api.example.com] } }
            steps:
              - text: "${secrets.API_TOKEN} ${secrets.OTHER}"
            """)
        let report = try await relay(["check", "--permissions", "w.yaml"], in: folder, ["API_TOKEN": "x1", "OTHER": "y2"])
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput.contains("API_TOKEN  may be sent only to api.example.com"), "\(report.standardOutput)")
        #expect(report.standardOutput.contains("OTHER  not pinned"), "\(report.standardOutput)")
    }

    @Test("with a Secret Service in the session, relay secrets keeps the value in the keyring, and a run reads it from there")
    func keyring() async throws {
        let tools = ["/usr/bin/dbus-run-session", "/usr/bin/gnome-keyring-daemon"]
        guard tools.allSatisfy({ FileManager.default.isExecutableFile(atPath: $0) }),
            ["/usr/lib/x86_64-linux-gnu/libsecret-1.so.0", "/usr/lib/aarch64-linux-gnu/libsecret-1.so.0"].contains(where: {
                FileManager.default.fileExists(atPath: $0)
            })
        else {
            print("skipped: the keyring test needs dbus-run-session, gnome-keyring-daemon and libsecret (Scripts/install-dependencies)")
            return
        }
        let folder = try sandbox(
            """
            secrets: [KEYRING_TOKEN]
            steps:
              - text: "${secrets.KEYRING_TOKEN}"
              - save-file: { to: token.txt, overwrite: true }
              - text: kept
            """)
        // A session bus and an unlocked keyring of the test's own, in its own home.
        let script = """
            set -e
            export XDG_DATA_HOME="$HOME/.local/share"; mkdir -p "$XDG_DATA_HOME"
            eval "$(printf 'pw\\n' | gnome-keyring-daemon --unlock --components=secrets)"
            printf 'from-the-keyring' | "$RELAY" secrets set KEYRING_TOKEN
            "$RELAY" secrets list
            "$RELAY" run w.yaml --no-history --allow-write=token.txt
            cat token.txt
            "$RELAY" secrets remove KEYRING_TOKEN
            "$RELAY" run w.yaml --no-history --allow-write=token.txt || echo "exit $?"
            """
        let environment = [
            "HOME": folder.appendingPathComponent("home").path, "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
            "XDG_STATE_HOME": folder.appendingPathComponent("state").path, "RELAY": RelayProcess.executable.path, "RELAY_KEYRING": "",
        ]
        // The test process blocks the signals Relay handles (ProcessSignals), and a child inherits
        // that: reset, so that dbus-run-session's SIGTERM ends the bus and the keyring it started.
        let unblocked = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])"
        let result = try await BlockingWork.run { _ in
            try RelayProcess.run(
                ["60", "python3", "-c", unblocked, "/usr/bin/dbus-run-session", "--", "/bin/bash", "-c", script], in: folder,
                environment: environment, program: URL(fileURLWithPath: "/usr/bin/timeout"))
        }
        #expect(result.standardOutput.contains("kept KEYRING_TOKEN in the system keyring"), "\(result.standardOutput)\n\(result.standardError)")
        #expect(result.standardOutput.contains("KEYRING_TOKEN\nkept\nfrom-the-keyring\nremoved KEYRING_TOKEN\nexit 2"), "\(result.standardOutput)\n\(result.standardError)")
        // Nothing went to the secrets file.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("config/relay/secrets.json").path))
    }
}
