import CSQLite
import Foundation
import MVCModel
import MVCStore

/// What the database holds, and how opening checks it. The schema (version 2, in
/// `PRAGMA user_version`):
/// - `elements(id, rank, <one column per field>)`: the list is the rows in `rank` order. Ranks
///   leave gaps (2³² apart), so an insert or a move writes one row, halfway between its
///   neighbours; only when a gap is used up are all rows renumbered.
/// - `meta(key, value)`: `kind`, the element's plural noun, so a database of another list is
///   refused.
///
/// Version 1 also kept a log of changes, which version 2 drops.
enum DatabaseSchema {
    /// The schema version this code reads and writes.
    static var version: Int64 { 2 }
    /// How far apart new ranks are.
    static var rankGap: Int64 { 1 << 32 }

    /// `name` as an SQL identifier.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Refuses a database this code must not write to: a newer schema, another program's tables,
    /// a list of something else, or an elements table a write would fail on.
    ///
    /// - Returns: The schema version found (0 for a new, empty database).
    static func check<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, for _: Element.Type, path: String
    ) throws -> Int64 {
        let refuse = { (problem: String) in PersistenceError.corrupt(path: path, reason: problem) }
        let version = try storedVersion(connection, path: path)
        if version == 0 {
            let tables = try connection.strings(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            guard tables.isEmpty else {
                throw refuse(
                    "it is an SQLite database, but not a list of \(Element.pluralNoun) (it has the tables \(tables.joined(separator: ", ")))"
                )
            }
            return 0
        }
        let tables = try connection.strings("SELECT name FROM sqlite_master WHERE type = 'table'")
        guard tables.contains("meta") else { throw refuse("its table meta is missing") }
        let kind = try connection.strings("SELECT value FROM meta WHERE key = 'kind'").first
        guard kind == Element.pluralNoun else {
            throw refuse(
                "it holds a list of \(kind ?? "unknown things"), not of \(Element.pluralNoun)")
        }
        let list = "it is a list of \(Element.pluralNoun), but its table elements"
        let columns = try connection.strings("SELECT name FROM pragma_table_info('elements')")
        if columns.isEmpty { throw refuse("\(list) is missing") }
        if let missing = ["id", "rank"].first(where: { !columns.contains($0) }) {
            throw refuse("\(list) has no column \(missing)")
        }
        // A column this code does not know, that a new row must fill: every insert would fail.
        let known = Set(["id", "rank"] + Element.fields.map(\.name))
        let unfillable = try connection.strings(
            "SELECT name FROM pragma_table_info('elements') WHERE \"notnull\" AND dflt_value IS NULL"
        )
        if let column = unfillable.first(where: { !known.contains($0) }) {
            throw refuse(
                "\(list) has a column \(column) that every row must fill, and this code does not know it"
            )
        }
        return version
    }

    /// The one error for a file open here that is no longer a database this program made.
    static func notMine(_ path: String) -> PersistenceError {
        .corrupt(path: path, reason: "it is no longer a database this program made")
    }

    /// The schema version the file holds (`PRAGMA user_version`), refusing a newer one than this
    /// code reads and writes.
    static func storedVersion(_ connection: SQLiteConnection, path: String) throws -> Int64 {
        let version = try connection.integer("PRAGMA user_version") ?? 0
        if version > Self.version {
            throw PersistenceError.newerVersion(
                path: path, found: Int(version), supported: Int(Self.version))
        }
        return version
    }

    /// Brings a checked database from `version` to the current one, and gives every described
    /// field a column.
    ///
    /// Takes the write lock only if there is something to do, and reads the version again inside
    /// it: of several processes opening a new file, one makes it.
    static func migrate<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, from version: Int64, for _: Element.Type,
        busyWait: Duration, path: String
    ) throws {
        switch Result(catching: { () throws(SQLiteError) in
            try useWriteAheadLog(connection, busyWait: busyWait)
        }) {
        case .success: break
        case .failure(let error) where error.isBusy:
            throw PersistenceError.unwritable(
                path: path,
                reason:
                    "it is in SQLite's rollback-journal mode, which this program turns into WAL mode when it opens a file, and another program kept a transaction open on it for longer than \(busyWait) (the switch needs none open); nothing was changed"
            )
        case .failure(let error): throw error
        }
        try connection.execute("PRAGMA synchronous = FULL")
        let columns = {
            Set(try connection.strings("SELECT name FROM pragma_table_info('elements')"))
        }
        let existing = try columns()
        if version == Self.version, Element.fields.allSatisfy({ existing.contains($0.name) }) {
            return
        }
        try connection.writing {
            let found = try connection.integer("PRAGMA user_version") ?? 0
            if found < 1 {
                try connection.execute(
                    """
                    CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    CREATE TABLE elements (id TEXT PRIMARY KEY NOT NULL, rank INTEGER NOT NULL);
                    CREATE INDEX elements_by_rank ON elements (rank);
                    """)
                try connection.run(
                    "INSERT INTO meta (key, value) VALUES ('kind', ?)", .text(Element.pluralNoun))
            }
            if found < 2 { try connection.execute("DROP TABLE IF EXISTS changes") }
            // Later versions add their steps here, each `if found < N`.
            let existing = try columns()
            for field in Element.fields where !existing.contains(field.name) {
                try connection.execute(
                    "ALTER TABLE elements ADD COLUMN \(quoted(field.name)) TEXT")
            }
            try connection.execute("PRAGMA user_version = \(Self.version)")
        }
    }

    /// Puts the database in WAL mode, where readers never wait for a writer and a commit is one
    /// append to the log; a no-op once the file is in it.
    ///
    /// Turning WAL on takes the write lock while holding a read lock, so SQLite fails at once
    /// with `SQLITE_BUSY` instead of waiting (which could deadlock): this waits as the busy
    /// handler would.
    private static func useWriteAheadLog(_ connection: SQLiteConnection, busyWait: Duration)
        throws(SQLiteError)
    {
        let deadline = ContinuousClock.now + busyWait
        while true {
            do throws(SQLiteError) {
                let mode = try connection.strings("PRAGMA journal_mode = WAL").first
                // SQLite keeps the mode it has when it cannot change it, and says which.
                guard mode == "wal" else {
                    throw SQLiteError(
                        code: SQLITE_CANTOPEN,
                        message: "SQLite kept its \(mode ?? "unknown") journal mode instead of WAL")
                }
                return
            } catch  where error.isBusy && ContinuousClock.now < deadline {
                usleep(10_000)
            }
        }
    }
}
