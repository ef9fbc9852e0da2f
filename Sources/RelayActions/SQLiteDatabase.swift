import Foundation
import RelayKit

/// A SQLite database through the C API, with the library opened on first use (`SharedObject`), so
/// runs that never search pay nothing for it at start. The search index and the run history
/// (Docs/Runs.md, "The history's schema") both keep their data in one.
public final class SQLiteDatabase {
    /// A value to bind to a statement's `?`.
    public enum Binding {
        case text(String)
        case real(Double)
        case integer(Int64)
        case blob(Data)
        case null
    }

    private let functions: SQLiteFunctions
    private let handle: OpaquePointer
    /// What the database is, for its errors: "the search index", "the run history".
    private let subject: String

    /// Opens (creating if needed) the database at `path`; `subject` names it in errors. A
    /// statement waits up to `busyTimeout` milliseconds for another process's write to end.
    public init(path: String, subject: String, busyTimeout: Int32 = 5000) throws {
        self.subject = subject
        let functions = try SQLiteFunctions.shared()
        self.functions = functions
        var opened: OpaquePointer?
        let flags: Int32 = 0x2 | 0x4 | 0x10000  // READWRITE | CREATE | NOMUTEX
        let status = functions.open(path, &opened, flags, nil)
        guard status == 0, let opened else {
            let reason = opened.map { String(cString: functions.errorMessage($0)) } ?? "status \(status)"
            if let opened { _ = functions.close(opened) }
            throw IntentError("cannot open \(subject) '\(path)': \(reason)")
        }
        handle = opened
        _ = functions.busyTimeout(handle, busyTimeout)
    }

    deinit { _ = functions.close(handle) }

    /// Keeps the write-ahead log between connections and leaves checkpoints to the commits that
    /// fill it, rather than checkpointing, syncing and deleting it at each close: a process that
    /// opens the database for one short write (the run history) then syncs nothing. The database
    /// stays whole (a commit is in the log before it counts); a checkpoint comes every thousand
    /// pages written.
    public func keepWriteAheadLog() {
        var on: Int32 = 1
        _ = functions.fileControl(handle, "main", 10, &on)  // SQLITE_FCNTL_PERSIST_WAL
        #if os(Linux)
            // sqlite3_db_config is variadic: called through a plain C function type, which passes
            // the arguments as a variadic call does on Linux's x86-64 and arm64 ABIs (not on
            // Apple's arm64, where the log is checkpointed at close as usual).
            _ = functions.databaseConfig(handle, 1006, 1, nil)  // SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE
        #endif
    }

    /// How long, in milliseconds, a statement waits for another process's write to end.
    public func setBusyTimeout(_ milliseconds: Int32) { _ = functions.busyTimeout(handle, milliseconds) }

    /// Runs one or more statements that take no bindings and return no rows.
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard functions.exec(handle, sql, nil, nil, &message) == 0 else {
            let reason = message.map { String(cString: $0) } ?? "unknown error"
            if let message { functions.free(message) }
            throw IntentError("\(subject): \(reason)")
        }
    }

    /// Runs `sql` with `bindings`, calling `row` for each result row.
    public func query(_ sql: String, _ bindings: [Binding] = [], row: (Row) throws -> Void = { _ in }) throws {
        var statement: OpaquePointer?
        guard functions.prepare(handle, sql, -1, &statement, nil) == 0, let statement else {
            throw IntentError("\(subject): \(String(cString: functions.errorMessage(handle)))")
        }
        defer { _ = functions.finalize(statement) }
        let transient = unsafeBitCast(-1, to: OpaquePointer.self)
        for (offset, binding) in bindings.enumerated() {
            let index = Int32(offset + 1)
            switch binding {
            case .text(let text): _ = functions.bindText(statement, index, text, -1, transient)
            case .real(let number): _ = functions.bindDouble(statement, index, number)
            case .integer(let number): _ = functions.bindInt64(statement, index, number)
            case .blob(let data):
                _ = data.withUnsafeBytes { bytes in
                    functions.bindBlob(statement, index, bytes.baseAddress, Int32(clamping: bytes.count), transient)
                }
            case .null: _ = functions.bindNull(statement, index)
            }
        }
        while true {
            let status = functions.step(statement)
            if status == 101 { return }  // SQLITE_DONE
            guard status == 100 else {  // SQLITE_ROW
                throw IntentError("\(subject): \(String(cString: functions.errorMessage(handle)))")
            }
            try row(Row(statement: statement, functions: functions))
        }
    }

    /// One result row.
    public struct Row {
        fileprivate let statement: OpaquePointer
        fileprivate let functions: SQLiteFunctions

        public func text(_ column: Int32) -> String {
            guard let text = functions.columnText(statement, column) else { return "" }
            return String(cString: text)
        }

        public func real(_ column: Int32) -> Double { functions.columnDouble(statement, column) }
        public func integer(_ column: Int32) -> Int64 { functions.columnInt64(statement, column) }
        public func isNull(_ column: Int32) -> Bool { functions.columnType(statement, column) == 5 }

        public func blob(_ column: Int32) -> Data {
            let count = Int(functions.columnBytes(statement, column))
            guard count > 0, let bytes = functions.columnBlob(statement, column) else { return Data() }
            return Data(bytes: bytes, count: count)
        }
    }
}

/// The SQLite C functions Relay uses, looked up once.
private struct SQLiteFunctions: @unchecked Sendable {
    typealias Open = @convention(c) (UnsafePointer<CChar>, UnsafeMutablePointer<OpaquePointer?>, Int32, UnsafePointer<CChar>?) -> Int32
    typealias Exec = @convention(c) (
        OpaquePointer, UnsafePointer<CChar>, OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    ) -> Int32
    typealias Prepare = @convention(c) (
        OpaquePointer, UnsafePointer<CChar>, Int32, UnsafeMutablePointer<OpaquePointer?>, UnsafeMutablePointer<UnsafePointer<CChar>?>?
    ) -> Int32

