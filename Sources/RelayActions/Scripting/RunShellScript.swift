import Foundation
import RelayKit
import RelayEngine

/// `run-shell-script`: a script run by a shell or another interpreter.
struct RunShellScript: Intent {
    static let summary =
        "Runs a script with a shell (sh by default) and outputs what it prints; a non-zero exit status is an error carrying its standard error."
    static let examples = [
        IntentExample("- text: hello\n- run-shell-script: tr a-z A-Z", output: "HELLO"),
        IntentExample(
            "- list: [a.txt, b.txt]\n- run-shell-script: { script: 'printf \"%s;\" \"$@\"', input-mode: arguments }", output: "a.txt;b.txt;"),
        IntentExample("- run-shell-script: { script: 'print(6 * 7)', shell: python3 }"),
    ]
    static let output = OutputType.any

    /// How each interpreter is given a script to run: `-c` or `-e`, and whether a name for `$0`
    /// comes before the arguments.
    static let interpreters: KeyValuePairs<String, (flag: String, takesName: Bool)> = [
        "sh": ("-c", true), "bash": ("-c", true), "zsh": ("-c", true), "dash": ("-c", true), "ksh": ("-c", true),
        "fish": ("-c", false), "python3": ("-c", false), "perl": ("-e", false), "ruby": ("-e", false), "node": ("-e", false),
    ]

    @Parameter(
        input: true, summary: "What the script reads: on its standard input (a file's bytes, else text), or as its arguments.",
        access: .read)
    var input: Value
    @Parameter(primary: true, summary: "The script.") var script: String
    @Parameter(summary: "The program that runs the script; started by name from PATH.", choices: interpreters.map(\.key), access: .run)
    var shell: String = "sh"
    @Parameter(summary: "Whether the input is given on standard input or as the script's arguments (a list's items, a file's path).",
        choices: ["stdin", "arguments"])
    var inputMode: String = "stdin"

    func perform(_ context: any IntentContext) async throws -> IntentResult {
        guard let interpreter = Self.interpreters.first(where: { $0.key == shell })?.value else {
            throw IntentError("'\(shell)' is not a shell Relay knows; use \(Self.interpreters.map(\.key).joined(separator: ", "))")
        }
        var scriptFile: String?
        var arguments = [interpreter.flag, script]
        if interpreter.takesName { arguments.append("relay") }
        // A program's command line can be read by every user of this machine (ps): a step given
        // a value made from a secret hands the script over in a file of the run's own, and takes
        // no arguments from it.
        if !RunSecrets.carried.isEmpty {
            if inputMode == "arguments" {
                throw IntentError(
                    "a value made from a secret is not given as a program's arguments, which every user of this machine can read (ps); use input-mode: stdin")
            }
            let file = try Self.scriptFile(script, in: context.scratchFolder)
            // The file is the secrets' while it is there (a program they are not pinned to may
            // not be started meanwhile), and gone once the script ends.
            AccessGate.running?.secrets.noteWritten(file, names: RunSecrets.carried)
            arguments = [file]
            scriptFile = file
        }
        defer { if let scriptFile { unlink(scriptFile) } }
        var standardInput = Data()
        if inputMode == "arguments" {
            arguments += Self.arguments(from: input)
        } else {
            standardInput = try Self.bytes(of: input)
        }
        let outcome = try await context.runProgram(ProgramRun(program: shell, arguments: arguments, input: standardInput))
        guard outcome.succeeded else {
            throw outcome.failure("the script " + (outcome.signalled ? "was ended by signal \(outcome.status)" : "exited with status \(outcome.status)"))
        }
        return .value(try Self.value(of: outcome.output, context))
    }

    /// Writes `script` to a new file only its owner may read, in the run's scratch folder; its path.
    static func scriptFile(_ script: String, in scratch: ScratchFolder) throws -> String {
        do {
            let path = try scratch.path(forNewFile: "script-\(UUID().uuidString)")
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else { throw IntentError("cannot write the script to \(path): \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            let bytes = Array(script.utf8)
            guard bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
                throw IntentError("cannot write the script to \(path): \(String(cString: strerror(errno)))")
            }
            return path
        } catch let error as FileOperationError {
            throw IntentError("cannot write the script to the scratch folder: \(error.message)")
        }
    }

    /// The arguments the input gives: each item of a list, a file's path, a text; nothing gives none.
    static func arguments(from input: Value) -> [String] {
        switch input {
        case .nothing: []
        case .list(let items): items.flatMap(arguments(from:))
        case .file(let file): [file.path]
        default: [input.textValue]
        }
    }

    /// What the script reads: a file's bytes, a list's items a line each, or the input as text.
    static func bytes(of input: Value) throws -> Data {
        switch input {
        case .nothing: return Data()
        case .file(let file):
            do {
                return try file.contents()
            } catch {
                throw IntentError(error.message)
            }
        case .list(let items):
            return Data(items.map { $0.textValue + "\n" }.joined().utf8)
        default: return Data(input.textValue.utf8)
        }
    }

    /// The output as text without its last line feed (as a shell's `$(…)` gives it), or, when it is
    /// not UTF-8 text (an image a command wrote), a file of those bytes in the run's scratch folder.
    static func value(of output: Data, _ context: any IntentContext) throws -> Value {
        let bytes = [UInt8](output)
        guard UTF8Validation.firstInvalidByte(in: bytes) == nil else {
            let path = try context.scratchFolder.path(forNewFile: "output")
            try AtomicFile.write(output, to: path)
            return .file(FileReference(path: path))
        }
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return .text(text)
    }
}
