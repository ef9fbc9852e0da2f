import Foundation
import RelayActions
import RelayKit
import RelayEngine
import RelayRuntime

/// The kept history of runs (Docs/Runs.md, "Run history"): a SQLite database under the state
/// folder, `$XDG_STATE_HOME/relay/history.sqlite`. A run's row is written when it starts and
/// finished when it ends, each in one transaction, so a run killed outright leaves a row that
/// is still "running" with a process that is gone: it reads as interrupted, and the database as
/// whole as ever (SQLite's write-ahead log).
final class RunHistory: @unchecked Sendable {
    /// How a run ended.
    enum Status: String, CaseIterable, Codable {
        case queued, running, succeeded, failed, stopped, denied, interrupted
    }

    /// One run, as kept.
    struct Run {
        var id: Int64
        var workflow: String
        /// The workflow file's bytes when it ran; nil when it could not be read or was longer than
        /// `keptContentBytes`.
        var content: Data?
        /// `sha256:…` of `content`.
        var contentHash: String? { content.flatMap { ContentHash.of($0) }.map { "sha256:" + $0 } }
        var started: Date
        var ended: Date?
        var status: Status
        var exitStatus: Int32?
        /// The command line after `relay run`, with standard input's text in place of `-`: what
        /// `relay runs rerun` runs again. Nil when the input given on standard input was too long to keep.
        var arguments: [String]?
        /// What the run's input was, in words (`text, 12 bytes, from standard input`).
        var input: String?
        /// The error as it was printed, with its location.
        var error: String?
        /// The undo journal's folder under the state folder, when the run changed files.
        var journal: String?
        /// The grants that let its accesses through (`read /home/me/Photos`, `net *`).
        var grants: [String]
        /// The working folder it ran in.
        var folder: String?
        /// What it executed besides its workflow — sub-workflows and packages — with their hashes
        /// then: `relay runs rerun` gives the run's grants again only while each is unchanged.
        var executed: [GrantStore.Pin] = []
        var steps: [RunRecorder.StepRecord] = []
        /// What started it under `relay serve` (`schedule`, `watch`, `webhook`); nil for a command line.
        var trigger: String?

        var duration: Double? { ended.map { $0.timeIntervalSince(started) } }
    }

    /// How much is kept: the newest `runsPerWorkflow` runs of each workflow, none older than `days`.
    struct Retention: Equatable {
        var runsPerWorkflow = 100
        var days = 30

        /// `$RELAY_HISTORY_RUNS` and `$RELAY_HISTORY_DAYS` over the defaults; a value that is not a
        /// whole number from 1 to 1,000,000 is a warning and the default.
        static func from(_ environment: [String: String], warn: (String) -> Void) -> Retention {
            var retention = Retention()
            func read(_ name: String, _ value: inout Int) {
                guard let text = environment[name] else { return }
                guard let number = Int(text), (1...1_000_000).contains(number) else {
                    warn("$\(name) takes a whole number from 1 to 1000000, not '\(Excerpt.start(of: text, limit: 40))'; keeping \(value)")
                    return
                }
                value = number
            }
            read("RELAY_HISTORY_RUNS", &retention.runsPerWorkflow)
            read("RELAY_HISTORY_DAYS", &retention.days)
            return retention
        }
    }

    /// Which runs `runs(matching:)` lists.
    struct Filter {
        var workflow: String?
        var status: Status?
        var since: Date?
        var limit = 1_000
        /// What started the runs under `relay serve` (`schedule`, `watch`, `webhook`).
        var trigger: String? = nil
    }

    /// Where the history is kept.
    static var defaultPath: String { UndoHistory.defaultRoot.appendingPathComponent(fileName).path }
    /// Its name in the state folder.
    static let fileName = "history.sqlite"

    /// The longest input from standard input that is kept for `rerun`.
    static let keptInputBytes = 64 * 1024
    /// The longest workflow file whose bytes are kept with its run.
    static let keptContentBytes = 1024 * 1024

    let path: String
    private let database: SQLiteDatabase

