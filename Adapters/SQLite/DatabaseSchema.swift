import CSQLite
import Foundation
import MVCElements
import MVCListStore

/// What the database holds, and how opening checks it. Version 3 (`PRAGMA user_version`):
/// - `elements(id, rank, row_change, <one column per field>)`: the list is the rows in `rank`
///   order, ranks `RowRank.gap` apart, so an insert or a move writes one row.
/// - `change_counter(last, pruned)`, one row: `last` is advanced by every change to a row, and
///   the row's `row_change` set to it; `tombstones(id, row_change)` names each row deleted, with
///   the change that deleted it. Triggers on `elements` keep both, in the transaction of the
///   change, whichever program makes it (the `sqlite3` shell included): a reader that saw every
///   change up to `n` reads only the rows and tombstones after `n`.
/// - Tombstones more than `tombstoneWindow` changes old are pruned by the deletion trigger, and
///   `pruned` says up to where: a reader behind it reads the whole list once.
/// - `meta(key, value)`: `kind`, the element's plural noun.
enum DatabaseSchema {
    /// The schema version this code reads and writes.
    static var version: Int64 { 3 }
    /// How many changes a tombstone is kept for (not a time: the table stays bounded whatever the
    /// clock does); a process that was stopped or asleep for longer reads everything once.
    static var tombstoneWindow: Int64 { 100_000 }
    /// Records the change the counter just reached in `change_log` with a random stamp, by which a
    /// reader knows the file still holds the history it took in (pruned by `change_log_pruned`).
    private static let logChange =
        "    INSERT OR REPLACE INTO change_log (counter, stamp) SELECT last, random() FROM change_counter;"

    /// The log, the indexes and the triggers of the elements table (made again when the table
    /// is rebuilt, or when another program dropped one).
    static var elementTracking: String {
        """
        CREATE TABLE IF NOT EXISTS change_log (counter INTEGER PRIMARY KEY, stamp INTEGER NOT NULL);
        CREATE INDEX IF NOT EXISTS elements_by_rank ON elements (rank);
        CREATE INDEX IF NOT EXISTS elements_by_change ON elements (row_change);
        CREATE TRIGGER IF NOT EXISTS change_log_pruned AFTER INSERT ON change_log
            WHEN NEW.counter % 1024 = 0 BEGIN
            DELETE FROM change_log WHERE counter <= NEW.counter - \(tombstoneWindow);
        END;
        CREATE TRIGGER elements_inserted AFTER INSERT ON elements BEGIN
            UPDATE change_counter SET last = last + 1;
        \(logChange)
            UPDATE elements SET row_change = (SELECT last FROM change_counter)
                WHERE rowid = NEW.rowid;
            DELETE FROM tombstones WHERE id = NEW.id;
        END;
        CREATE TRIGGER elements_updated AFTER UPDATE ON elements
            WHEN NEW.row_change IS OLD.row_change BEGIN
            UPDATE change_counter SET last = last + 1;
        \(logChange)
            UPDATE elements SET row_change = (SELECT last FROM change_counter)
                WHERE rowid = NEW.rowid;
            INSERT OR REPLACE INTO tombstones (id, row_change)
                SELECT OLD.id, last FROM change_counter WHERE OLD.id IS NOT NEW.id;
            DELETE FROM tombstones WHERE id = NEW.id AND OLD.id IS NOT NEW.id;
        END;
        CREATE TRIGGER elements_deleted AFTER DELETE ON elements BEGIN
            UPDATE change_counter SET last = last + 1,
                pruned = max(pruned, last + 1 - \(tombstoneWindow));
        \(logChange)
            INSERT OR REPLACE INTO tombstones (id, row_change)
                SELECT OLD.id, last FROM change_counter;
            DELETE FROM tombstones WHERE row_change <= (SELECT pruned FROM change_counter);
        END;
        """
    }

    /// Whether the elements table has its three triggers, its change index and the change log:
    /// without them a change goes unrecorded, and other processes never see it.
    static func isTracking(_ connection: SQLiteConnection) throws -> Bool {
        try connection.integer(
            "SELECT count(*) FROM sqlite_master WHERE name IN ('elements_inserted', 'elements_updated', 'elements_deleted', 'elements_by_change', 'change_log')"
        ) == 5
    }

    /// Whether the log prunes itself (a file made before it pruned in each change's trigger).
    private static let prunesLog =
        "SELECT count(*) = 1 FROM sqlite_master WHERE type = 'trigger' AND name = 'change_log_pruned'"

    /// Makes the counter's one row again and returns its `last`: from the newest change a row or
    /// tombstone records, with every tombstone counted as pruned (a reader that was behind reads
    /// the whole list).
    static func remakeCounter(_ connection: SQLiteConnection) throws -> Int64 {
        try connection.execute(
            """
            DELETE FROM change_counter;
            INSERT INTO change_counter (last, pruned) SELECT newest + 1, newest + 1 FROM
                (SELECT max(coalesce((SELECT max(row_change) FROM elements), 0),
                    coalesce((SELECT max(row_change) FROM tombstones), 0),
                    coalesce((SELECT max(counter) FROM change_log), 0)) AS newest);
            INSERT OR REPLACE INTO change_log (counter, stamp)
                SELECT last, random() FROM change_counter;
            """)
        return try connection.integer("SELECT last FROM change_counter") ?? 0
    }

