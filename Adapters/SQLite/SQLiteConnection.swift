import CSQLite
import Foundation

/// Why SQLite refused a call: its result code and its own message.
struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// SQLite's primary result code (`SQLITE_BUSY`, `SQLITE_NOTADB`, ...).
    var code: Int32
    /// SQLite's message for it.
    var message: String

    var description: String { message }

    /// Whether another process held the database for longer than the busy wait.
    var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }

    /// Whether the file, or its folder, may not be written.
    var isReadOnly: Bool { code & 0xFF == SQLITE_READONLY || code & 0xFF == SQLITE_CANTOPEN }

    /// Whether the file is not a database, or a damaged one.
    var isDamaged: Bool { code & 0xFF == SQLITE_NOTADB || code & 0xFF == SQLITE_CORRUPT }
}

/// One connection to an SQLite database: the only type in the package that calls SQLite's C
/// interface, so every pointer it hands out stays in this file.
///
/// Not `Sendable`: a connection is used by one thread at a time. `ListDatabase` owns one and
/// uses it only from its own serial queue.
final class SQLiteConnection {
    private let handle: OpaquePointer
    private var statements: [String: Statement] = [:]
    /// How long a statement waits for another process's lock.
    private let busyWait: Duration

    /// Opens (or creates) the database at `path`.
    ///
    /// - Parameters:
    ///   - busyWait: How long a statement waits for another process's lock before it fails with
    ///     `SQLITE_BUSY`.
    ///   - readOnly: Open for reading only: nothing is ever written to the file.
    ///   - immutable: Read a file that nothing can change (on a read-only disk), as SQLite's
    ///     `immutable` URI parameter says: no locks, no log index.
    init(path: String, busyWait: Duration, readOnly: Bool = false, immutable: Bool = false)
        throws(SQLiteError)
    {
        // SQLite names its companions after the file (`-journal`, the longest suffix), so a name
        // that leaves no room for one would make the file and then fail: refused first.
        let name = path.split(separator: "/").last.map { $0.utf8.count } ?? 0
        if !readOnly, name + Self.longestSuffix.utf8.count > Self.longestName {
            throw SQLiteError(
                code: SQLITE_CANTOPEN,
                message:
                    "its name is \(name) bytes long, and SQLite needs \(Self.longestSuffix.utf8.count) more for its \(Self.longestSuffix) file (a name may have \(Self.longestName) at most); use a name of at most \(Self.longestName - Self.longestSuffix.utf8.count) bytes"
            )
        }
        // A new database is readable by its owner only, as a new JSON document is; SQLite makes
        // its -wal and -shm files with the database's permissions.
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
        self.busyWait = busyWait
        if isNew { chmod(path, 0o600) }
        sqlite3_extended_result_codes(handle, 1)
        let milliseconds =
            busyWait.components.seconds * 1_000
            + busyWait.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    /// The longest suffix SQLite adds to a database's name for a file of its own.
    private static let longestSuffix = "-journal"
    /// The longest file name the file systems this runs on take (`NAME_MAX`).
    private static let longestName = 255

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Makes closing leave the write-ahead log as it is: for a file no longer at its path, whose
    /// log (named after the path) may be another file's by now.
    func skipsCheckpointOnClose() {
        mvc_sqlite3_skip_checkpoint_on_close(handle)
    }

    /// Puts the database in WAL mode, where readers never wait for a writer.
    ///
    /// A commit is then one append to the log. WAL is a property of the file, set outside any
    /// transaction; a no-op once it is set.
    ///
    /// Turning WAL on reads the file, then takes the write lock. While another connection holds
    /// that lock, SQLite fails the second step at once instead of calling the busy handler (it
    /// never waits while holding a read lock, which could deadlock). Programs opening one new
    /// file together meet that, so this waits here for as long as the busy handler would.
    func useWriteAheadLog() throws(SQLiteError) {
        let clock = ContinuousClock()
        let deadline = clock.now + busyWait
        while true {
            do throws(SQLiteError) {
                let mode = try strings("PRAGMA journal_mode = WAL").first
                // SQLite keeps the mode it has when it cannot change it, and says which.
                guard mode == "wal" else {
                    throw SQLiteError(
                        code: SQLITE_CANTOPEN,
                        message: "SQLite kept its \(mode ?? "unknown") journal mode instead of WAL")
                }
                return
            } catch  where error.isBusy && clock.now < deadline {
                usleep(10_000)
            }
        }
    }

    /// Runs `sql`, one or more statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status) }
    }