    let open: Open
    let close: @convention(c) (OpaquePointer) -> Int32
    let exec: Exec
    let free: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let errorMessage: @convention(c) (OpaquePointer) -> UnsafePointer<CChar>
    let busyTimeout: @convention(c) (OpaquePointer, Int32) -> Int32
    let prepare: Prepare
    let finalize: @convention(c) (OpaquePointer) -> Int32
    let step: @convention(c) (OpaquePointer) -> Int32
    let bindText: @convention(c) (OpaquePointer, Int32, UnsafePointer<CChar>, Int32, OpaquePointer?) -> Int32
    let bindDouble: @convention(c) (OpaquePointer, Int32, Double) -> Int32
    let bindInt64: @convention(c) (OpaquePointer, Int32, Int64) -> Int32
    let bindNull: @convention(c) (OpaquePointer, Int32) -> Int32
    let bindBlob: @convention(c) (OpaquePointer, Int32, UnsafeRawPointer?, Int32, OpaquePointer?) -> Int32
    let columnBlob: @convention(c) (OpaquePointer, Int32) -> UnsafeRawPointer?
    let columnBytes: @convention(c) (OpaquePointer, Int32) -> Int32
    let fileControl: @convention(c) (OpaquePointer, UnsafePointer<CChar>, Int32, UnsafeMutableRawPointer?) -> Int32
    let databaseConfig: @convention(c) (OpaquePointer, Int32, Int32, UnsafeMutablePointer<Int32>?) -> Int32
    let columnText: @convention(c) (OpaquePointer, Int32) -> UnsafePointer<CChar>?
    let columnDouble: @convention(c) (OpaquePointer, Int32) -> Double
    let columnInt64: @convention(c) (OpaquePointer, Int32) -> Int64
    let columnType: @convention(c) (OpaquePointer, Int32) -> Int32

    private static let library = SharedObject(
        names: ["libsqlite3.so.0", "libsqlite3.so", "libsqlite3.dylib", "/usr/lib/libsqlite3.dylib"], purpose: "SQLite")
    nonisolated(unsafe) private static var cached: SQLiteFunctions?
    private static let lock = NSLock()

    static func shared() throws -> SQLiteFunctions {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        let lib = library
        let made = SQLiteFunctions(
            open: try lib.function("sqlite3_open_v2", as: Open.self),
            close: try lib.function("sqlite3_close_v2", as: (@convention(c) (OpaquePointer) -> Int32).self),
            exec: try lib.function("sqlite3_exec", as: Exec.self),
            free: try lib.function("sqlite3_free", as: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self),
            errorMessage: try lib.function("sqlite3_errmsg", as: (@convention(c) (OpaquePointer) -> UnsafePointer<CChar>).self),
            busyTimeout: try lib.function("sqlite3_busy_timeout", as: (@convention(c) (OpaquePointer, Int32) -> Int32).self),
            prepare: try lib.function("sqlite3_prepare_v2", as: Prepare.self),
            finalize: try lib.function("sqlite3_finalize", as: (@convention(c) (OpaquePointer) -> Int32).self),
            step: try lib.function("sqlite3_step", as: (@convention(c) (OpaquePointer) -> Int32).self),
            bindText: try lib.function(
                "sqlite3_bind_text", as: (@convention(c) (OpaquePointer, Int32, UnsafePointer<CChar>, Int32, OpaquePointer?) -> Int32).self),
            bindDouble: try lib.function("sqlite3_bind_double", as: (@convention(c) (OpaquePointer, Int32, Double) -> Int32).self),
            bindInt64: try lib.function("sqlite3_bind_int64", as: (@convention(c) (OpaquePointer, Int32, Int64) -> Int32).self),
            bindNull: try lib.function("sqlite3_bind_null", as: (@convention(c) (OpaquePointer, Int32) -> Int32).self),
            bindBlob: try lib.function(
                "sqlite3_bind_blob", as: (@convention(c) (OpaquePointer, Int32, UnsafeRawPointer?, Int32, OpaquePointer?) -> Int32).self),
            columnBlob: try lib.function("sqlite3_column_blob", as: (@convention(c) (OpaquePointer, Int32) -> UnsafeRawPointer?).self),
            columnBytes: try lib.function("sqlite3_column_bytes", as: (@convention(c) (OpaquePointer, Int32) -> Int32).self),
            fileControl: try lib.function(
                "sqlite3_file_control", as: (@convention(c) (OpaquePointer, UnsafePointer<CChar>, Int32, UnsafeMutableRawPointer?) -> Int32).self),
            databaseConfig: try lib.function(
                "sqlite3_db_config", as: (@convention(c) (OpaquePointer, Int32, Int32, UnsafeMutablePointer<Int32>?) -> Int32).self),
            columnText: try lib.function("sqlite3_column_text", as: (@convention(c) (OpaquePointer, Int32) -> UnsafePointer<CChar>?).self),
            columnDouble: try lib.function("sqlite3_column_double", as: (@convention(c) (OpaquePointer, Int32) -> Double).self),
            columnInt64: try lib.function("sqlite3_column_int64", as: (@convention(c) (OpaquePointer, Int32) -> Int64).self),
            columnType: try lib.function("sqlite3_column_type", as: (@convention(c) (OpaquePointer, Int32) -> Int32).self))
        cached = made
        return made
    }
}
