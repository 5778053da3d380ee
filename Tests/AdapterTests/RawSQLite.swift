import CSQLite
import Foundation

/// A database opened with SQLite's C interface directly, as another program (or a user at the
/// `sqlite3` shell) would: to set a database up, or to look at it, behind the store's back.
final class RawSQLite {
    private var handle: OpaquePointer?

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(_ url: URL) throws {
        guard sqlite3_open(url.path, &handle) == SQLITE_OK else {
            throw Failure(description: "cannot open \(url.path)")
        }
        sqlite3_busy_timeout(handle, 5_000)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw Failure(description: "\(sql): \(text)")
        }
    }

    /// The rows `sql` returns, each column as text ("NULL" for a null).
    func rows(_ sql: String) throws -> [[String]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_finalize(statement) }
        var rows: [[String]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(
                (0..<sqlite3_column_count(statement)).map { column in
                    sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL"
                })
        }
        return rows
    }
}