    /// The statement for `sql`, prepared once and kept for the next call.
    func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        var prepared: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
        guard status == SQLITE_OK, let prepared else { throw error(status) }
        let statement = Statement(prepared, connection: self)
        statements[sql] = statement
        return statement
    }

    /// Runs `body` in a transaction that takes the write lock at once (`BEGIN IMMEDIATE`), so it
    /// never fails half-way for want of it; commits if `body` returns, rolls back if it throws.
    ///
    /// The three statements are prepared once, like every other.
    func writing<Result>(_ body: () throws -> Result) throws -> Result {
        try run("BEGIN IMMEDIATE", [])
        do {
            let result = try body()
            try run("COMMIT", [])
            return result
        } catch {
            try? run("ROLLBACK", [])
            throw error
        }
    }

    /// Runs `body` in a read transaction: every statement in it sees one version of the database.
    func reading<Result>(_ body: () throws -> Result) throws -> Result {
        try run("BEGIN", [])
        defer { try? run("COMMIT", []) }
        return try body()
    }

    /// Runs `sql`, a statement that returns no rows, with `values` bound to its parameters.
    func run(_ sql: String, _ values: [SQLiteValue]) throws(SQLiteError) {
        try statement(sql).bind(values).run()
    }

    /// The first column of every row `sql` returns, as text.
    func strings(_ sql: String, _ values: SQLiteValue...) throws(SQLiteError) -> [String] {
        let statement = try statement(sql).bind(values)
        defer { statement.reset() }
        var result: [String] = []
        while try statement.step() { result.append(statement.text(at: 0) ?? "") }
        return result
    }

    /// The first column of the first row `sql` returns, as an integer; `nil` if it returns none.
    func integer(_ sql: String, _ values: SQLiteValue...) throws(SQLiteError) -> Int64? {
        let statement = try statement(sql).bind(values)
        defer { statement.reset() }
        return try statement.step() ? statement.integer(at: 0) : nil
    }

    /// The row id of the last row inserted (a change log entry's `seq`).
    var lastInsertedRow: Int64 { sqlite3_last_insert_rowid(handle) }

    fileprivate func error(_ status: Int32) -> SQLiteError {
        SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A prepared statement: bind its parameters, step through its rows, read their columns.
final class Statement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    fileprivate init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Makes the statement ready to run again, with no parameters bound.
    ///
    /// A statement stepped but not reset would keep its read transaction open, and every later
    /// read on the connection would see the database as it was then: reset after reading.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values` to the parameters, in order (the first is parameter 1).
    @discardableResult
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) -> Statement {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let number):
                status = sqlite3_bind_int64(handle, index, number)
            case .text(let text):
                // SQLITE_TRANSIENT: SQLite copies the bytes before this call returns.
                status = sqlite3_bind_text(
                    handle, index, text, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            case .null:
                status = sqlite3_bind_null(handle, index)
            }
            guard status == SQLITE_OK else { throw connection.error(status) }
        }
        return self
    }

    /// Runs the statement to its next row.
    ///
    /// - Returns: Whether there is a row to read; `false` once it is done.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let status:
            // Reset at once: a statement left as it failed keeps its transaction open (the
            // connection would stay inside it, and every later write fail), as SQLite's
            // documentation of sqlite3_step says.
            let error = connection.error(status)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws(SQLiteError) {
        while try step() {}
    }

    /// The integer in column `index` of the current row (0 for `NULL`).
    func integer(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// The text in column `index` of the current row; `nil` for `NULL`.
    func text(at index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}

/// A value bound to a statement's parameter.
enum SQLiteValue {
    case integer(Int64)
    case text(String)
    case null
}