    /// Opens the history at `path`, making it and its folder (mode 0700) if needed. A statement
    /// waits up to `busyTimeout` milliseconds while another relay writes: ten seconds, since a
    /// run opens it on a queue of its own, and six runs started at once on a loaded machine
    /// waited longer than one second for each other's first writes (one was then not recorded).
    init(path: String = RunHistory.defaultPath, busyTimeout: Int32 = 10_000) throws {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        do throws(FileOperationError) {
            try PrivateState.makeFolder(folder)
        } catch {
            throw IntentError(error.message)
        }
        // A history others may change is not believed: `relay runs rerun` takes grants from it.
        if let problem = PrivateState.problem(with: path, under: folder) { throw IntentError("the run history is not used: \(problem)") }
        // Made readable by its owner only (the log and index files SQLite adds take its mode): it
        // holds runs' inputs and variables.
        let made = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if made >= 0 { close(made) }
        database = try SQLiteDatabase(path: path, subject: "the run history", busyTimeout: busyTimeout)
        database.keepWriteAheadLog()
        var version: Int64 = 0
        try database.query("PRAGMA user_version") { version = $0.integer(0) }
        if version < Self.version {
            // Version 2 added what a run executed besides its workflow; version 3 what started it;
            // version 4 the index of queued runs.
            let added =
                (version == 1 ? "ALTER TABLE runs ADD COLUMN executed TEXT NOT NULL DEFAULT '[]';" : "")
                + (version == 1 || version == 2 ? "ALTER TABLE runs ADD COLUMN started_by TEXT;" : "")
            try database.execute(Self.schema + added + "PRAGMA user_version = \(Self.version);")
        }
        // The log is checkpointed every 64 pages (a few runs): a process that opens the history
        // reads what the log holds beyond the database, so a short log keeps that quick.
        try database.execute("PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 64")
    }

    /// The schema's version, kept in the database's `user_version`.
    static let version: Int64 = 4

    /// The tables (Docs/Runs.md, "The history's schema"). `AUTOINCREMENT`: a pruned run's ID is
    /// never given to a later run.
    static let schema = """
        PRAGMA journal_mode = WAL;
        CREATE TABLE IF NOT EXISTS runs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            workflow TEXT NOT NULL,
            content BLOB,
            started REAL NOT NULL,
            ended REAL,
            status TEXT NOT NULL,
            exit_status INTEGER,
            pid INTEGER NOT NULL,
            process_start TEXT,
            folder TEXT,
            arguments TEXT,
            input TEXT,
            error TEXT,
            journal TEXT,
            grants TEXT NOT NULL DEFAULT '[]',
            executed TEXT NOT NULL DEFAULT '[]',
            started_by TEXT);
        CREATE INDEX IF NOT EXISTS runs_by_workflow ON runs (workflow, id);
        CREATE INDEX IF NOT EXISTS runs_by_start ON runs (started);
        CREATE INDEX IF NOT EXISTS runs_running ON runs (status) WHERE status = 'running';
        CREATE INDEX IF NOT EXISTS runs_queued ON runs (status) WHERE status = 'queued';
        CREATE TABLE IF NOT EXISTS steps (
            run INTEGER NOT NULL,
            position INTEGER NOT NULL,
            place TEXT NOT NULL,
            name TEXT NOT NULL,
            status TEXT NOT NULL,
            runs INTEGER NOT NULL,
            skipped INTEGER NOT NULL,
            failures INTEGER NOT NULL,
            attempts INTEGER NOT NULL,
            seconds REAL NOT NULL,
            output_type TEXT,
            preview TEXT,
            error TEXT,
            error_place TEXT,
            PRIMARY KEY (run, position));
        """

    /// How long, in milliseconds, a statement waits while another relay writes.
    func setBusyTimeout(_ milliseconds: Int32) { database.setBusyTimeout(milliseconds) }

    /// What is known when a run starts.
    struct Start {
        var workflow: String
        var content: Data?
        /// The working folder, where `rerun` runs it again.
        var folder: String
        var arguments: [String]?
        var input: String?
        var trigger: String? = nil
    }

