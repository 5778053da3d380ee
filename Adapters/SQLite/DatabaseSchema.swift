import Foundation
import MVCModel
import MVCStore

/// What the database holds, and how opening checks it: the schema, its version, and the rows
/// decoded into elements.
///
/// The schema (version 1, in `PRAGMA user_version`):
/// - `elements(id, rank, <one column per field>)`: the list is the rows in `rank` order. Ranks
///   leave gaps (2³² apart), so an insert or a move writes one row, the element's own, halfway
///   between its neighbours; only when a gap is used up are all rows renumbered.
/// - `changes(seq, element_id, origin)`: one entry per committed edit; another process reads the
///   entries after the last one it saw, and those rows. The log keeps its last 10,000 entries; a
///   process further behind reads the whole list.
/// - `meta(key, value)`: what the database holds (`kind`: the element's plural noun), so a
///   database of another list is refused.
enum DatabaseSchema {
    /// The schema version this code reads and writes.
    static var version: Int64 { 1 }
    /// How far apart new ranks are.
    static var rankGap: Int64 { 1 << 32 }
    /// How many change log entries are kept.
    static var keptChanges: Int64 { 10_000 }

    /// `name` as an SQL identifier.
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Refuses a database this code must not write to: a newer schema, another program's tables,
    /// a list of something else, or tables changed so that a write would fail.
    ///
    /// - Returns: The schema version found (0 for a new, empty database).
    static func check<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, for _: Element.Type, path: String
    ) throws -> Int64 {
        let refuse = { (problem: String) in PersistenceError.corrupt(path: path, reason: problem) }
        let version = try connection.integer("PRAGMA user_version") ?? 0
        if version > Self.version {
            throw PersistenceError.newerVersion(
                path: path, found: Int(version), supported: Int(Self.version))
        }
        let tables = try connection.strings(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        if version == 0 {
            guard tables.isEmpty else {
                throw refuse(
                    "it is an SQLite database, but not a list of \(Element.pluralNoun) (it has the tables \(tables.joined(separator: ", ")))"
                )
            }
            return 0
        }
        let kind = try connection.strings("SELECT value FROM meta WHERE key = 'kind'").first
        guard kind == Element.pluralNoun else {
            throw refuse(
                "it holds a list of \(kind ?? "unknown things"), not of \(Element.pluralNoun)")
        }
        let list = "it is a list of \(Element.pluralNoun), but"
        for (table, needed, known) in [
            ("elements", ["id", "rank"], Set(["id", "rank"] + Element.fields.map(\.name))),
            ("changes", ["seq", "element_id", "origin"], Set(["seq", "element_id", "origin"])),
        ] {
            let found = try connection.strings(
                "SELECT name FROM pragma_table_info(?)", .text(table))
            if found.isEmpty { throw refuse("\(list) its table \(table) is missing") }
            if let missing = needed.first(where: { !found.contains($0) }) {
                throw refuse("\(list) its table \(table) has no column \(missing)")
            }
            // A column this code does not know, that a new row must fill: every insert would fail.
            let unfillable = try connection.strings(
                "SELECT name FROM pragma_table_info(?) WHERE \"notnull\" AND dflt_value IS NULL",
                .text(table))
            if let column = unfillable.first(where: { !known.contains($0) }) {
                throw refuse(
                    "\(list) its table \(table) has a column \(column) that every row must fill, and this code does not know it"
                )
            }
        }
        // The log's numbers are its row ids: given by SQLite, one more than the largest.
        let key = try connection.strings(
            "SELECT name || ' ' || upper(type) FROM pragma_table_info('changes') WHERE pk > 0")
        guard key == ["seq INTEGER"] else {
            throw refuse(
                "\(list) its table changes does not number its entries (seq is not its INTEGER PRIMARY KEY)"
            )
        }
        return version
    }

    /// Brings a checked database from `version` to the current one, and gives every described
    /// field a column; takes the write lock only if there is something to do.
    ///
    /// Several processes may open a new database at once: the version is read again inside the
    /// write transaction, so only the first creates the tables.
    static func migrate<Element: SQLiteListElement>(
        _ connection: SQLiteConnection, from version: Int64, for _: Element.Type
    ) throws {
        try connection.useWriteAheadLog()
        try connection.execute("PRAGMA synchronous = FULL")
        let columns = try Set(connection.strings("SELECT name FROM pragma_table_info('elements')"))
        if version == Self.version, Element.fields.allSatisfy({ columns.contains($0.name) }) {
            return
        }
        try connection.writing {
            if try connection.integer("PRAGMA user_version") ?? 0 < 1 {
                try connection.execute(
                    """
                    CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                    CREATE TABLE elements (id TEXT PRIMARY KEY NOT NULL, rank INTEGER NOT NULL);
                    CREATE INDEX elements_by_rank ON elements (rank);
                    CREATE TABLE changes (
                        seq INTEGER PRIMARY KEY, element_id TEXT NOT NULL, origin TEXT NOT NULL);
                    """)
                try connection.run(
                    "INSERT INTO meta (key, value) VALUES ('kind', ?)", [.text(Element.pluralNoun)])
            }
            // Later versions add their steps here, each `if version < N`.
            let columns = try Set(
                connection.strings("SELECT name FROM pragma_table_info('elements')"))
            for field in Element.fields where !columns.contains(field.name) {
                try connection.execute(
                    "ALTER TABLE elements ADD COLUMN \(quoted(field.name)) TEXT")
            }
            try connection.execute("PRAGMA user_version = \(Self.version)")
        }
    }
}

/// The statements that name every described field, written once.
struct FieldStatements {
    /// Inserts a row: id, rank, then each field.
    var insert: String
    /// Sets each field of the row with an id (the last parameter).
    var update: String
    /// Reads the id and each field of the row with an id.
    var select: String

    init<Element: SQLiteListElement>(for _: Element.Type) {
        let fields = Element.fields.map { DatabaseSchema.quoted($0.name) }
        let columns = (["id", "rank"] + fields).joined(separator: ", ")
        let parameters = Array(repeating: "?", count: fields.count + 2).joined(separator: ", ")
        insert = "INSERT OR REPLACE INTO elements (\(columns)) VALUES (\(parameters))"
        update =
            "UPDATE elements SET \(fields.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?"
        select = "SELECT \((["id"] + fields).joined(separator: ", ")) FROM elements WHERE id = ?"
    }
}
