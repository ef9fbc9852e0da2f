import Foundation
import RelayKit
import RelayEngine

/// The persistent full-text index of indexed entity types (Docs/Language.md, "Entities"): SQLite FTS5 in
/// `$XDG_DATA_HOME/relay/index.sqlite` (else `~/.local/share/relay`). Each type is brought in step
/// before it is searched: entities that are new or changed since they were indexed are indexed
/// again, and those that are gone are removed. A process keeps one open index per file
/// (`shared(at:)`), which looks at a type again only when Relay has changed files since its last
/// look, or when that look is no longer fresh (changes made outside Relay: `Freshness`).
actor SearchIndex {
    /// One match: an entity of a type, by id, and its rank (lower is better).
    struct Match: Equatable {
        let type: String
        let id: String
        let rank: Double
    }

    private let database: SQLiteDatabase
    /// When each type's last look at its entities ended, how long it took, and the file
    /// generation when it began.
    private var lastLook: [String: (ended: ContinuousClock.Instant, took: Duration, generation: UInt64)] = [:]
    /// Synchronizations under way, so that concurrent searches wait for one rather than race.
    private var running: [String: Task<Void, any Error>] = [:]

    /// How long a look at a type's entities stays good when Relay has changed no file since: at
    /// least `minimum`, and `multiple` times as long as the look took, so that looking again at a
    /// large library (a second at 100,000 notes) takes at most a fifth of a run that searches it
    /// often (Docs/Language.md, "Entities").
    struct Freshness: Sendable {
        var minimum: Duration = .seconds(2)
        var multiple = 4
        /// Every search looks (tests of changes made outside Relay).
        static let everySearchLooks = Freshness(minimum: .zero, multiple: 0)

        func holds(since ended: ContinuousClock.Instant, took: Duration) -> Bool {
            ContinuousClock.now - ended < max(minimum, took * multiple)
        }
    }

    @TaskLocal static var freshness = Freshness()

    private static let openLock = NSLock()
    nonisolated(unsafe) private static var open: [String: SearchIndex] = [:]

    /// The process's index at `path`, opened on first use.
    static func shared(at path: String = SearchIndex.defaultPath) throws -> SearchIndex {
        try openLock.withLock {
            if let index = open[path] { return index }
            let index = try SearchIndex(path: path)
            open[path] = index
            return index
        }
    }

    /// Where the index lives.
    static var defaultPath: String {
        let base = LibraryFolder.variable("XDG_DATA_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil } ?? HomeFolder.path + "/.local/share"
        return base + "/relay/index.sqlite"
    }

    /// Opens the index at `path`, making it (and its folder) if needed.
    init(path: String = SearchIndex.defaultPath) throws {
        // Its owner's alone, as Relay's state is: it holds the text of what it indexed.
        do throws(FileOperationError) {
            try PrivateState.makeFolder((path as NSString).deletingLastPathComponent)
        } catch {
            throw IntentError("cannot make the folder of the search index '\(path)': \(error.message)")
        }
        // Made readable by its owner only (the log SQLite adds takes its mode); one made before
        // is made so too.
        let made = Foundation.open(path, O_CREAT | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if made >= 0 {
            fchmod(made, 0o600)
            close(made)
        }
        chmod((path as NSString).deletingLastPathComponent, 0o700)
        database = try SQLiteDatabase(path: path, subject: "the search index")
        try database.execute(
            """
            PRAGMA journal_mode = WAL;
            CREATE TABLE IF NOT EXISTS entries (
                rowid INTEGER PRIMARY KEY, type TEXT NOT NULL, id TEXT NOT NULL, modified REAL, UNIQUE (type, id));
            CREATE VIRTUAL TABLE IF NOT EXISTS entries_text USING fts5 (
                title, keywords, content, tokenize = 'unicode61 remove_diacritics 2');
            """)
    }

    /// Brings `descriptor`'s type in step unless its last look is still fresh and Relay has
    /// changed no file since.
    func synchronizeIfStale(_ descriptor: EntityDescriptor) async throws {
        let type = descriptor.name.singular
        let generation = FileGeneration.current
        if let last = lastLook[type], last.generation == generation, Self.freshness.holds(since: last.ended, took: last.took) { return }
        if let underway = running[type] { return try await underway.value }
        let started = ContinuousClock.now
        let task = Task { try await synchronize(descriptor) }
        running[type] = task
        defer { running[type] = nil }
        try await task.value
        let ended = ContinuousClock.now
        lastLook[type] = (ended, ended - started, generation)
    }

    /// Every entity of `descriptor`'s type, fetched off the index's actor (reading a folder of
    /// notes, asking a package), which other searches would otherwise wait on.
    @concurrent
    private static func entities(of descriptor: EntityDescriptor) async throws -> [EntityValue] {
        try await descriptor.allEntities()
    }

    /// What the index keeps of each of `entities`, made off the index's actor (a note's body is read).
    @concurrent
    private static func records(of entities: [EntityValue], _ descriptor: EntityDescriptor) async throws -> [EntityDescriptor.IndexRecord] {
        var records: [EntityDescriptor.IndexRecord] = []
        for entity in entities {
            if let record = try await descriptor.indexRecord(of: entity) { records.append(record) }
        }
        return records
    }

    /// Brings the entries of `descriptor`'s type in step with its entities.
    func synchronize(_ descriptor: EntityDescriptor) async throws {
        let type = descriptor.name.singular
        // What is indexed; each entity found takes its entry out, and what is left is gone.
        var removed: [String: (rowid: Int64, modified: Double?)] = [:]
        try database.query("SELECT rowid, id, modified FROM entries WHERE type = ?", [.text(type)]) { row in
            removed[row.text(1)] = (row.integer(0), row.isNull(2) ? nil : row.real(2))
        }
        var changed: [String: (rowid: Int64, modified: Double?)] = [:]
        var stale: [EntityValue] = []
        for entity in try await Self.entities(of: descriptor) {
            let known = removed.removeValue(forKey: entity.id)
            let modified = descriptor.indexModified(of: entity)?.timeIntervalSince1970
            if let known, let modified, known.modified == modified { continue }
            if let known { changed[entity.id] = known }
            stale.append(entity)
        }
        guard !stale.isEmpty || !removed.isEmpty else { return }
        let records = try await Self.records(of: stale, descriptor)
        try database.execute("BEGIN IMMEDIATE")
        do {
            for (_, entry) in removed { try delete(rowid: entry.rowid) }
            for record in records {
                if let existing = changed[record.id] { try delete(rowid: existing.rowid) }
                try insert(record, type: type)
            }
            try database.execute("COMMIT")
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
    }

    private func delete(rowid: Int64) throws {
        try database.query("DELETE FROM entries WHERE rowid = ?", [.integer(rowid)])
        try database.query("DELETE FROM entries_text WHERE rowid = ?", [.integer(rowid)])
    }

    private func insert(_ record: EntityDescriptor.IndexRecord, type: String) throws {
        let modified: SQLiteDatabase.Binding = record.modified.map { .real($0.timeIntervalSince1970) } ?? .null
        var rowid: Int64 = 0
        try database.query(
            "INSERT INTO entries (type, id, modified) VALUES (?, ?, ?) RETURNING rowid", [.text(type), .text(record.id), modified]
        ) { row in rowid = row.integer(0) }
        try database.query(
            "INSERT INTO entries_text (rowid, title, keywords, content) VALUES (?, ?, ?, ?)",
            [.integer(rowid), .text(record.title), .text(record.keywords.joined(separator: " ")), .text(record.content)])
    }

    /// The best matches for `text` among `types`, best first. Every word must match (as a prefix);
    /// a match in the title counts most, then keywords, then content; a type's priority scales its
    /// entities' ranks.
    func search(_ text: String, types: [EntityDescriptor], limit: Int) throws -> [Match] {
        let words = text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        guard !words.isEmpty, !types.isEmpty, limit > 0 else { return [] }
        let expression = words.map { "\"\($0.replacingOccurrences(of: "\"", with: "\"\""))\"*" }.joined(separator: " ")
        let placeholders = Array(repeating: "?", count: types.count).joined(separator: ", ")
        // bm25 is negative, better matches more so: a higher priority makes it more negative.
        let weights = Array(repeating: "WHEN ? THEN ?", count: types.count).joined(separator: " ")
        let weightBindings: [SQLiteDatabase.Binding] = types.flatMap { type -> [SQLiteDatabase.Binding] in
            [.text(type.name.singular), .real(0.5 + (type.indexPriority ?? 0.5))]
        }
        var matches: [Match] = []
        // CROSS JOIN keeps the full-text match as the outer loop: otherwise SQLite may run the
        // match once for every entry of the type.
        try database.query(
            """
            SELECT entries.type, entries.id,
                bm25(entries_text, 10.0, 5.0, 1.0) * (CASE entries.type \(weights) ELSE 1.0 END) AS score
            FROM entries_text CROSS JOIN entries ON entries.rowid = entries_text.rowid
            WHERE entries_text MATCH ? AND entries.type IN (\(placeholders))
            ORDER BY score, entries.type, entries.id
            LIMIT ?
            """,
            weightBindings + [.text(expression)] + types.map { .text($0.name.singular) } + [.integer(Int64(limit))]
        ) { row in
            matches.append(Match(type: row.text(0), id: row.text(1), rank: row.real(2)))
        }
        return matches
    }
}