    /// Records that a run has started, or is queued to start (`status`); its ID.
    func begin(_ start: Start, status: Status = .running, at date: Date = Date()) throws -> Int64 {
        var id: Int64 = 0
        try database.query(
            "INSERT INTO runs (workflow, content, started, status, pid, process_start, folder, arguments, input, started_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            [
                .text(start.workflow), start.content.map { .blob($0) } ?? .null, .real(date.timeIntervalSince1970), .text(status.rawValue), .integer(Int64(getpid())),
                Self.optional(ProcessIdentity.startOfThisProcess), .text(start.folder), Self.optional(start.arguments.flatMap(Self.json)), Self.optional(start.input),
                Self.optional(start.trigger),
            ]
        ) { row in id = row.integer(0) }
        return id
    }

    /// Records that the queued run `id` has started, as `start` says; false when it is not queued
    /// (marked interrupted meanwhile).
    func start(queued id: Int64, _ start: Start, at date: Date = Date()) throws -> Bool {
        var started = false
        try database.query(
            "UPDATE runs SET content = ?, started = ?, status = 'running', pid = ?, process_start = ?, folder = ?, input = COALESCE(?, input) WHERE id = ? AND status = 'queued' RETURNING id",
            [
                start.content.map { .blob($0) } ?? .null, .real(date.timeIntervalSince1970), .integer(Int64(getpid())),
                Self.optional(ProcessIdentity.startOfThisProcess), .text(start.folder), Self.optional(start.input), .integer(id),
            ]
        ) { _ in started = true }
        return started
    }

    /// Removes the queued run `id`, which never started.
    func forget(queued id: Int64) throws {
        try database.query("DELETE FROM runs WHERE id = ? AND status = 'queued'", [.integer(id)])
    }

    /// The run's command line, once it is known to hold no secret's value (Docs/Runs.md, "Secrets").
    func setArguments(_ arguments: [String]?, of run: Int64) throws {
        try database.query("UPDATE runs SET arguments = ? WHERE id = ?", [Self.optional(arguments.flatMap(Self.json)), .integer(run)])
    }

    /// Replaces the run's step records with `steps`.
    func save(steps: [RunRecorder.StepRecord], of run: Int64) throws {
        try transaction { try write(steps, of: run) }
    }

    private func write(_ steps: [RunRecorder.StepRecord], of run: Int64) throws {
            try database.query("DELETE FROM steps WHERE run = ?", [.integer(run)])
            for (position, step) in steps.enumerated() {
                try database.query(
                    """
                    INSERT INTO steps (run, position, place, name, status, runs, skipped, failures, attempts, seconds, output_type, preview, error, error_place)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .integer(run), .integer(Int64(position)), .text(step.place), .text(step.name), .text(step.status.rawValue),
                        .integer(Int64(step.runs)), .integer(Int64(step.skipped)), .integer(Int64(step.failures)), .integer(Int64(step.attempts)),
                        .real(step.seconds), Self.optional(step.outputType), Self.optional(step.preview), Self.optional(step.error),
                        Self.optional(step.errorPlace),
                    ])
            }
    }

    /// What is known when a run ends.
    struct End {
        var status: Status
        var exitStatus: Int32
        var error: String?
        var arguments: [String]?
        var input: String?
        var journal: String?
        var grants: [String] = []
        var executed: [GrantStore.Pin] = []
        var steps: [RunRecorder.StepRecord] = []
    }

    /// Records how the run ended, with its steps, and drops what the retention no longer keeps of
    /// its workflow's runs and of all runs' age: one transaction.
    func finish(_ run: Int64, workflow: String, _ end: End, retention: Retention, at date: Date = Date()) throws {
        try transaction {
            try database.query(
                "UPDATE runs SET ended = ?, status = ?, exit_status = ?, error = ?, arguments = ?, input = ?, journal = ?, grants = ?, executed = ? WHERE id = ?",
                [
                    .real(date.timeIntervalSince1970), .text(end.status.rawValue), .integer(Int64(end.exitStatus)), Self.optional(end.error),
                    Self.optional(end.arguments.flatMap(Self.json)), Self.optional(end.input),
                    Self.optional(end.journal), .text(Self.json(end.grants) ?? "[]"), .text(Self.json(end.executed) ?? "[]"), .integer(run),
                ])
            try write(end.steps, of: run)
            try prune(workflow: workflow, retention, now: date)
        }
    }

    /// Drops the runs of `workflow` beyond its newest `runsPerWorkflow`, and every run that
    /// started more than `days` ago, with their steps. A run under way is never dropped.
    private func prune(workflow: String, _ retention: Retention, now: Date) throws {
        let oldest = now.timeIntervalSince1970 - Double(retention.days) * 86_400
        let dropped = """
            SELECT id FROM runs WHERE status NOT IN ('running', 'queued') AND (started < ?1 OR (workflow = ?2 AND id <= (
                SELECT id FROM runs WHERE workflow = ?2 ORDER BY id DESC LIMIT 1 OFFSET ?3)))
            """
        let bindings: [SQLiteDatabase.Binding] = [.real(oldest), .text(workflow), .integer(Int64(retention.runsPerWorkflow))]
        try database.query("DELETE FROM steps WHERE run IN (\(dropped))", bindings)
        try database.query("DELETE FROM runs WHERE id IN (\(dropped))", bindings)
    }

    /// The runs not over, each kind through its own small index: every run's end looks, and a
    /// scan of the whole table would read every page of a long history.
    static let unfinished = """
        SELECT id, pid, process_start FROM runs WHERE status = 'running'
        UNION ALL SELECT id, pid, process_start FROM runs WHERE status = 'queued'
        """

    /// How SQLite would answer `sql`: the details of its plan, one per line.
    func plan(of sql: String) throws -> [String] {
        var details: [String] = []
        try database.query("EXPLAIN QUERY PLAN " + sql) { details.append($0.text(3)) }
        return details
    }

    /// Marks as interrupted each run still running or queued whose process is gone (killed
    /// outright, or its machine stopped).
    func markInterrupted() throws {
        var gone: [Int64] = []
        try database.query(Self.unfinished) { row in
            let identity = ProcessIdentity(pid: Int32(truncatingIfNeeded: row.integer(1)), start: row.isNull(2) ? nil : row.text(2))
            if !identity.isRunning { gone.append(row.integer(0)) }
        }
        guard !gone.isEmpty else { return }
        try transaction {
            for id in gone {
                try database.query("UPDATE runs SET status = 'interrupted' WHERE id = ? AND status IN ('running', 'queued')", [.integer(id)])
            }
        }
    }

    /// The runs `filter` selects, newest first, with their steps when `withSteps`.
    func runs(matching filter: Filter, withSteps: Bool = false) throws -> [Run] {
        var conditions: [String] = []
        var bindings: [SQLiteDatabase.Binding] = []
        if let workflow = filter.workflow {
            conditions.append("workflow = ?")
            bindings.append(.text(workflow))
        }
        if let status = filter.status {
            conditions.append("status = ?")
            bindings.append(.text(status.rawValue))
        }
        if let since = filter.since {
            conditions.append("started >= ?")
            bindings.append(.real(since.timeIntervalSince1970))
        }
        if let trigger = filter.trigger {
            conditions.append("started_by = ?")
            bindings.append(.text(trigger))
        }
        let condition = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        var runs: [Run] = []
        try database.query(
            "SELECT \(Self.runColumns) FROM runs \(condition) ORDER BY id DESC LIMIT ?", bindings + [.integer(Int64(filter.limit))]
        ) { row in runs.append(Self.run(from: row)) }
        if withSteps {
            for index in runs.indices { runs[index].steps = try steps(of: runs[index].id) }
        }
        return runs
    }

    /// The run with `id` and its steps; nil when it is not kept.
    func run(_ id: Int64) throws -> Run? {
        var found: Run?
        try database.query("SELECT \(Self.runColumns) FROM runs WHERE id = ?", [.integer(id)]) { row in found = Self.run(from: row) }
        guard var run = found else { return nil }
        run.steps = try steps(of: id)
        return run
    }

    private func steps(of run: Int64) throws -> [RunRecorder.StepRecord] {
        var steps: [RunRecorder.StepRecord] = []
        try database.query(
            """
            SELECT place, name, status, runs, skipped, failures, attempts, seconds, output_type, preview, error, error_place
            FROM steps WHERE run = ? ORDER BY position
            """, [.integer(run)]
        ) { row in
            func optional(_ column: Int32) -> String? { row.isNull(column) ? nil : row.text(column) }
            steps.append(
                RunRecorder.StepRecord(
                    place: row.text(0), name: row.text(1), status: RunRecorder.StepStatus(rawValue: row.text(2)) ?? .failed,
                    runs: Int(truncatingIfNeeded: row.integer(3)), skipped: Int(truncatingIfNeeded: row.integer(4)),
                    failures: Int(truncatingIfNeeded: row.integer(5)), attempts: Int(truncatingIfNeeded: row.integer(6)),
                    seconds: row.real(7), outputType: optional(8), preview: optional(9), error: optional(10), errorPlace: optional(11)))
        }
        return steps
    }

    private static let runColumns = "id, workflow, content, started, ended, status, exit_status, arguments, input, error, journal, grants, folder, executed, started_by"

    private static func run(from row: SQLiteDatabase.Row) -> Run {
        func optional(_ column: Int32) -> String? { row.isNull(column) ? nil : row.text(column) }
        return Run(
            id: row.integer(0), workflow: row.text(1), content: row.isNull(2) ? nil : row.blob(2), started: Date(timeIntervalSince1970: row.real(3)),
            ended: row.isNull(4) ? nil : Date(timeIntervalSince1970: row.real(4)), status: Status(rawValue: row.text(5)) ?? .failed,
            exitStatus: row.isNull(6) ? nil : Int32(truncatingIfNeeded: row.integer(6)),
            arguments: optional(7).flatMap { decoded([String].self, $0) }, input: optional(8), error: optional(9), journal: optional(10),
            grants: decoded([String].self, row.text(11)) ?? [], folder: optional(12),
            executed: decoded([GrantStore.Pin].self, row.text(13)) ?? [], trigger: optional(14))
    }

    private func transaction(_ body: () throws -> Void) throws {
        try database.execute("BEGIN IMMEDIATE")
        do {
            try body()
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    private static func optional(_ text: String?) -> SQLiteDatabase.Binding { text.map { .text($0) } ?? .null }

    /// `strings` as a JSON array (with JSONWriter: the Codable machinery's first use costs a
    /// run's start a millisecond).
    private static func json(_ strings: [String]) -> String? {
        JSONWriter.string(for: .list(strings.map { .text($0) }), pretty: false)
    }

    /// `pins` as a JSON array of objects (`kind`, `path`, `hash`), with JSONWriter as above.
    private static func json(_ pins: [GrantStore.Pin]) -> String? {
        JSONWriter.string(for: .list(pins.map { .dictionary(["kind": .text($0.kind), "path": .text($0.path), "hash": .text($0.hash)]) }), pretty: false)
    }

    private static func decoded<T: Decodable>(_ type: T.Type, _ text: String) -> T? {
        try? JSONDecoder().decode(type, from: Data(text.utf8))
    }
}

/// A process, told apart from a later one given the same ID by when it started (Linux's
/// `/proc/PID/stat`; elsewhere by its ID alone).
struct ProcessIdentity {
    var pid: Int32
    var start: String?

    /// This process's start, as `/proc/self/stat` gives it.
    static let startOfThisProcess: String? = startTime(of: "self")

    /// Whether the process is still running.
    var isRunning: Bool {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let start, let now = Self.startTime(of: String(pid)) else { return true }
        return now == start
    }

    /// Field 22 of `/proc/ID/stat`: the process's start, in clock ticks since the machine started.
    private static func startTime(of process: String) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(process)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        // The command's name, field 2, is in parentheses and may hold spaces: count after its end.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 19 ? String(fields[19]) : nil
    }
}
