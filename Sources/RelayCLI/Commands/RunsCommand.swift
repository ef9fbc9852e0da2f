import ArgumentParser
import Foundation
import RelayKit
import RelayRuntime

/// `relay runs`: the kept history of runs (Docs/Runs.md, "Run history").
struct RunsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "List past runs, show one's steps and error, or run one again.",
        discussion: """
            Every 'relay run' is kept in $XDG_STATE_HOME/relay/history.sqlite (default ~/.local/state/relay) unless \
            it is given --no-history or is a dry run: its status, times, input and --set values, and each step's \
            status, attempts, time, output and error. The newest 100 runs of each workflow are kept, none older than \
            30 days ($RELAY_HISTORY_RUNS, $RELAY_HISTORY_DAYS). A run killed outright shows as interrupted.
            """,
        subcommands: [List.self, Show.self, Rerun.self],
        defaultSubcommand: List.self
    )

    /// `relay runs [list]`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List runs, newest first.")

        @Option(help: ArgumentHelp("Only the runs of this workflow file.", valueName: "file")) var workflow: String?
        @Option(help: ArgumentHelp("Only runs that ended so: succeeded, failed, stopped, denied, interrupted or running.", valueName: "status"))
        var status: String?
        @Option(help: ArgumentHelp("Only runs started since then: a date ('2026-11-25', 'today', '2026-11-25 08:00') or a time ago ('2 hours', '3d').", valueName: "when"))
        var since: String?
        @Option(help: ArgumentHelp("Only the runs started so: schedule, watch, webhook, page (Run now) or mcp (an assistant's call).", valueName: "kind"))
        var trigger: String?
        @Option(help: "At most this many runs.") var limit = 50
        @Flag(help: "Print a JSON array of runs, each with its steps and their errors.") var json = false

        func validate() throws {
            if let status, RunHistory.Status(rawValue: status) == nil {
                let names = RunHistory.Status.allCases.map(\.rawValue)
                let suggestion = Suggestions.closest(to: status, in: names).map { "; did you mean '\($0)'?" } ?? ""
                throw ValidationError("--status takes one of \(names.joined(separator: ", ")), not '\(status)'\(suggestion)")
            }
            if let since, RunsCommand.date(since) == nil {
                throw ValidationError(
                    "--since takes a date ('2026-11-25', 'today', '2026-11-25 08:00') or a time ago ('2 hours', '3d'), not '\(since)'")
            }
            if limit < 1 { throw ValidationError("--limit takes a number of runs from 1") }
            let kinds = ServedWorkflow.startedBy
            if let trigger, !kinds.contains(trigger) {
                throw ValidationError("--trigger takes one of \(kinds.joined(separator: ", ")), not '\(trigger)'\(Suggestions.didYouMean(trigger, in: kinds))")
            }
        }

        func run() async throws {
            guard FileManager.default.fileExists(atPath: RunHistory.defaultPath) else {
                if json { StandardStreams.writeOutput("[]\n") } else { StandardStreams.writeError("no runs are recorded yet (\(RunHistory.defaultPath))\n") }
                return
            }
            guard let history = RunsCommand.openHistory() else { throw ExitStatus.runtimeError.exitCode }
            let filter = RunHistory.Filter(
                workflow: workflow.map { URL(fileURLWithPath: $0).standardizedFileURL.path }, status: status.flatMap(RunHistory.Status.init),
                since: since.flatMap { RunsCommand.date($0) }, limit: min(limit, 100_000), trigger: trigger)
            let runs = try RunsCommand.reading { try history.runs(matching: filter, withSteps: json) }
            if json {
                StandardStreams.writeOutput(JSONWriter.string(for: .list(runs.map(RunsCommand.value)), pretty: true) + "\n")
                return
            }
            StandardStreams.writeOutput(RunsCommand.table(runs))
        }
    }

    /// `relay runs show ID`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a run's steps, and its error with the error's location.")

        @Argument(help: "The run's ID, as 'relay runs' lists it, or 'last' for the newest.") var id: RunID
        @Flag(help: "Print the run as JSON.") var json = false
        @Flag(help: "Print the run as a page of HTML: the workflow drawn as nested blocks, each coloured by what happened to it.")
        var html = false

        func validate() throws {
            if json && html { throw ValidationError("--json and --html cannot be given together") }
        }

        func run() async throws {
            let run = try RunsCommand.find(id)
            if html {
                StandardStreams.writeOutput(RunPage.html(run))
                return
            }
            if json {
                StandardStreams.writeOutput(JSONWriter.string(for: RunsCommand.value(run), pretty: true) + "\n")
                return
            }
            StandardStreams.writeOutput(RunsCommand.describe(run))
        }
    }

    /// `relay runs rerun ID`.
    struct Rerun: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rerun",
            abstract: "Run a past run's workflow file again, with the same input and variables.",
            discussion: """
                Runs in the folder the run ran in, with its command line: the same input (from --input, --input-file or \
                standard input), --set values and options. The run's --allow flags are given again only while the \
                workflow file, and each sub-workflow and package the run executed, is unchanged since; when one has \
                changed, Relay says which and asks (or denies) as for a new file. --allow flags given here replace the run's.
                """)

        @Argument(help: "The run's ID, as 'relay runs' lists it, or 'last' for the newest.") var id: RunID
        @OptionGroup var permissionOptions: PermissionOptions

        func run() async throws {
            let past = try RunsCommand.find(id)
            let id = past.id
            guard let arguments = past.arguments else {
                // Not kept: standard input too long, or a command line that held a secret's value.
                let why =
                    past.trigger == "mcp"
                    ? "it was an assistant's tool call (relay mcp), which the assistant makes again"
                    : RunsCommand.standardInputBytes(past.input).map { $0 > RunHistory.keptInputBytes } == true
                    ? "its input came from standard input and was too long to keep (more than \(RunHistory.keptInputBytes / 1024) KiB); run it again with: relay run \(ShellQuoting.quoted(past.workflow)) -"
                    : "its command line held a secret's value, which the history does not keep (Docs/Runs.md, \"Secrets\")"
                StandardStreams.writeError("error: run \(id) cannot be run again: \(why)\n")
                throw ExitStatus.invalid.exitCode
            }
            if let folder = past.folder, !FileManager.default.changeCurrentDirectoryPath(folder) {
                StandardStreams.writeError("error: run \(id) ran in '\(folder)', which is gone\n")
                throw ExitStatus.invalid.exitCode
            }
            let now = FileManager.default.contents(atPath: past.workflow)
            var command: RunCommand
            do {
                command = try RunCommand.parse(PermissionOptions.completing(arguments))
            } catch {
                StandardStreams.writeError("error: run \(id)'s command line no longer reads: \(RunCommand.message(for: error))\n")
                throw ExitStatus.invalid.exitCode
            }
            let givesOwn = !permissionOptions.granted.isEmpty || permissionOptions.declared
            // The run's grants were given for what it executed: the workflow, and each
            // sub-workflow and package as they were then.
            let changed = past.executed.first { !$0.holds }
            if past.content == nil || now != past.content {
                let what = now == nil ? "cannot be read now" : past.content == nil ? "was too long to keep with run \(id)" : "has changed since run \(id)"
                StandardStreams.writeError(
                    "note: \(past.workflow) \(what); the run's --allow flags are not given again\n")
                command.permissionOptions = permissionOptions
            } else if let changed {
                StandardStreams.writeError(
                    "note: the \(changed.kind) \(changed.path), which run \(id) executed, has changed since; the run's --allow flags are not given again\n")
                command.permissionOptions = permissionOptions
            } else if givesOwn {
                command.permissionOptions = permissionOptions
            }
            // The earlier run's flags hold only for what it executed (`RerunPins`).
            let reusesFlags = !givesOwn && (!command.permissionOptions.granted.isEmpty || command.permissionOptions.declared)
            var run = command.workflowRun()
            run.arguments = arguments
            run.rerun = reusesFlags ? RerunPins(run: id, executed: past.executed) : nil
            let outcome = await run.run()
            if outcome.status != ExitStatus.success.rawValue { throw ExitCode(outcome.status) }
        }
    }

    /// How many bytes a run read from standard input, from its input as the history words it.
    static func standardInputBytes(_ input: String?) -> Int? {
        guard let input, input.hasPrefix("text, "), input.hasSuffix(" from standard input") else { return nil }
        return Int(input.dropFirst(6).prefix { $0.isNumber })
    }

    // MARK: Reading

    /// The history, or nil (after saying why) when there is none or it cannot be read.
    static func openHistory() -> RunHistory? {
        guard FileManager.default.fileExists(atPath: RunHistory.defaultPath) else {
            StandardStreams.writeError("error: no runs are recorded yet (\(RunHistory.defaultPath))\n")
            return nil
        }
        do {
            let history = try RunHistory(path: RunHistory.defaultPath)
            try? history.markInterrupted()
            return history
        } catch {
            StandardStreams.writeError("error: \(Interpreter.message(for: error))\n")
            return nil
        }
    }

    /// `body`'s result, or exit status 1 after the history's error.
    static func reading<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            StandardStreams.writeError("error: \(Interpreter.message(for: error))\n")
            throw ExitStatus.runtimeError.exitCode
        }
    }

    /// The run with `id`, or an error naming how to list them.
    static func find(_ reference: RunID) throws -> RunHistory.Run {
        guard let history = openHistory() else { throw ExitStatus.runtimeError.exitCode }
        guard case .number(let id) = reference else {
            guard let newest = try reading({ try history.runs(matching: RunHistory.Filter(limit: 1), withSteps: true).first }) else {
                StandardStreams.writeError("error: there is no run in the history yet\n")
                throw ExitStatus.runtimeError.exitCode
            }
            return newest
        }
        guard let run = try reading({ try history.run(id) }) else {
            StandardStreams.writeError("error: there is no run \(id) in the history; 'relay runs' lists the runs kept\n")
            throw ExitStatus.runtimeError.exitCode
        }
        return run
    }

    /// A date given to `--since`: a date or date-time, `today`, or a time ago (`2 hours`, `3d`).
    static func date(_ text: String, now: Date = Date()) -> Date? {
        if let date = DateFormatting.parse(text, now: now) { return date }
        // `3d`, `12h`: the number and unit written together.
        var spaced = text
        if let unit = text.firstIndex(where: \.isLetter), unit > text.startIndex, text[..<unit].allSatisfy(\.isNumber) {
            spaced = text[..<unit] + " " + text[unit...]
        }
        guard let components = try? DurationText.parse(spaced) else { return nil }
        return Calendar.current.date(byAdding: components.negated, to: now)
    }

    // MARK: Printing

    static func table(_ runs: [RunHistory.Run]) -> String {
        guard !runs.isEmpty else { return "" }
        let idWidth = max(2, runs.map { String($0.id).count }.max() ?? 2)
        func padded(_ text: String, _ width: Int, right: Bool = false) -> String {
            let pad = String(repeating: " ", count: max(0, width - text.count))
            return right ? pad + text : text + pad
        }
        var lines = [padded("ID", idWidth, right: true) + "  " + padded("STATUS", 11) + "  " + padded("STARTED", 25) + "  " + padded("DURATION", 9, right: true) + "  WORKFLOW"]
        for run in runs {
            lines.append(
                padded(String(run.id), idWidth, right: true) + "  " + padded(run.status.rawValue, 11) + "  " + padded(DateFormatting.iso8601(run.started), 25)
                    + "  " + padded(run.duration.map(seconds) ?? "—", 9, right: true) + "  " + run.workflow + (run.trigger.map { " (\($0))" } ?? ""))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `0.08 ms`, `12.4 ms`, `1.234 s`, `12.3 s`, `4 min 2 s`.
    static func seconds(_ value: Double) -> String {
        if value < 0.001 { return String(format: "%.2f ms", value * 1000) }
        if value < 1 { return String(format: "%.1f ms", value * 1000) }
        if value < 10 { return String(format: "%.3f s", value) }
        if value < 60 { return String(format: "%.1f s", value) }
        let whole = Int(value.rounded())
        return whole < 3600 ? "\(whole / 60) min \(whole % 60) s" : "\(whole / 3600) h \(whole / 60 % 60) min"
    }

    /// What `relay runs show` prints.
    static func describe(_ run: RunHistory.Run) -> String {
        var lines: [String] = []
        let exit = run.exitStatus.map { " (exit \($0))" } ?? ""
        lines.append("run \(run.id): \(run.workflow) — \(run.status.rawValue)\(exit)")
        var when = "started \(DateFormatting.iso8601(run.started))"
        if let duration = run.duration { when += ", took \(seconds(duration))" }
        lines.append(when)
        if let folder = run.folder { lines.append("in \(folder)") }
        if let trigger = run.trigger { lines.append("started by: \(trigger) (\(trigger == "mcp" ? "an assistant's call, through MCP" : "relay serve"))") }
        if let arguments = run.arguments {
            // A served run was typed by nobody: its line is how to run it again by hand.
            let label = run.trigger == nil ? "command" : "run by hand as"
            lines.append("\(label): relay run " + arguments.map(ShellQuoting.quoted).joined(separator: " "))
        }
        if let input = run.input { lines.append("input: \(input)") }
        if let content = run.content, let hash = run.contentHash {
            let now = FileManager.default.contents(atPath: run.workflow)
            lines.append("workflow content: \(hash.prefix(19))…" + (now == content ? "" : now == nil ? " (the file is gone)" : " (changed since)"))
        }
        if !run.steps.isEmpty {
            lines.append("steps:")
            lines += run.steps.map { "  " + describe($0) }
        }
        if let journal = run.journal { lines.append("file changes: kept for 'relay undo' (\(journal))") }
        if !run.grants.isEmpty { lines.append("grants used: " + run.grants.joined(separator: ", ")) }
        var text = lines.joined(separator: "\n") + "\n"
        if let error = run.error, !error.isEmpty {
            text += "error output:\n" + error + (error.hasSuffix("\n") ? "" : "\n")
        }
        return text
    }

    /// One step's line: `w.yaml:5:5 calculate — failed after 3 attempts: … (at w.yaml:5:16)`.
    static func describe(_ step: RunRecorder.StepRecord) -> String {
        var text = "\(step.place) \(step.name) — \(step.status.rawValue)"
        var counts: [String] = []
        if step.runs > 1 { counts.append("\(step.runs) runs") }
        if step.skipped > 0, step.status != .skipped || step.runs > 0 { counts.append("\(step.skipped) skipped") }
        if step.failures > 0, step.runs > 1 { counts.append("\(step.failures) failed") }
        if step.attempts > step.runs { counts.append("\(step.attempts) attempts") }
        if step.runs > 0 { counts.append(seconds(step.seconds)) }
        if !counts.isEmpty { text += " (" + counts.joined(separator: ", ") + ")" }
        if let type = step.outputType, step.status == .succeeded || step.status == .handled {
            text += " → \(type)" + (step.preview.map { type == "text" ? " \"\($0)\"" : type == "list" || type == "dictionary" ? " (\($0))" : " \($0)" } ?? "")
        }
        if let error = step.error { text += ": \(error)" + (step.errorPlace.map { " (at \($0))" } ?? "") }
        return text
    }

    /// The run as JSON (`--json`).
    static func value(_ run: RunHistory.Run) -> Value {
        var entry = ValueDictionary()
        entry["id"] = .number(Double(run.id))
        entry["workflow"] = .text(run.workflow)
        entry["status"] = .text(run.status.rawValue)
        entry["trigger"] = run.trigger.map { .text($0) } ?? .nothing
        entry["exitStatus"] = run.exitStatus.map { .number(Double($0)) } ?? .nothing
        entry["started"] = .text(DateFormatting.iso8601(run.started))
        entry["ended"] = run.ended.map { .text(DateFormatting.iso8601($0)) } ?? .nothing
        entry["duration"] = run.duration.map { .number($0) } ?? .nothing
        entry["contentHash"] = run.contentHash.map { .text($0) } ?? .nothing
        entry["folder"] = run.folder.map { .text($0) } ?? .nothing
        entry["arguments"] = run.arguments.map { .list($0.map { .text($0) }) } ?? .nothing
        entry["input"] = run.input.map { .text($0) } ?? .nothing
        entry["error"] = run.error.map { .text($0) } ?? .nothing
        entry["journal"] = run.journal.map { .text($0) } ?? .nothing
        entry["grants"] = .list(run.grants.map { .text($0) })
        entry["steps"] = .list(
            run.steps.map { step in
                var item = ValueDictionary()
                item["place"] = .text(step.place)
                item["name"] = .text(step.name)
                item["status"] = .text(step.status.rawValue)
                item["runs"] = .number(Double(step.runs))
                item["skipped"] = .number(Double(step.skipped))
                item["failures"] = .number(Double(step.failures))
                item["attempts"] = .number(Double(step.attempts))
                item["seconds"] = .number(step.seconds)
                item["outputType"] = step.outputType.map { .text($0) } ?? .nothing
                item["preview"] = step.preview.map { .text($0) } ?? .nothing
                item["error"] = step.error.map { .text($0) } ?? .nothing
                item["errorPlace"] = step.errorPlace.map { .text($0) } ?? .nothing
                return .dictionary(item)
            })
        return .dictionary(entry)
    }
}

/// A run named on the command line: its ID, or `last`, the newest.
enum RunID: ExpressibleByArgument {
    case number(Int64)
    case last

    init?(argument: String) {
        if argument.lowercased() == "last" {
            self = .last
        } else if let id = Int64(argument) {
            self = .number(id)
        } else {
            return nil
        }
    }
}
