import Foundation
import RelayKit

/// A SQLite database through the C API, with the library opened on first use (`SharedObject`), so
/// runs that never search pay nothing for it at start.
final class SQLiteDatabase {
    /// A value to bind to a statement's `?`.
    enum Binding {
        case text(String)
        case real(Double)
        case integer(Int64)
        case null
    }

    private let functions: SQLiteFunctions
    private let handle: OpaquePointer

    /// Opens (creating if needed) the database at `path`.
    init(path: String) throws {
        let functions = try SQLiteFunctions.shared()
        self.functions = functions
        var opened: OpaquePointer?
        let flags: Int32 = 0x2 | 0x4 | 0x10000  // READWRITE | CREATE | NOMUTEX
        let status = functions.open(path, &opened, flags, nil)
        guard status == 0, let opened else {
            let reason = opened.map { String(cString: functions.errorMessage($0)) } ?? "status \(status)"
            if let opened { _ = functions.close(opened) }
            throw IntentError("cannot open the search index '\(path)': \(reason)")
        }
        handle = opened
        _ = functions.busyTimeout(handle, 5000)
    }

    deinit { _ = functions.close(handle) }

    /// Runs one or more statements that take no bindings and return no rows.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard functions.exec(handle, sql, nil, nil, &message) == 0 else {
            let reason = message.map { String(cString: $0) } ?? "unknown error"
            if let message { functions.free(message) }
            throw IntentError("search index: \(reason)")
        }
    }

    /// Runs `sql` with `bindings`, calling `row` for each result row.
    func query(_ sql: String, _ bindings: [Binding] = [], row: (Row) throws -> Void = { _ in }) throws {
        var statement: OpaquePointer?
        guard functions.prepare(handle, sql, -1, &statement, nil) == 0, let statement else {
            throw IntentError("search index: \(String(cString: functions.errorMessage(handle)))")
        }
        defer { _ = functions.finalize(statement) }
        let transient = unsafeBitCast(-1, to: OpaquePointer.self)
        for (offset, binding) in bindings.enumerated() {
            let index = Int32(offset + 1)
            switch binding {
            case .text(let text): _ = functions.bindText(statement, index, text, -1, transient)
            case .real(let number): _ = functions.bindDouble(statement, index, number)
            case .integer(let number): _ = functions.bindInt64(statement, index, number)
            case .null: _ = functions.bindNull(statement, index)
            }
        }
        while true {
            let status = functions.step(statement)
            if status == 101 { return }  // SQLITE_DONE
            guard status == 100 else {  // SQLITE_ROW
                throw IntentError("search index: \(String(cString: functions.errorMessage(handle)))")
            }
            try row(Row(statement: statement, functions: functions))
        }
    }

    /// One result row.
    struct Row {
        fileprivate let statement: OpaquePointer
        fileprivate let functions: SQLiteFunctions

        func text(_ column: Int32) -> String {
            guard let text = functions.columnText(statement, column) else { return "" }
            return String(cString: text)
        }

        func real(_ column: Int32) -> Double { functions.columnDouble(statement, column) }
        func integer(_ column: Int32) -> Int64 { functions.columnInt64(statement, column) }
        func isNull(_ column: Int32) -> Bool { functions.columnType(statement, column) == 5 }
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
    let columnText: @convention(c) (OpaquePointer, Int32) -> UnsafePointer<CChar>?
    let columnDouble: @convention(c) (OpaquePointer, Int32) -> Double
    let columnInt64: @convention(c) (OpaquePointer, Int32) -> Int64
    let columnType: @convention(c) (OpaquePointer, Int32) -> Int32

    private static let library = SharedObject(
        names: ["libsqlite3.so.0", "libsqlite3.so", "libsqlite3.dylib", "/usr/lib/libsqlite3.dylib"], purpose: "search")
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
            columnText: try lib.function("sqlite3_column_text", as: (@convention(c) (OpaquePointer, Int32) -> UnsafePointer<CChar>?).self),
            columnDouble: try lib.function("sqlite3_column_double", as: (@convention(c) (OpaquePointer, Int32) -> Double).self),
            columnInt64: try lib.function("sqlite3_column_int64", as: (@convention(c) (OpaquePointer, Int32) -> Int64).self),
            columnType: try lib.function("sqlite3_column_type", as: (@convention(c) (OpaquePointer, Int32) -> Int32).self))
        cached = made
        return made
    }
}
