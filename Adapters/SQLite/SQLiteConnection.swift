import CSQLite
import Foundation

/// Why SQLite refused a call: its result code and its own message.
struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// SQLite's result code (`SQLITE_BUSY`, `SQLITE_NOTADB`, ...).
    var code: Int32
    var message: String
    var description: String { message }

    /// Whether another process held the database for longer than the busy wait.
    var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }
    /// Whether the file, or its folder, may not be written.
    var isReadOnly: Bool { code & 0xFF == SQLITE_READONLY || code & 0xFF == SQLITE_CANTOPEN }
    /// Whether the disk is full (a write was refused, even one made to open the file).
    var isFull: Bool { code & 0xFF == SQLITE_FULL }
    /// Whether the file is not a database, or a damaged one.
    var isDamaged: Bool { code & 0xFF == SQLITE_NOTADB || code & 0xFF == SQLITE_CORRUPT }
}

/// A value bound to a statement's parameter.
enum SQLiteValue {
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// One connection to an SQLite database, the only type that calls SQLite's C interface (not
/// `Sendable`: `ListDatabase` uses it only from its own queue).
final class SQLiteConnection {
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (or creates) the database at `path`, each statement waiting `busyWait` for another
    /// process's lock; `immutable` reads a file nothing can change (on a read-only disk), with no
    /// locks and no log index.
    init(path: String, busyWait: Duration, readOnly: Bool = false, immutable: Bool = false)
        throws(SQLiteError)
    {
        // SQLite names a companion `name-journal`: refused before any file is made.
        let name = path.split(separator: "/").last?.utf8.count ?? 0
        let limit = Int(NAME_MAX)  // The longest name a folder holds, in bytes.
        if !readOnly, name + 8 > limit {
            throw SQLiteError(
                code: SQLITE_CANTOPEN,
                message:
                    "its name is \(name) bytes long, and SQLite needs 8 more for its -journal file (a name may have \(limit) at most); use a name of at most \(limit - 8) bytes"
            )
        }
        let isNew = !readOnly && !FileManager.default.fileExists(atPath: path)
        var opened: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
            | SQLITE_OPEN_NOMUTEX | (immutable ? SQLITE_OPEN_URI : 0)
        let location = immutable ? URL(fileURLWithPath: path).absoluteString + "?immutable=1" : path
        let status = sqlite3_open_v2(location, &opened, flags, nil)
        guard let opened else { throw SQLiteError(code: status, message: "out of memory") }
        guard status == SQLITE_OK else {
            let error = SQLiteError(code: status, message: String(cString: sqlite3_errmsg(opened)))
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        // Readable by its owner only, as a new JSON document is (-wal and -shm get the same mode).
        if isNew { chmod(path, 0o600) }
        sqlite3_extended_result_codes(handle, 1)
        setBusyWait(busyWait)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// How long each statement waits for another process's lock from now on.
    func setBusyWait(_ wait: Duration) {
        let (seconds, attoseconds) = wait.components
        sqlite3_busy_timeout(
            handle, Int32(clamping: seconds * 1_000 + attoseconds / 1_000_000_000_000_000))
    }

    /// Whether SQLite opened the file for reading only.
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Runs `sql`, one or more statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status) }
    }

    /// Runs `body` in a transaction that takes the write lock at once (`BEGIN IMMEDIATE`); commits
    /// if `body` returns, rolls back if it (or the commit) throws: never left inside one.
    func writing<Result>(_ body: () throws -> Result) throws -> Result {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            try? run("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` in a read transaction: every statement in it sees one version of the file.
    func reading<Result>(_ body: () throws -> Result) throws -> Result {
        try run("BEGIN")
        defer { try? run("COMMIT") }
        return try body()
    }

    /// Runs `sql`, a statement that returns no rows, with `values` bound to its parameters.
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
        try rows(sql, values) { _ in }
    }

    /// The first column of every row `sql` returns, as text.
    func strings(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> [String] {
        var result: [String] = []
        try rows(sql, values) { result.append($0[0] ?? "") }
        return result
    }

    /// The first column of the first row `sql` returns, as an integer; `nil` if it returns none.
    func integer(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int64? {
        var result: Int64?
        try rows(sql, values) { row in result = result ?? row[0].flatMap { Int64($0) } }
        return result
    }

    /// Hands `body` each row `sql` returns, to read; the statement is reset whatever happens, or
    /// it would keep the connection inside its transaction.
    func rows(_ sql: String, _ values: [SQLiteValue] = [], _ body: (SQLiteRow) -> Void)
        throws(SQLiteError)
    {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status =
                switch value {
                case .integer(let number): sqlite3_bind_int64(statement, index, number)
                case .real(let number): sqlite3_bind_double(statement, index, number)
                // SQLITE_TRANSIENT: SQLite copies the bytes before the call returns. Every byte,
                // by count: a NUL character inside the text would end it at -1.
                case .text(let text):
                    sqlite3_bind_text(
                        statement, index, text, Int32(clamping: text.utf8.count),
                        unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                }
            guard status == SQLITE_OK else { throw error(status) }
        }
        while true {
            let status = sqlite3_step(statement)
            guard status == SQLITE_ROW else {
                if status == SQLITE_DONE { return }
                throw error(status)
            }
            body(SQLiteRow(statement: statement))
        }
    }

    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        statements[sql] = statement
        return statement
    }

    private func error(_ status: Int32) -> SQLiteError {
        SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// The row a statement stands on: read only inside the `rows` body it is handed to.
struct SQLiteRow {
    fileprivate let statement: OpaquePointer

    /// The column as text (`nil` for `NULL`); a double in Swift's shortest text, read back exact.
    subscript(_ column: Int) -> String? {
        withText(column) { $0.map { String(decoding: $0, as: UTF8.self) } }
    }

    /// `body` of the column's text as UTF-8 bytes, as the subscript reads it (no string but a REAL's).
    func withText<T>(_ column: Int, _ body: (UnsafeBufferPointer<UInt8>?) -> T) -> T {
        let index = Int32(column)
        if sqlite3_column_type(statement, index) == SQLITE_FLOAT {
            var text = String(sqlite3_column_double(statement, index))
            return text.withUTF8(body)
        }
        // The text first, then its length, as SQLite asks: a number is turned into text once.
        guard let text = sqlite3_column_text(statement, index) else { return body(nil) }
        let count = Int(sqlite3_column_bytes(statement, index))
        return body(UnsafeBufferPointer(start: text, count: count))
    }
}
