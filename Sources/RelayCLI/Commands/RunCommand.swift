import ArgumentParser
import Foundation
import RelayKit
import RelayLanguage
import RelayActions
import RelayRuntime

/// `relay run FILE`: runs a workflow and prints its output.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a workflow file and print its output.",
        discussion: """
            Reading the workflow's folder, the scratch folder and the input files named here is free; anything else \
            is asked on a terminal and denied without one (Docs/Security.md). \
            Exit status: 0 success, 1 runtime error, 2 invalid workflow or usage, 3 cancelled, 4 permission denied. \
            A step with 'retry: N' is tried up to N more times when it fails (never after a denial or a stop); \
            --trace shows each failed attempt (Docs/Runs.md).
            """
    )

    @Argument(help: "The workflow file (YAML).") var file: String
    @Argument(help: "'-' to read the workflow's input from standard input.") var standardInputMarker: String?
    @Option(help: "The workflow's input, as text.") var input: String?
    @Option(help: "Read the workflow's input from this file.") var inputFile: String?
    @Option(name: .customLong("set"), help: "Set a variable before the run: NAME=VALUE (repeatable).")
    var assignments: [String] = []
    @Flag(help: "Print the output as JSON.") var json = false
    @Flag(help: "Print each step, its output type and its time to standard error, and each failed attempt of a step with 'retry:'.") var trace = false
    @Flag(help: "Keep nothing of this run in the run history ('relay runs').") var noHistory = false
    @OptionGroup var session: SessionOptions
    @Option(help: ArgumentHelp("Stop the run after this many seconds (exit 1); the workflow's own 'timeout:' may be shorter.", valueName: "seconds"))
    var timeout: Double?
    @OptionGroup var packageOptions: PackageOptions
    @OptionGroup var permissionOptions: PermissionOptions

    func validate() throws {
        if let marker = standardInputMarker, marker != "-" {
            throw ValidationError("unexpected argument '\(marker)'; only '-' (read input from standard input) may follow the file")
        }
        let sources = [input != nil, inputFile != nil, standardInputMarker != nil].filter { $0 }.count
        if sources > 1 { throw ValidationError("give the input one way: --input, --input-file or -") }
        for assignment in assignments {
            let name = assignment.prefix { $0 != "=" }
            if name == "secrets" || name.hasPrefix("secrets.") {
                throw ValidationError(
                    "--set cannot give a secret ('\(name)'): a workflow declares its secrets in 'secrets:' and each value comes from the environment variable of its name or 'relay secrets set NAME' (Docs/Runs.md, \"Secrets\")")
            }
            guard let equals = assignment.firstIndex(of: "="),
                WorkflowParser.isIdentifier(String(assignment[..<equals]))
            else {
                throw ValidationError("--set takes NAME=VALUE with NAME a variable name, not '\(assignment)'")
            }
        }
        if let timeout {
            if let problem = Limits.durationProblem(timeout) { throw ValidationError("--timeout: \(problem)") }
            if timeout == 0 { throw ValidationError("--timeout takes a number of seconds greater than 0") }
        }
    }

    func run() async throws {
        let outcome = await workflowRun().run()
        if outcome.status != ExitStatus.success.rawValue { throw ExitCode(outcome.status) }
    }

    /// The run this command line asks for.
    func workflowRun() -> WorkflowRun {
        let given: WorkflowRun.Input =
            if let input { .text(input) } else if let inputFile { .file(inputFile) } else if standardInputMarker != nil { .standardInput } else { .none }
        return WorkflowRun(
            file: file, input: given, variables: Self.variables(from: assignments), granted: permissionOptions.granted,
            grantsDeclared: permissionOptions.declared, asksOnTerminal: isatty(0) == 1, settings: session.settings, packages: packageOptions.paths,
            timeout: timeout, json: json, trace: trace, keepsHistory: !noHistory, arguments: Self.rerunArguments(),
            commandLine: Array(CommandLine.arguments.dropFirst()))
    }

    /// The run `relay run FILE` asks for — a file and no option — made without the parser, every
    /// option at its default, as `workflowRun()` makes it from the parsed command line (a test
    /// holds the two the same). The parser reflects on the command's options, which cost 2–3 ms,
    /// a quarter of a short run's start (Docs/Performance.md, "Start without the parser"). Nil for any other command
    /// line, which the parser reads.
    static func plainRun(_ arguments: [String]) -> WorkflowRun? {
        guard arguments.count == 2, arguments[0] == "run", !arguments[1].hasPrefix("-"), arguments[1] != "help" else { return nil }
        return WorkflowRun(
            file: arguments[1], asksOnTerminal: isatty(0) == 1, arguments: [arguments[1]], commandLine: Array(CommandLine.arguments.dropFirst()))
    }

    /// The command line after `relay run`, as given: what `relay runs rerun` runs again.
    static func rerunArguments() -> [String] {
        Array(RelayCommand.givenArguments.drop { $0 != "run" }.dropFirst())
    }

    /// `--set NAME=VALUE` values, read as YAML scalars (`5` is a number, `true` a boolean).
    static func variables(from assignments: [String]) -> [String: Value] {
        var variables: [String: Value] = [:]
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            let text = String(assignment[assignment.index(after: equals)...])
            let value: Value =
                switch ScalarResolver.resolvePlain(text) {
                case .null: .text(text)
                case .boolean(let flag): .boolean(flag)
                case .number(let number): .number(number)
                case .text(let string): .text(string)
                }
            variables[String(assignment[..<equals])] = value
        }
        return variables
    }
}
