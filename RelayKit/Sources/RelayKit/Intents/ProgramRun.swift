import Foundation

/// A program for a step to start (`IntentContext.runProgram`): found by name on `PATH`, or by path.
public struct ProgramRun: Sendable {
    /// The program's name (`sh`, `python3`) or path; the gate is asked to start it by this name.
    public var program: String
    public var arguments: [String]
    /// What it reads on its standard input.
    public var input: Data
    /// The most bytes of standard output kept; a program that writes more is stopped, and the
    /// step fails, so that no output can fill memory.
    public var outputLimit: Int
    /// Whether it is one of the helpers that reach the desktop (a clipboard, notifications): a
    /// program Relay chose, with arguments Relay chose, which gets the display's variables and
    /// sockets. Every other program runs inside the run's grants (Docs/Security.md, "Programs").
    public var reachesDesktop: Bool

    public init(program: String, arguments: [String] = [], input: Data = Data(), outputLimit: Int = Limits.programOutput, reachesDesktop: Bool = false) {
        self.program = program
        self.arguments = arguments
        self.input = input
        self.outputLimit = outputLimit
        self.reachesDesktop = reachesDesktop
    }
}

/// How a program ended, and what it wrote.
public struct ProgramOutcome: Sendable {
    /// The exit status, or the signal that ended it when `signalled`.
    public var status: Int32
    public var signalled: Bool
    public var output: Data
    /// Its standard error: the last `Limits.programErrors` bytes of it, which say why it failed.
    public var errors: Data

    public init(status: Int32, signalled: Bool, output: Data, errors: Data) {
        self.status = status
        self.signalled = signalled
        self.output = output
        self.errors = errors
    }

    /// Whether it ended by itself with status 0.
    public var succeeded: Bool { !signalled && status == 0 }

}

extension ProgramRun {
    /// The full path of `program` found on `$PATH` (or `program` itself when it has a `/`), or
    /// nil when there is none: how a step's program is found, and how an action picks among the
    /// programs that do one job (`wl-copy`, `xclip`, `pbcopy`).
    public static func find(_ program: String) -> String? {
        if program.contains("/") { return program }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