    /// The stamp the change log holds for change `counter`, if it holds one.
    static func stamp(of counter: Int64, in connection: SQLiteConnection) throws -> Int64? {
        try connection.integer(
            "SELECT stamp FROM change_log WHERE counter = ?", [.integer(counter)])
    }

    /// The column type a field is declared with: another program sorts and sums a number.
    static func columnType<Element>(_ field: ElementField<Element>) -> String {
        switch field.valueKind {
        case .text: "TEXT"
        case .integer: "INTEGER"
        case .real: "REAL"
        case .boolean: "BOOLEAN"
        }
    }

    /// The values an element's fields are stored as (a field's text, if it is not of its kind).
    static func stored<Element: SQLiteListElement>(_ element: Element) -> [SQLiteValue] {
        Element.fields.map { field in
            let text = field.text(in: element)
            return switch field.valueKind {
            case .text: .text(text)
            case .integer: Int64(text).map { .integer($0) } ?? .text(text)
            // SQLite keeps no NaN (it stores NULL): a number not finite is kept as its text.
            case .real: Double(text).flatMap { $0.isFinite ? .real($0) : nil } ?? .text(text)
            case .boolean:
                text == "true" ? .integer(1) : text == "false" ? .integer(0) : .text(text)
            }
        }
    }

    /// The SQL that reads a field's column as the text the field's parse reads back.
    static func reading<Element>(_ field: ElementField<Element>) -> String {
        let column = quoted(field.name)
        return switch field.valueKind {
        // A REAL is read as a double and written as Swift writes it (`SQLiteConnection.rows`):
        // SQLite's own text of it is not exact.
        case .text, .integer, .real: column
        case .boolean: "CASE \(column) WHEN 1 THEN 'true' WHEN 0 THEN 'false' ELSE \(column) END"
        }
    }

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
        guard kind == Element.databaseKind else {
            throw refuse(
                "it holds a list of \(kind ?? "unknown things"), not of \(Element.pluralNoun)")
        }
        let list = "it is a list of \(Element.pluralNoun), but its table elements"
        let columns = try elementColumns(connection)
        if columns.isEmpty { throw refuse("\(list) is missing") }
        let required = version >= 3 ? ["id", "rank", "row_change"] : ["id", "rank"]
        if let missing = required.first(where: { !columns.contains($0) }) {
            throw refuse("\(list) has no column \(missing)")
        }
        if version >= 3,
            let table = ["change_counter", "tombstones"].first(where: { !tables.contains($0) })
        {
            throw refuse("its table \(table) is missing")
        }
        // A column this code does not know, that a new row must fill: every insert would fail.
        let known = Set(["id", "rank", "row_change"] + Element.fields.map(\.name))
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
        if version == Self.version, Element.fields.allSatisfy({ existing.contains($0.name) }),
            try TypedColumns.mistyped(connection, for: Element.self).isEmpty,
            try isTracking(connection), try connection.integer(prunesLog) == 1,
            try connection.integer("SELECT count(*) FROM change_counter") == 1
        {
            return
        }
        try connection.writing {
            let found = try connection.integer("PRAGMA user_version") ?? 0
            if found < 1 {
                try connection.execute(
                    """
                    CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    CREATE TABLE elements (id TEXT PRIMARY KEY NOT NULL, rank INTEGER NOT NULL);
                    """)
                try connection.run(
                    "INSERT INTO meta (key, value) VALUES ('kind', ?)",
                    [.text(Element.databaseKind)])
            }
            if found < 2 { try connection.execute("DROP TABLE IF EXISTS changes") }
            if found < 3 {
                try connection.execute(
                    """
                    CREATE TABLE change_counter (last INTEGER NOT NULL, pruned INTEGER NOT NULL);
                    INSERT INTO change_counter (last, pruned) VALUES (0, 0);
                    CREATE TABLE tombstones (id TEXT PRIMARY KEY NOT NULL, row_change INTEGER NOT NULL);
                    CREATE INDEX tombstones_by_change ON tombstones (row_change);
                    ALTER TABLE elements ADD COLUMN row_change INTEGER NOT NULL DEFAULT 0;
                    \(elementTracking)
                    """)
            }
            // Later versions add their steps here, each `if found < N`.
            let existing = try elementColumns(connection)
            for field in Element.fields where !existing.contains(field.name) {
                try connection.execute(
                    "ALTER TABLE elements ADD COLUMN \(quoted(field.name)) \(columnType(field))")
            }
            // Asked before a retype, which makes the triggers again with the table.
            let recorded = try isTracking(connection)
            try TypedColumns.retype(connection, for: Element.self)
            // Tracking another program dropped: put back, in a new stretch every reader reads
            // whole once; older triggers (pruning the log at each change) made again.
            if try !recorded || connection.integer(prunesLog) != 1 {
                try connection.execute(
                    """
                    DROP TRIGGER IF EXISTS elements_inserted;
                    DROP TRIGGER IF EXISTS elements_updated;
                    DROP TRIGGER IF EXISTS elements_deleted;
                    DROP TRIGGER IF EXISTS change_log_pruned;
                    \(recorded ? "" : "DROP INDEX IF EXISTS elements_by_change;")
                    \(elementTracking)
                    \(recorded ? "" : "UPDATE change_counter SET last = last + 1, pruned = last + 1;")
                    \(recorded ? "" : logChange)
                    """)
            }
            if try connection.integer("SELECT count(*) FROM change_counter") != 1 {
                _ = try remakeCounter(connection)
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
