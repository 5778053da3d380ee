import CSQLite
import Foundation
import MVCModel
import MVCStore

/// What the database holds, and how opening checks it. Version 2 (`PRAGMA user_version`):
/// - `elements(id, rank, <one column per field>)`: the list is the rows in `rank` order, ranks
///   `rankGap` apart, so an insert or a move writes one row.
/// - `meta(key, value)`: `kind`, the element's plural noun.
enum DatabaseSchema {
    /// The schema version this code reads and writes.
    static var version: Int64 { 2 }
    /// How far apart new ranks are.
    static var rankGap: Int64 { 1 << 32 }

    /// `name` as an SQL identifier.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The names of the elements table's columns (none if there is no such table).
    static func elementColumns(_ connection: SQLiteConnection) throws(SQLiteError) -> Set<String> {
        Set(try connection.strings("SELECT name FROM pragma_table_info('elements')"))
    }

    /// The schema version found (0 for a new, empty database), refusing a database this code must
    /// not write to (another program's, of other things, or one a write would fail on).
    static func check<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, for _: Element.Type, path: String
    ) throws -> Int64 {
        let refuse = { (problem: String) in PersistenceError.corrupt(path: path, reason: problem) }
        let version = try storedVersion(connection, path: path)
        let tables = try connection.strings(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        if version == 0 {
            // This program's tables, their version cleared by another program.
            if tables.contains("elements"), tables.contains("meta") { throw notMine(path) }
            guard tables.isEmpty else {
                throw refuse(
                    "it is an SQLite database, but not a list of \(Element.pluralNoun) (it has the tables \(tables.joined(separator: ", ")))"
                )
            }
            return 0
        }
        guard tables.contains("meta") else { throw refuse("its table meta is missing") }
        let kind = try connection.strings("SELECT value FROM meta WHERE key = 'kind'").first
        guard kind == Element.pluralNoun else {
            throw refuse(
                "it holds a list of \(kind ?? "unknown things"), not of \(Element.pluralNoun)")
        }
        let list = "it is a list of \(Element.pluralNoun), but its table elements"
        let columns = try elementColumns(connection)
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

    /// The file's `PRAGMA user_version`, refusing one newer than this code reads and writes.
    static func storedVersion(_ connection: SQLiteConnection, path: String) throws -> Int64 {
        let version = try connection.integer("PRAGMA user_version") ?? 0
        if version > Self.version {
            throw PersistenceError.newerVersion(
                path: path, found: Int(version), supported: Int(Self.version))
        }
        return version
    }

    /// Brings a checked database from `version` to the current one, and gives every described
    /// field a column; the write lock is taken only if there is something to do, and the version
    /// read again inside it (of several processes opening a new file, one makes it).
    static func migrate<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, from version: Int64, for _: Element.Type,
        busyWait: Duration, path: String
    ) throws {
        do throws(SQLiteError) {
            try useWriteAheadLog(connection, busyWait: busyWait)
        } catch {
            guard error.isBusy else { throw error }
            throw PersistenceError.unwritable(
                path: path,
                reason:
                    "it is in SQLite's rollback-journal mode, which this program turns into WAL mode when it opens a file, and another program kept a transaction open on it for longer than \(busyWait) (the switch needs none open); nothing was changed"
            )
        }
        try connection.execute("PRAGMA synchronous = FULL")
        let existing = try elementColumns(connection)
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
            let existing = try elementColumns(connection)
            for field in Element.fields where !existing.contains(field.name) {
                try connection.execute(
                    "ALTER TABLE elements ADD COLUMN \(quoted(field.name)) TEXT")
            }
            try connection.execute("PRAGMA user_version = \(Self.version)")
        }
    }

    /// Puts the database in WAL mode (a no-op once it is), waiting out `SQLITE_BUSY` as the busy
    /// handler would: SQLite fails the switch at once instead of waiting, which could deadlock.
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
