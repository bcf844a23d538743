import CSQLite
import Foundation

/// A failure from SQLite, with its result code and message.
struct SQLiteFailure: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    /// The operating system's errno behind an I/O failure, when SQLite kept it (0 otherwise).
    var systemErrno: Int32 = 0

    var description: String { "\(message) (SQLite code \(code))" }

    /// The primary result code (the low byte of an extended one).
    var primary: Int32 { code & 0xFF }
    var isBusy: Bool { primary == SQLITE_BUSY || primary == SQLITE_LOCKED }
    var isCorrupt: Bool { primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB }
    var isReadOnly: Bool { primary == SQLITE_READONLY }
    /// Out of room: SQLite's own "full", or an I/O failure whose errno says the disk is full
    /// (SQLite reports a full disk met while growing its shared memory file as "disk I/O error").
    var isFull: Bool { primary == SQLITE_FULL || (primary == SQLITE_IOERR && (systemErrno == ENOSPC || systemErrno == EDQUOT)) }
}

/// A value bound to, or read from, an SQL statement.
enum SQLValue: Equatable, Sendable {
    case int(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
    case null

    var int: Int64? { if case .int(let v) = self { v } else { nil } }
    var text: String? { if case .text(let v) = self { v } else { nil } }
}

/// Anything that binds as an SQL value.
protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension Int: SQLBindable { var sqlValue: SQLValue { .int(Int64(self)) } }
extension Int64: SQLBindable { var sqlValue: SQLValue { .int(self) } }
extension String: SQLBindable { var sqlValue: SQLValue { .text(self) } }
extension Double: SQLBindable { var sqlValue: SQLValue { .double(self) } }
extension Bool: SQLBindable { var sqlValue: SQLValue { .int(self ? 1 : 0) } }
extension Optional: SQLBindable where Wrapped: SQLBindable {
    var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// One row of a result, by column name.
struct SQLRow {
    let values: [String: SQLValue]

    func int(_ column: String) -> Int { Int(values[column]?.int ?? 0) }
    func optionalInt(_ column: String) -> Int? { values[column]?.int.map(Int.init) }
    func text(_ column: String) -> String { values[column]?.text ?? "" }
    func optionalText(_ column: String) -> String? { values[column]?.text }
}

/// One SQLite connection: opened once, closed when released. Not shared between threads: the
/// register that owns it serialises every use.
final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String

    /// SQLite set up once for the process, before its first connection: without the memory
    /// statistics whose one mutex every allocation would take.
    private static let configured: Void = { _ = fieldrig_sqlite_without_memory_statistics() }()

    /// Opens (and with `create`, creates) the database at `path`. `immutable` reads a file on a
    /// disk that cannot be written, without the shared-memory file SQLite would make beside it.
    init(path: String, create: Bool, readOnly: Bool = false, immutable: Bool = false) throws(SQLiteFailure) {
        var db: OpaquePointer?
        var flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)) | SQLITE_OPEN_NOMUTEX
        var name = path
        if immutable {
            flags |= SQLITE_OPEN_URI
            let escaped = path.utf8.map { byte -> String in
                let c = Character(Unicode.Scalar(byte))
                return byte < 0x80 && (c.isLetter || c.isNumber || "/-._~".contains(c)) ? String(c) : String(format: "%%%02X", byte)
            }.joined()
            name = "file:\(escaped)?immutable=1"
        }
        _ = Self.configured
        let status = sqlite3_open_v2(name, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(db)
            throw SQLiteFailure(code: status, message: message)
        }
        sqlite3_extended_result_codes(db, 1)
        handle = db
        self.path = path
    }

    deinit { sqlite3_close_v2(handle) }

    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Waits up to `milliseconds` for another connection's lock before reporting busy.
    func setBusyTimeout(milliseconds: Int) {
        sqlite3_busy_timeout(handle, Int32(milliseconds))
    }

    private func failure(_ status: Int32) -> SQLiteFailure {
        SQLiteFailure(code: status, message: String(cString: sqlite3_errmsg(handle)), systemErrno: sqlite3_system_errno(handle))
    }

    /// Runs SQL with no parameters and no result (several statements allowed).
    func execute(_ sql: String) throws(SQLiteFailure) {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        if status != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw SQLiteFailure(code: status, message: message, systemErrno: sqlite3_system_errno(handle))
        }
    }

    /// Runs one statement with `parameters` bound in order, returning every row.
    @discardableResult
    func query(_ sql: String, _ parameters: [any SQLBindable] = []) throws(SQLiteFailure) -> [SQLRow] {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else { throw failure(prepared) }
        defer { sqlite3_finalize(statement) }
        for (index, parameter) in parameters.enumerated() {
            let position = Int32(index + 1)
            let status: Int32
            switch parameter.sqlValue {
            case .int(let v): status = sqlite3_bind_int64(statement, position, v)
            case .double(let v): status = sqlite3_bind_double(statement, position, v)
            case .text(let v): status = sqlite3_bind_text(statement, position, v, -1, fieldrig_sqlite_transient())
            case .blob(let v):
                status = v.withUnsafeBytes {
                    sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), fieldrig_sqlite_transient())
                }
            case .null: status = sqlite3_bind_null(statement, position)
            }
            guard status == SQLITE_OK else { throw failure(status) }
        }
        var rows: [SQLRow] = []
        let columns = Int(sqlite3_column_count(statement))
        let names = (0..<columns).map { String(cString: sqlite3_column_name(statement, Int32($0))) }
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw failure(step) }
            var values: [String: SQLValue] = [:]
            for i in 0..<columns {
                let column = Int32(i)
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: values[names[i]] = .int(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: values[names[i]] = .double(sqlite3_column_double(statement, column))
                case SQLITE_TEXT: values[names[i]] = .text(String(cString: sqlite3_column_text(statement, column)))
                case SQLITE_BLOB:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    let bytes = sqlite3_column_blob(statement, column)
                    values[names[i]] = .blob(bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? [])
                default: values[names[i]] = .null
                }
            }
            rows.append(SQLRow(values: values))
        }
        return rows
    }

    /// Calls `body` with the first two columns of every row, as text (nil for NULL): a lean path
    /// for long results that are only counted.
    func forEachPair(_ sql: String, _ body: (String, String?) -> Void) throws(SQLiteFailure) {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else { throw failure(prepared) }
        defer { sqlite3_finalize(statement) }
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw failure(step) }
            let first = sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? ""
            body(first, sqlite3_column_text(statement, 1).map { String(cString: $0) })
        }
    }

    /// The first column of every row, as text: a lean path for long single-column results.
    func strings(_ sql: String) throws(SQLiteFailure) -> [String] {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else { throw failure(prepared) }
        defer { sqlite3_finalize(statement) }
        var out: [String] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw failure(step) }
            if let text = sqlite3_column_text(statement, 0) { out.append(String(cString: text)) }
        }
        return out
    }

    /// The rowid of the last insert on this connection.
    var lastInsertID: Int { Int(sqlite3_last_insert_rowid(handle)) }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in one immediate transaction: committed when it returns, rolled back when it throws.
    @discardableResult
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
