import Foundation
import Testing

/// `relay import`, and `relay run` and `relay check` of a shortcut file (Docs/Shortcuts.md).
@Suite("Shortcuts on the command line")
struct ShortcutCommandTests {
    static let kept = RelayProcess.root.appendingPathComponent("Tests/Shortcuts")

    /// A folder with a copy of the kept shortcuts, and a home of its own.
    private func folder() throws -> (folder: URL, environment: [String: String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shortcuts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("home"), withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.kept.path) {
            try FileManager.default.copyItem(at: Self.kept.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        return (folder, ["HOME": folder.appendingPathComponent("home").path, "XDG_STATE_HOME": "", "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": ""])
    }

    /// Writes a shortcut of `actions` (identifier without Apple's prefix, parameters) as `name`.
    private func write(_ actions: [(String, [String: Any])], to name: String, in folder: URL, format: PropertyListSerialization.PropertyListFormat = .xml) throws {
        let listed = actions.map { ["WFWorkflowActionIdentifier": "is.workflow.actions." + $0.0, "WFWorkflowActionParameters": $0.1] }
        try PropertyListSerialization.data(fromPropertyList: ["WFWorkflowActions": listed], format: format, options: 0).write(to: folder.appendingPathComponent(name))
    }

    /// What each kept shortcut gives, worked out by hand from its actions.
    static let outputs: [(file: String, arguments: [String], output: String)] = [
        ("greeting.shortcut", [], "HELLO, ADA! COSTS $${5}\n"),
        ("tally.shortcut", [], "big 24\n"),
        ("menu.shortcut", ["--answer", "How should it be written?=Quiet"], "relay by Ada Lovelace\n"),
        ("menu.shortcut", ["--set", "who_author=Grace", "--answer", "How should it be written?=Loud"], "RELAY by Grace\n"),
        ("rounds.wflow", [], "round 1, round 2\n"),
    ]

    @Test("relay run of a shortcut gives what the shortcut gives; the imported workflow gives the same", arguments: 0..<outputs.count)
    func runs(_ index: Int) async throws {
        let (folder, environment) = try folder()
        let (file, arguments, output) = Self.outputs[index]
        let run = try await RelayProcess.running(["run", file] + arguments, in: folder, environment: environment)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == output)
        let written = try await RelayProcess.running(["import", file, "-o", "imported.yaml"], in: folder, environment: environment)
        #expect(written.status == 0, "\(written.standardError)")
        #expect(written.standardOutput.isEmpty)
        let again = try await RelayProcess.running(["run", "imported.yaml"] + arguments, in: folder, environment: environment)
        #expect(again.standardOutput == output, "\(again.standardError)")
        // The run is in the history under the shortcut's own path.
        let runs = try await RelayProcess.running(["runs", "--limit", "2"], in: folder, environment: environment)
        #expect(runs.standardOutput.contains(file), "\(runs.standardOutput)")
    }

    @Test("relay import prints the workflow; actions with no equivalent are all listed with exit 2 and nothing written")
    func unmapped() async throws {
        let (folder, environment) = try folder()
        let printed = try await RelayProcess.running(["import", "tally.shortcut"], in: folder, environment: environment)
        #expect(printed.status == 0)
        #expect(printed.standardOutput == (try String(contentsOf: folder.appendingPathComponent("tally.yaml"), encoding: .utf8)))
        try write([("gettext", ["WFTextActionText": "hi"]), ("speaktext", [:]), ("getarticle", [:])], to: "speak.shortcut", in: folder, format: .binary)
        let refused = try await RelayProcess.running(["import", "speak.shortcut", "-o", "speak.yaml"], in: folder, environment: environment)
        #expect(refused.status == 2)
        #expect(refused.standardError == """
            error: 2 actions of 'speak.shortcut' have no equivalent in Relay:
              action 2 (Speak Text, is.workflow.actions.speaktext): Speak Text works only on Apple's devices
              action 3 (Get Article from Web Page, is.workflow.actions.getarticle): Relay has no equivalent for it yet
            help: --partial writes a 'fail' step in the place of each, so that the rest can be read and edited

            """)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("speak.yaml").path))
        let run = try await RelayProcess.running(["run", "speak.shortcut"], in: folder, environment: environment)
        #expect(run.status == 2)
        #expect(run.standardError.contains("action 2 (Speak Text, is.workflow.actions.speaktext)"), "\(run.standardError)")
        let partial = try await RelayProcess.running(["import", "speak.shortcut", "--partial", "-o", "speak.yaml"], in: folder, environment: environment)
        #expect(partial.status == 0, "\(partial.standardError)")
        #expect(partial.standardError.contains("warning: 2 actions have no equivalent and became 'fail' steps"))
        let failing = try await RelayProcess.running(["run", "speak.yaml"], in: folder, environment: environment)
        #expect(failing.status == 1)
        #expect(failing.standardError.contains("Speak Text is not available in Relay"), "\(failing.standardError)")
    }

    @Test("run-workflow runs a shortcut beside the workflow, checked and reported as the workflow's own")
    func runWorkflow() async throws {
        let (folder, environment) = try folder()
        try "steps:\n  - run-workflow: tally.shortcut\n  - change-case: upper\n".write(to: folder.appendingPathComponent("call.yaml"), atomically: true, encoding: .utf8)
        let run = try await RelayProcess.running(["run", "call.yaml"], in: folder, environment: environment)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "BIG 24\n")
        let report = try await RelayProcess.running(["check", "--permissions", "call.yaml"], in: folder, environment: environment)
        #expect(report.standardOutput.contains("in tally.shortcut, which it runs:\n  touches nothing beyond its own values"), "\(report.standardOutput)")
    }

    @Test("relay actions --shortcuts lists each Shortcuts action and what it becomes, the import's own among them")
    func table() async throws {
        let table = try await RelayProcess.running(["actions", "--shortcuts"])
        #expect(table.status == 0)
        let rows = table.standardOutput.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(rows.contains("is.workflow.actions.gettext Text text"), "\(table.standardOutput)")
        #expect(rows.contains("is.workflow.actions.conditional If if"))
        #expect(rows.contains("is.workflow.actions.getitemfromlist Get Item from List random-item (WFItemSpecifier: Random Item)"))
        let clash = try await RelayProcess.running(["actions", "--shortcuts", "--json"])
        #expect(clash.status == 2)
    }

    @Test("-o names a file: a FIFO (or a device) there is refused, never replaced")
    func outputIsAFile() async throws {
        let (folder, environment) = try folder()
        let fifo = folder.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let refused = try await RelayProcess.running(["import", "tally.shortcut", "-o", fifo], in: folder, environment: environment)
        #expect(refused.status == 2)
        #expect(refused.standardError.contains("it is not a regular file"), "\(refused.standardError)")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("an error while a shortcut runs names its action too")
    func runErrorNamesTheAction() async throws {
        let (folder, environment) = try folder()
        let text: [String: Any] = ["WFSerializationType": "WFTextTokenAttachment", "Value": ["Type": "ActionOutput", "OutputUUID": "T", "OutputName": "Text"]]
        try write([("gettext", ["WFTextActionText": "abc", "UUID": "T"]), ("math", ["WFInput": text, "WFMathOperation": "×", "WFMathOperand": 2])], to: "math.shortcut", in: folder)
        let run = try await RelayProcess.running(["run", "math.shortcut"], in: folder, environment: environment)
        #expect(run.status == 1)
        #expect(run.standardError.contains("note: in action 2 of the shortcut (Calculate); 'relay import' shows the workflow"), "\(run.standardError)")
    }

    @Test("relay check of a shortcut names the action a problem is in")
    func checkNamesTheAction() async throws {
        let (folder, environment) = try folder()
        try write([("gettext", ["WFTextActionText": "hi"]), ("delay", ["WFDelayTime": "soon"])], to: "wait.shortcut", in: folder)
        let checked = try await RelayProcess.running(["check", "wait.shortcut"], in: folder, environment: environment)
        #expect(checked.status == 2)
        #expect(checked.standardError.contains("note: in action 2 of the shortcut (Wait); 'relay import' shows the workflow"), "\(checked.standardError)")
    }

    @Test("an imported shortcut meets the gate a workflow meets: a post to a host is refused without a grant")
    func gate() async throws {
        let (folder, environment) = try folder()
        try write([("downloadurl", ["WFURL": "https://hooks.example.com/in", "WFHTTPMethod": "POST"])], to: "post.shortcut", in: folder)
        let report = try await RelayProcess.running(["check", "--permissions", "post.shortcut"], in: folder, environment: environment)
        #expect(report.standardOutput.contains("hooks.example.com"), "\(report.standardOutput)")
        let run = try await RelayProcess.running(["run", "post.shortcut"], in: folder, environment: environment)
        #expect(run.status == 4, "\(run.standardError)")
        #expect(run.standardError.contains("hooks.example.com"))
    }
}
